"""What the API answers: games, deals, settlements, histories, agreements, counts and errors
(a league's answers are :mod:`.league_answers`).

Each answer is declared once here, with how it is made from what the app holds
(``of``); the OpenAPI description is generated from the same classes. Seats are 0
and 1 and every per-player list is in seat order; money is a decimal string with two
places; times are UTC, ISO 8601 with a ``Z``. A game is replayed by the engine
(:func:`~scorekeeper.table.service.scorecard`), exactly as its page is; a game summary
reads only the game's stored columns.
"""

from datetime import datetime
from typing import Annotated, Any, Final, Literal, Self

from flask import jsonify
from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema
from werkzeug.wrappers import Response

from scorekeeper import engine, models
from scorekeeper.engine import DifferenceRule, LineKind, Preset, Seat, SkunkRule, format_money
from scorekeeper.league.queries import PAGE_SIZE
from scorekeeper.table import audit, seats
from scorekeeper.table import service as game_service
from scorekeeper.web.messages import set_description

from .reading import Pair, omitted
from .shapes import SEAT_DESCRIPTION

MONEY_OUT: Final = r"^-?[0-9]+\.[0-9]{2}$"


def when(moment: datetime) -> str:
    """A stored UTC time as ``2025-03-14T21:30:00Z``."""
    return moment.replace(microsecond=0).isoformat() + "Z"


