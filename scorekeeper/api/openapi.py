"""The API described for machines: OpenAPI 3.1, served at ``/api/v1/openapi.json``.

Written by hand, beside the views, from the same constants the views check
against (seats, presets, rule options, money, limits). The tests send every
example through the app and validate each answer against these schemas, and
Schemathesis generates requests from them, so a change here that the views
don't follow (or the other way round) fails the suite.
"""

import copy
from collections.abc import Sequence
from typing import Any, Final

from flask import jsonify
from werkzeug.wrappers import Response

from scorekeeper.engine import (
    MAX_DEAL_SCORE,
    MIN_DEAL_SCORE,
    DifferenceRule,
    LineKind,
    Preset,
    SkunkRule,
)
from scorekeeper.engine.rules import MAX_TARGET, MIN_TARGET
from scorekeeper.engine.tally import MAX_STARS_OUT
from scorekeeper.league.queries import MAX_ID, PAGE_SIZE, STATUSES
from scorekeeper.table.counted_cards import HAND_CLASSES, MAX_COUNT, MAX_SETS

from .core import PREFIX, bp
from .idempotency import HEADER, KEY_PATTERN
from .inputs import MONEY_PATTERN

Schema = dict[str, Any]

MONEY_OUT: Final = r"^-?[0-9]+\.[0-9]{2}$"


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Schema], required: list[str] | None = None) -> Schema:
    """An object with exactly these properties (``required``: all of them unless given)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def pair(items: Schema) -> Schema:
    """A per-player list: two values, in seat order."""
    return {"type": "array", "items": items, "minItems": 2, "maxItems": 2}


INTEGER: Final[Schema] = {"type": "integer"}
COUNT: Final[Schema] = {"type": "integer", "minimum": 0}
STRING: Final[Schema] = {"type": "string"}
BOOLEAN: Final[Schema] = {"type": "boolean"}
TIME: Final[Schema] = {"type": "string", "format": "date-time"}
SEAT: Final[Schema] = {
    "type": "integer",
    "enum": [0, 1],
    "description": "0: the first player named.",
}
MONEY: Final[Schema] = {"type": "string", "pattern": MONEY_OUT, "examples": ["19.00"]}
MONEY_IN: Final[Schema] = {
    "type": "string",
    "pattern": MONEY_PATTERN,
    "description": "A decimal string with at most two places; a JSON number is a 422.",
    "examples": ["1.00", "0.25"],
}
TARGET: Final[Schema] = {
    "type": "integer",
    "minimum": MIN_TARGET,
    "maximum": MAX_TARGET,
    "multipleOf": 5,
}
RULES: Final[dict[str, Schema]] = {
    "target": TARGET,
    "progressive": BOOLEAN,
    "natural_needed": BOOLEAN,
    "skunk": {"type": "string", "enum": [rule.value for rule in SkunkRule]},
    "difference": {"type": "string", "enum": [rule.value for rule in DifferenceRule]},
}
SCORE_IN: Final[Schema] = {
    "type": "integer",
    "minimum": MIN_DEAL_SCORE,
    "maximum": MAX_DEAL_SCORE,
    "multipleOf": 5,
}
COUNT_IN: Final[Schema] = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT}

SCHEMAS: Final[dict[str, Schema]] = {
    "Error": {
        **obj(
            {
                "error": {"type": "string", "description": "One sentence."},
                "fields": {
                    "type": "object",
                    "description": "For a 422: the messages for each field at fault "
                    '("players.1", "stakes.small", "scores.0", "naturals.1", …).',
                    "additionalProperties": {
                        "type": "array",
                        "items": STRING,
                        "minItems": 1,
                    },
                },
            },
            ["error"],
        ),
    },
    "Rules": obj(RULES),
    "RulesInput": {
        **obj(RULES, []),
        "description": "Any rule option; each overrides the preset's.",
    },
    "Stakes": obj({"small": MONEY, "big": MONEY}),
    "StakesInput": {
        **obj({"small": MONEY_IN, "big": MONEY_IN}, ["small"]),
        "description": "big defaults to three times small. Both more than 0, at most 10,000.",
    },
    "SettlementLine": obj(
        {
            "kind": {"type": "string", "enum": [kind.value for kind in LineKind]},
            "count": {"type": "integer", "minimum": 1},
            "amount": {**MONEY, "description": "Before the multiplier."},
        }
    ),
    "Settlement": obj(
        {
            "payer": SEAT,
            "payee": SEAT,
            "multiplier": {"type": "integer", "enum": [1, 2, 3]},
            "total": {**MONEY, "description": "After the multiplier."},
            "rounded": pair(INTEGER),
            "lines": {"type": "array", "items": ref("SettlementLine")},
        }
    ),
    "Deal": obj(
        {
            "number": {"type": "integer", "minimum": 1},
            "dealer": SEAT,
            "out": SEAT,
            "scores": pair(INTEGER),
            "naturals": pair(COUNT),
            "chapeau": pair(BOOLEAN),
            "totals": {**pair(INTEGER), "description": "The running totals after this deal."},
            "cards": nullable(ref("Cards")),
        }
    ),
    "Game": obj(
        {
            "id": INTEGER,
            "league": {**STRING, "description": "The league's slug."},
            "players": pair(STRING),
            "preset": nullable({"type": "string", "enum": [p.value for p in Preset]}),
            "rules": ref("Rules"),
            "stakes": ref("Stakes"),
            "status": {"type": "string", "enum": ["in_progress", "finished"]},
            "version": {"type": "integer", "minimum": 1},
            "first_dealer": SEAT,
            "next_dealer": SEAT,
            "deals": {"type": "array", "items": ref("Deal")},
            "totals": pair(INTEGER),
            "naturals": pair(COUNT),
            "chapeaux": pair(COUNT),
            "winner": nullable(SEAT),
            "settlement": nullable(ref("Settlement")),
            "locked": {**BOOLEAN, "description": "Marked paid: no change until unlocked."},
            "paid_at": nullable(TIME),
            "created_at": TIME,
            "finished_at": nullable(TIME),
        }
    ),
    "GameSummary": obj(
        {
            "id": INTEGER,
            "league": STRING,
            "players": pair(STRING),
            "preset": nullable({"type": "string", "enum": [p.value for p in Preset]}),
            "status": {"type": "string", "enum": ["in_progress", "finished"]},
            "version": {"type": "integer", "minimum": 1},
            "deal_count": COUNT,
            "totals": pair(INTEGER),
            "naturals": pair(COUNT),
            "chapeaux": pair(COUNT),
            "winner": nullable(SEAT),
            "amount": {**nullable(MONEY), "description": "What the loser pays, once finished."},
            "locked": BOOLEAN,
            "created_at": TIME,
            "finished_at": nullable(TIME),
        }
    ),
    "GamePage": obj(
        {
            "games": {"type": "array", "items": ref("GameSummary"), "maxItems": PAGE_SIZE},
            "next_page": {
                **nullable({"type": "integer", "minimum": 1}),
                "description": "Pass it as page= for the next (older) games; null: no more.",
            },
        }
    ),
    "LeagueSummary": obj(
        {
            "slug": STRING,
            "name": STRING,
            "public": BOOLEAN,
            "players": COUNT,
            "games": COUNT,
        }
    ),
    "Player": obj({"id": INTEGER, "name": STRING}),
    "League": obj(
        {
            "slug": STRING,
            "name": STRING,
            "public": BOOLEAN,
            "players": {"type": "array", "items": ref("Player")},
        }
    ),
    "Standing": obj(
        {
            "player": STRING,
            "played": COUNT,
            "won": COUNT,
            "lost": COUNT,
            "net": {**MONEY, "description": "Money won minus money lost."},
            "naturals": COUNT,
            "chapeaux": COUNT,
            "skunks_given": COUNT,
            "skunks_taken": COUNT,
            "rating": INTEGER,
        }
    ),
    "Event": obj(
        {
            "action": STRING,
            "summary": STRING,
            "user": nullable(STRING),
            "at": TIME,
            "before": {},
            "after": {},
        }
    ),
    "NewLeague": obj({"name": STRING, "public": {**BOOLEAN, "default": True}}, ["name"]),
    "NewPlayer": obj({"name": STRING}),
    "NewGame": obj(
        {
            "league": {**STRING, "description": "The league's slug."},
            "players": {
                **pair(STRING),
                "description": "Two different players of the league, in seat order.",
            },
            "preset": {
                **nullable({"type": "string", "enum": [p.value for p in Preset]}),
                "default": Preset.STANDARD.value,
            },
            "rules": nullable(ref("RulesInput")),
            "stakes": {
                **nullable(ref("StakesInput")),
                "description": "Default: the league's default stakes, else 1.00 and 3.00.",
            },
            "first_dealer": {**nullable(SEAT), "description": "Absent or null: drawn at random."},
        },
        ["league", "players"],
    ),
    "DealInput": obj(
        {
            "out": SEAT,
            "scores": pair(SCORE_IN),
            "naturals": {
                **pair({"type": "integer", "minimum": 0, "maximum": MAX_STARS_OUT}),
                "default": [0, 0],
            },
            "version": {
                **nullable({"type": "integer", "minimum": 1}),
                "description": "When given, the game's current version, else 409.",
            },
            "cards": {
                **nullable(ref("Cards")),
                "description": "The cards the deal was counted from (POST /count); "
                "kept with the deal when they count to exactly this tally.",
            },
        },
        ["out", "scores"],
    ),
    "VersionInput": obj({"version": nullable({"type": "integer", "minimum": 1})}, []),
    "CardSet": obj(
        {
            "rank": {
                "type": ["string", "integer"],
                "description": "2 to 10, J, Q, K or A (any case; 2 to 10 also as numbers).",
            },
            "naturals": COUNT_IN,
            "wild_twos": COUNT_IN,
            "specials": {**COUNT_IN, "description": "How many of the naturals are Q♠ or J♦."},
        },
        ["rank", "naturals"],
    ),
    "PlayerCards": obj(
        {
            "sets": {"type": "array", "items": ref("CardSet"), "maxItems": MAX_SETS},
            "hand": obj(dict.fromkeys(HAND_CLASSES, COUNT_IN), []),
        },
        [],
    ),
    "Cards": obj({"out": SEAT, "players": pair(ref("PlayerCards"))}),
    "CountRequest": obj(
        {
            "out": SEAT,
            "players": pair(ref("PlayerCards")),
            "names": {**nullable(pair(STRING)), "description": "Used in messages."},
        },
        ["out", "players"],
    ),
    "SetCount": obj(
        {
            "rank": STRING,
            "cards": COUNT,
            "factor": {"type": "integer", "enum": [1, 2, 4]},
            "points": INTEGER,
            "natural_set": BOOLEAN,
            "description": STRING,
        }
    ),
    "Count": obj(
        {
            "out": SEAT,
            "scores": pair(INTEGER),
            "naturals": pair(COUNT),
            "chapeau": pair(BOOLEAN),
            "natural_going_out": BOOLEAN,
            "breakdown": pair({"type": "array", "items": ref("SetCount")}),
            "table_points": pair(INTEGER),
            "hand_points": pair(INTEGER),
        }
    ),
}

ERRORS: Final = {
    400: "The body is not JSON, or not a JSON object (or the Idempotency-Key is malformed).",
    401: "No token on a write, or a bad token on any request.",
    403: "The token's user doesn't have the role this needs.",
    404: "No such league, game or deal (a private league is a 404 to outsiders).",
    409: "The request conflicts with the game's state: finished, locked, or a stale version.",
    422: "A field or query argument is invalid (or unknown); fields names each one "
    "with the rule it broke.",
}


def _json(schema: Schema) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: Schema, headers: Sequence[str] = ()) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, **_json(schema)}
    if headers:
        answer["headers"] = {name: {"schema": STRING} for name in headers}
    return answer


def operation(
    summary: str,
    answer: tuple[int, dict[str, Any]],
    errors: tuple[int, ...],
    *,
    body: str | None = None,
    body_required: bool = True,
    parameters: list[dict[str, Any]] | None = None,
    write: bool = False,
) -> dict[str, Any]:
    """One operation: its answer, its errors, and for a write the bearer token it needs."""
    found: dict[str, Any] = {
        "summary": summary,
        "responses": {
            str(answer[0]): answer[1],
            **{
                str(code): {"description": ERRORS[code], **_json(ref("Error"))}
                for code in sorted({401, 422, *errors})
            },
        },
    }
    if body is not None:
        found["requestBody"] = {"required": body_required, **_json(ref(body))}
    if parameters:
        found["parameters"] = parameters
    if write:
        found["security"] = [{"bearer": []}]
    return found


def _path(name: str, schema: Schema, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": schema,
        "description": description,
    }


def _query(name: str, schema: Schema, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


ID: Final = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
SLUG: Final = _path("slug", STRING, "The league's slug, e.g. our-table.")
GAME: Final = _path("game_id", ID, "The game's id.")
NUMBER: Final = _path("number", {"type": "integer", "minimum": 1}, "The deal's number, from 1.")
IDEMPOTENCY: Final = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": KEY_PATTERN},
    "description": "A retry with the same key gets the first answer instead of a second change.",
}
REPLAY_HEADERS: Final = ["Idempotent-Replayed"]
GAME_OK: Final = (200, _ok("The game, after the change.", ref("Game")))


def paths() -> dict[str, Any]:
    deal_errors = (400, 403, 404, 409, 422)
    return {
        "/leagues": {
            "get": operation(
                "The leagues the caller may read.",
                (200, _ok("Leagues.", {"type": "array", "items": ref("LeagueSummary")})),
                (),
            ),
            "post": operation(
                "A site administrator creates a league; its slug is made from its name.",
                (201, _ok("The league.", ref("League"), ["Location", *REPLAY_HEADERS])),
                (400, 403, 409, 422),
                body="NewLeague",
                parameters=[IDEMPOTENCY],
                write=True,
            ),
        },
        "/leagues/{slug}": {
            "get": operation(
                "A league and its players.",
                (200, _ok("The league.", ref("League"))),
                (404,),
                parameters=[SLUG],
            )
        },
        "/leagues/{slug}/players": {
            "post": operation(
                "A league admin adds a player (a name new in the league, ignoring case).",
                (201, _ok("The player.", ref("Player"), REPLAY_HEADERS)),
                (400, 403, 404, 409, 422),
                body="NewPlayer",
                parameters=[SLUG, IDEMPOTENCY],
                write=True,
            )
        },
        "/leagues/{slug}/standings": {
            "get": operation(
                "Every player with a finished game, best first: most wins, then best net.",
                (200, _ok("Standings.", {"type": "array", "items": ref("Standing")})),
                (404,),
                parameters=[SLUG],
            )
        },
        "/leagues/{slug}/games": {
            "get": operation(
                f"The league's games, newest first, {PAGE_SIZE} a page.",
                (200, _ok("A page of games.", ref("GamePage"))),
                (404, 422),
                parameters=[
                    SLUG,
                    _query("player", STRING, "Only the games of this player (a name)."),
                    _query("status", {"type": "string", "enum": list(STATUSES)}, "Only these."),
                    _query("page", ID, "The next_page of the page before; absent: the newest."),
                ],
            )
        },
        "/games": {
            "post": operation(
                "A scorekeeper of the league starts a game.",
                (201, _ok("The game.", ref("Game"), ["Location", *REPLAY_HEADERS])),
                (400, 403, 409, 422),
                body="NewGame",
                parameters=[IDEMPOTENCY],
                write=True,
            )
        },
        "/games/{game_id}": {
            "get": operation(
                "The game: every deal with the running totals, the winner and the settlement.",
                (200, _ok("The game.", ref("Game"))),
                (404,),
                parameters=[GAME],
            )
        },
        "/games/{game_id}/history": {
            "get": operation(
                "The game's audit trail, newest first (members of its league).",
                (200, _ok("Changes.", {"type": "array", "items": ref("Event")})),
                (403, 404),
                parameters=[GAME],
            )
        },
        "/games/{game_id}/deals": {
            "post": operation(
                "Record the next deal.",
                (201, _ok("The game, with the deal.", ref("Game"), REPLAY_HEADERS)),
                deal_errors,
                body="DealInput",
                parameters=[GAME, IDEMPOTENCY],
                write=True,
            )
        },
        "/games/{game_id}/deals/{number}": {
            "put": operation(
                "Correct a deal; everything after it is recomputed.",
                GAME_OK,
                deal_errors,
                body="DealInput",
                parameters=[GAME, NUMBER],
                write=True,
            ),
            "delete": operation(
                "Delete a deal; later deals are renumbered.",
                GAME_OK,
                (403, 404, 409, 422),
                parameters=[
                    GAME,
                    NUMBER,
                    _query("version", {"type": "integer", "minimum": 1}, "As in a deal's body."),
                ],
                write=True,
            ),
        },
        "/games/{game_id}/paid": {
            "post": operation(
                "Mark the loser's payment paid: the finished game is settled and locked.",
                (200, _ok("The game.", ref("Game"), REPLAY_HEADERS)),
                deal_errors,
                body="VersionInput",
                body_required=False,
                parameters=[GAME, IDEMPOTENCY],
                write=True,
            )
        },
        "/games/{game_id}/unlock": {
            "post": operation(
                "A league admin unlocks a settled game; it is unpaid again.",
                (200, _ok("The game.", ref("Game"), REPLAY_HEADERS)),
                deal_errors,
                body="VersionInput",
                body_required=False,
                parameters=[GAME, IDEMPOTENCY],
                write=True,
            )
        },
        "/count": {
            "post": operation(
                "Count a deal from the cards: both deal scores and stars.",
                (200, _ok("The count.", ref("Count"))),
                (400, 422),
                body="CountRequest",
            )
        },
        "/openapi.json": {
            "get": operation(
                "This description.", (200, _ok("OpenAPI 3.1.", {"type": "object"})), ()
            )
        },
    }


def spec() -> dict[str, Any]:
    """The whole description, as a new dict."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Mille Scorekeeper API",
            "version": "1.0.0",
            "description": "Everything a page can do with a league or a game, as JSON. "
            "Money is a decimal string with two places; seats are 0 and 1; every "
            "per-player list is in seat order. See the README's API section.",
        },
        "servers": [{"url": PREFIX}],
        "security": [{}, {"bearer": []}],
        "paths": paths(),
        "components": {
            "schemas": copy.deepcopy(SCHEMAS),
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "flask --app scorekeeper token create USERNAME, "
                    "or the account page.",
                }
            },
        },
    }


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API described in OpenAPI 3.1."""
    return jsonify(spec())