#: Cents, answered as a decimal string with two places.
Money = Annotated[
    int,
    PlainSerializer(format_money, return_type=str),
    WithJsonSchema({"type": "string", "pattern": MONEY_OUT, "examples": ["19.00"]}),
]
Time = Annotated[
    datetime,
    PlainSerializer(when, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
SeatNumber = Annotated[Literal[0, 1], Field(description=SEAT_DESCRIPTION)]
Counted = Annotated[int, Field(ge=0)]
Status = Literal["in_progress", "finished"]


class Answer(BaseModel):
    """An answer: exactly these fields."""

    # defer_build: each class builds its validator and serializer when first used, not
    # at every start of the app (issue 26).
    model_config = ConfigDict(extra="forbid", defer_build=True)

    def sent(self, status: int = 200) -> Response:
        response = jsonify(self.model_dump(mode="json", exclude_unset=True))
        response.status_code = status
        return response


def sent_list(answers: list[Any]) -> Response:
    return jsonify([answer.model_dump(mode="json") for answer in answers])


class Error(Answer):
    error: str = Field(description="One sentence.")
    fields: Annotated[
        dict[str, Annotated[list[str], Field(min_length=1)]],
        Field(
            description='For a 422: the messages for each field at fault ("players.1", '
            '"stakes.small", "scores.0", "naturals.1", …).'
        ),
    ] = omitted({})


class Rules(Answer):
    target: int
    progressive: bool
    natural_needed: bool
    skunk: SkunkRule
    difference: DifferenceRule

    @classmethod
    def of(cls, rules: engine.Rules) -> "Rules":
        return cls(
            target=rules.target,
            progressive=rules.progressive,
            natural_needed=rules.natural_needed,
            skunk=rules.skunk,
            difference=rules.difference,
        )


class Stakes(Answer):
    small: Money
    big: Money


class SettlementLine(Answer):
    kind: LineKind
    count: Annotated[int, Field(ge=1)]
    amount: Annotated[Money, Field(description="Before the multiplier.")]


class Settlement(Answer):
    """The settlement: line amounts before the skunk multiplier, ``total`` after it."""

    payer: SeatNumber
    payee: SeatNumber
    multiplier: Literal[1, 2, 3]
    total: Annotated[Money, Field(description="After the multiplier.")]
    rounded: Pair[int]
    lines: list[SettlementLine]

    @classmethod
    def of(cls, settlement: engine.Settlement) -> "Settlement":
        return cls(
            payer=int(settlement.payer),  # type: ignore[arg-type]
            payee=int(settlement.payee),  # type: ignore[arg-type]
            multiplier=settlement.multiplier,  # type: ignore[arg-type]
            total=settlement.total,
            rounded=list(settlement.rounded),
            lines=[
                SettlementLine(kind=line.kind, count=line.count, amount=line.amount)
                for line in settlement.lines
            ],
        )


class Deal(Answer):
    number: Annotated[int, Field(ge=1)]
    dealer: SeatNumber
    out: SeatNumber
    scores: Pair[int]
    naturals: Pair[Counted]
    chapeau: Pair[bool]
    totals: Annotated[Pair[int], Field(description="The running totals after this deal.")]
    cards: Annotated[
        dict[str, Any] | None,
        WithJsonSchema({"anyOf": [{"$ref": "#/components/schemas/Cards"}, {"type": "null"}]}),
    ]

    @classmethod
    def of(cls, line: engine.DealLine, deal: models.Deal) -> "Deal":
        """A line of the replayed card, with the cards its stored deal was counted from."""
        return cls(
            number=line.number,
            dealer=int(line.dealer),  # type: ignore[arg-type]
            out=int(line.tally.out),  # type: ignore[arg-type]
            scores=list(line.tally.scores),
            naturals=list(line.tally.stars),
            chapeau=[line.chapeau(seat) for seat in Seat],
            totals=list(line.totals),
            cards=deal.cards if deal.counted is not None else None,
        )


class Card(Answer):
    """A game's card, as a seat's link reads it: everything :class:`Game` says but the two
    things the link's page never shows, the game's id on this server and its league."""

    game: Annotated[Literal["mille"], Field(description="Which game: Mille.")]
    players: Pair[str]
    preset: Preset | None
    rules: Rules
    stakes: Stakes
    status: Status
    version: Annotated[int, Field(ge=1)]
    first_dealer: SeatNumber
    next_dealer: SeatNumber
    deals: list[Deal]
    totals: Pair[int]
    naturals: Pair[Counted]
    chapeaux: Pair[Counted]
    winner: SeatNumber | None
    settlement: Settlement | None
    locked: Annotated[bool, Field(description="Marked paid: no change until unlocked.")]
    paid_at: Time | None
    created_at: Time
    finished_at: Time | None

    @classmethod
    def of(cls, game: models.Game, saved: game_service.Saved | None = None) -> Self:
        """The game, its score card and settlement from ``saved`` (a change's one replay)
        when given, else replayed from its deals."""
        return cls(**cls.values_of(game, saved))

    @staticmethod
    def values_of(game: models.Game, saved: game_service.Saved | None) -> dict[str, Any]:
        card, settlement = game_service.card_of(game, saved)
        deals: list[models.Deal] = game.deals
        return {
            "game": "mille",
            "players": [player.name for player in game.players],
            "preset": game.preset,
            "rules": Rules.of(game.rules),
            "stakes": Stakes(small=game.stakes.small, big=game.stakes.big),
            "status": game.status,
            "version": game.version,
            "first_dealer": game.first_dealer,
            "next_dealer": int(card.next_dealer),
            "deals": [Deal.of(line, deal) for line, deal in zip(card.lines, deals, strict=True)],
            "totals": list(card.totals),
            "naturals": list(card.stars),
            "chapeaux": list(card.chapeaux),
            "winner": None if card.winner is None else int(card.winner),
            "settlement": None if settlement is None else Settlement.of(settlement),
            "locked": game.locked,
            "paid_at": game.paid_at,
            "created_at": game.created_at,
            "finished_at": game.finished_at,
        }


class Game(Card):
    """A game as every game endpoint returns it (API.md), and a few fields more."""

    id: int
    league: Annotated[str, Field(description="The league's slug.")]

    @staticmethod
    def values_of(game: models.Game, saved: game_service.Saved | None) -> dict[str, Any]:
        return {"id": game.id, "league": game.league.slug, **Card.values_of(game, saved)}


class GameSummary(Answer):
    """A game in a list: its stored totals and result, without its deals."""

    id: int
    game: Annotated[Literal["mille"], Field(description="Which game: Mille.")]
    league: str
    players: Pair[str]
    preset: Preset | None
    status: Status
    version: Annotated[int, Field(ge=1)]
    deal_count: Counted
    totals: Pair[int]
    naturals: Pair[Counted]
    chapeaux: Pair[Counted]
    winner: SeatNumber | None
    amount: Annotated[Money | None, Field(description="What the loser pays, once finished.")]
    locked: bool
    created_at: Time
    finished_at: Time | None

    @classmethod
    def of(cls, game: models.Game, league: models.League) -> "GameSummary":
        return cls(
            id=game.id,
            game="mille",
            league=league.slug,
            players=[game.player0.name, game.player1.name],
            preset=game.preset,  # type: ignore[arg-type]
            status=game.status,  # type: ignore[arg-type]
            version=game.version,
            deal_count=game.deal_count,
            totals=[game.total0, game.total1],
            naturals=[game.stars0, game.stars1],
            chapeaux=[game.chapeaux0, game.chapeaux1],
            winner=game.winner_seat,  # type: ignore[arg-type]
            amount=game.amount_due,
            locked=game.locked,
            created_at=game.created_at,
            finished_at=game.finished_at,
        )


class SummaryOfKind(Answer):
    """A game of any kind but Mille in a list: its players and state, without its deals."""

    id: int
    game: str
    league: str
    players: Annotated[list[str], Field(min_length=2, max_length=models.MAX_SEATS)]
    status: Status
    version: Annotated[int, Field(ge=1)]
    deal_count: Counted
    locked: bool
    created_at: Time
    finished_at: Time | None

    @classmethod
    def of(cls, game: models.Game, league: models.League) -> "SummaryOfKind":
        return cls(
            id=game.id,
            game=game.kind,
            league=league.slug,
            players=[player.name for player in game.seated],
            status=game.status,  # type: ignore[arg-type]
            version=game.version,
            deal_count=game.deal_count,
            locked=game.locked,
            created_at=game.created_at,
            finished_at=game.finished_at,
        )


def summary(game: models.Game, league: models.League) -> GameSummary | SummaryOfKind:
    """A game in a list, as its kind is summed up."""
    return (GameSummary if game.is_mille else SummaryOfKind).of(game, league)


class GamePage(Answer):
    games: Annotated[list[GameSummary | SummaryOfKind], Field(max_length=PAGE_SIZE)]
    next_page: Annotated[
        int | None,
        Field(ge=1, description="Pass it as page= for the next (older) games; null: no more."),
    ]


class Event(Answer):
    action: str
    summary: str
    user: str | None
    at: Time
    before: Any
    after: Any

    @classmethod
    def of(cls, event: models.AuditEvent) -> "Event":
        return cls(
            action=event.action,
            summary=audit.summary(event),
            user=event.user.username if event.user else None,
            at=event.created_at,
            before=event.before,
            after=event.after,
        )


class Agreement(Answer):
    """A player's latest "I agree with this card": the game's version it was given for,
    and whether it still stands (a change to the deals since voids it)."""

    seat: SeatNumber
    player: str
    at: Time
    version: int = Field(ge=1, description="The game's version the player agreed with.")
    by: Literal["link", "member"] = Field(
        description="link: through the seat's link; member: on the game page."
    )
    stands: bool
    voided_by: str | None = Field(
        description="The change to the deals that voided it (null while it stands), "
        'e.g. "Deal 4 corrected."'
    )

    @classmethod
    def of(cls, game: models.Game, agreement: seats.Agreement) -> "Agreement":
        return cls(
            seat=agreement.seat,  # type: ignore[arg-type]
            player=game.player(agreement.seat).name,
            at=agreement.at,
            version=agreement.version,
            by="link" if agreement.by_link else "member",
            stands=agreement.stands,
            voided_by=audit.summary(agreement.voided_by) if agreement.voided_by else None,
        )

    @classmethod
    def all_of(cls, game: models.Game) -> list["Agreement"]:
        return [cls.of(game, found) for found in seats.agreements(game) if found is not None]


class SeatCard(Answer):
    """What a seat's link opens: the seat, its game's card, and both agreements."""

    seat: SeatNumber
    game: Card
    agreements: list[Agreement]

    @classmethod
    def of(cls, link: models.SeatLink) -> "SeatCard":
        return cls(
            seat=link.seat,  # type: ignore[arg-type]
            game=Card.of(link.game),
            agreements=Agreement.all_of(link.game),
        )


class SetCount(Answer):
    rank: str
    cards: Counted
    factor: Literal[1, 2, 4]
    points: int
    natural_set: bool
    description: str


SET_COUNT_FROM_LINE: Final = ("factor", "points", "natural_set")


class Count(Answer):
    """A count; ``out``, ``scores`` and ``naturals`` make a deal's body."""

    out: SeatNumber
    scores: Pair[int]
    naturals: Pair[Counted]
    chapeau: Pair[bool]
    natural_going_out: bool
    breakdown: Pair[list[SetCount]]
    table_points: Pair[int]
    hand_points: Pair[int]

    @classmethod
    def of(cls, count: engine.Count) -> "Count":
        tally = count.tally
        return cls(
            out=int(tally.out),  # type: ignore[arg-type]
            scores=list(tally.scores),
            naturals=list(tally.stars),
            chapeau=[tally.chapeau(seat) for seat in Seat],
            natural_going_out=count.natural_going_out,
            breakdown=[
                [
                    SetCount(
                        rank=line.card_set.rank.value,
                        cards=line.card_set.size,
                        description=set_description(line, english=True),
                        **{name: getattr(line, name) for name in SET_COUNT_FROM_LINE},
                    )
                    for line in lines
                ]
                for lines in count.breakdown
            ],
            table_points=list(count.table_points),
            hand_points=list(count.hand_points),
        )
