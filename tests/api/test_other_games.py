"""The other games through the API (API.md, "The other games"): a whole sitting of each,
corrections, a stale version, a repeated Idempotency-Key, finish and resume, and every
invalid body refused with a 422 that changes nothing."""

from typing import Any

import pytest


def start(api: Any, game: str, players: list[str], **fields: Any) -> dict[str, Any]:
    """A new game of ``game`` (players added to the league first)."""
    known = {p["name"] for p in api.get("/api/v1/leagues/our-table").get_json()["players"]}
    api.add_players(*(name for name in players if name not in known))
    body = {"league": "our-table", "game": game, "players": players, "first_dealer": 0, **fields}
    response = api.post("/api/v1/games", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def deal(api: Any, game_id: int, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = api.post(f"/api/v1/games/{game_id}/deals", body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_the_knock_rummy_example_of_api_md(api):
    game = start(api, "knock-rummy", ["Ana", "Ben", "Cy"], stakes={"point": "0.10"})
    assert game["game"] == "knock-rummy"
    assert game["rules"] == {}
    assert game["stakes"] == {"point": "0.10"}
    played = deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    assert played["deals"] == [
        {
            "number": 1,
            "dealer": 0,
            "knocker": 0,
            "counts": [6, 6, 14],
            "winner": 1,
            "payments": [
                {"from": 0, "to": 1, "amount": "1.00", "reason": "knock_penalty"},
                {"from": 2, "to": 1, "amount": "0.80", "reason": "count"},
            ],
        }
    ]
    assert played["balances"] == ["-1.00", "1.80", "-0.80"]
    assert played["pool"] is None
    assert played["totals"] is None
    assert played["winner"] is None
    assert played["settlement"] is None
    assert played["next_dealer"] == 1
    assert played["version"] == game["version"] + 1


def test_a_mille_game_gains_only_its_game(api):
    game = api.start_game()
    assert game["game"] == "mille"


def test_rummy_example_and_its_rummy(api):
    game = start(api, "rummy", ["Ana", "Ben", "Cy"], stakes={"point": "0.05"})
    played = deal(api, game["id"], {"out": 1, "counts": [23, 0, 7]})
    assert played["deals"][0]["rummy"] is False
    assert played["balances"] == ["-1.15", "1.50", "-0.35"]
    played = deal(api, game["id"], {"out": 1, "counts": [23, 0, 7], "rummy": True})
    assert [p["amount"] for p in played["deals"][1]["payments"]] == [
        "1.15",
        "1.15",
        "0.35",
        "0.35",
    ]
    assert played["balances"] == ["-3.45", "4.50", "-1.05"]


def test_continental_example(api):
    game = start(
        api, "continental-rummy", ["Ana", "Ben", "Cy", "Dan", "Eve"], stakes={"unit": "0.25"}
    )
    played = deal(api, game["id"], {"out": 2, "jokers": 2})
    assert played["balances"] == ["-1.25", "-1.25", "5.00", "-1.25", "-1.25"]
    assert played["deals"][0]["winner"] == 2


def test_gamblers_rummy_dead_deal_pays_nobody_and_passes_the_deal(api):
    players = ["Ana", "Ben", "Cy", "Dan"]
    game = start(api, "gamblers-rummy", players, stakes={"point": "0.10"})
    played = deal(api, game["id"], {"out": None, "counts": [12, 30, 4, 9]})
    assert played["deals"][0]["winner"] is None
    assert played["deals"][0]["payments"] == []
    assert played["deals"][0]["counts"] == [12, 30, 4, 9]
    assert played["balances"] == ["0.00"] * 4
    assert played["next_dealer"] == 1


def test_knock_rummy_rummy_bonus(api):
    game = start(api, "knock-rummy", ["Ana", "Ben", "Cy"], stakes={"point": "0.10"})
    played = deal(api, game["id"], {"knocker": 0, "counts": [0, 12, 30]})
    assert played["balances"] == ["9.20", "-3.70", "-5.50"]


def test_spoil_five_example_then_the_sitting_gives_the_pool_back(api):
    players = ["Ana", "Ben", "Cy", "Dan"]
    game = start(api, "spoil-five", players, stakes={"ante": "1.00"})
    assert game["pool"] == "0.00"
    assert game["stakes"] == {"ante": "1.00", "dealer": "1.00", "maximum": None}
    played = deal(api, game["id"], {"winner": None})
    assert played["pool"] == "4.00"
    assert played["deals"][0]["jink"] == "none"
    played = deal(api, game["id"], {"winner": 3, "jink": "none"})
    assert played["balances"] == ["-1.00", "-2.00", "-1.00", "4.00"]
    assert played["pool"] == "0.00"
    played = deal(api, game["id"], {"winner": None})
    assert played["pool"] == "4.00"
    assert played["balances"] == ["-2.00", "-3.00", "-2.00", "3.00"]
    finished = api.post(f"/api/v1/games/{game['id']}/finish").get_json()
    assert finished["status"] == "finished"
    assert finished["pool"] == "0.00"
    assert finished["balances"] == ["-1.00", "-2.00", "-1.00", "4.00"]
    payments = finished["settlement"]["payments"]
    assert len(payments) == 3
    assert sum(int(p["amount"].replace(".", "")) for p in payments) == 400
    assert all(p["to"] == 3 for p in payments)


def scotch_deal(jack, ace, king, queen, ten, cards):
    honours = {"jack": jack, "ace": ace, "king": king, "queen": queen, "ten": ten}
    return {"honours": honours, "cards": cards}


def test_scotch_whist_in_partnerships_to_its_end(api):
    players = ["Ana", "Ben", "Cy", "Dan"]
    game = start(
        api,
        "scotch-whist",
        players,
        rules={"partnerships": True},
        stakes={"game": "2.00"},
    )
    assert game["rules"] == {"target": 41, "partnerships": True}
    assert game["totals"] == [0, 0]
    played = deal(api, game["id"], scotch_deal(0, 1, 1, 0, 0, [20, 16]))
    assert played["deals"][0]["scores"] == [25, 7]
    assert played["totals"] == [25, 7]
    assert played["deals"][0]["winner"] is None
    played = deal(api, game["id"], scotch_deal(0, 0, 0, 0, 0, [20, 16]))
    assert played["totals"] == [57, 7]
    assert played["status"] == "finished"
    assert played["winner"] == [0, 2]
    assert played["balances"] == ["2.00", "-2.00", "2.00", "-2.00"]
    assert len(played["settlement"]["payments"]) == 2
    api.refused(api.post(f"/api/v1/games/{game['id']}/finish"), 409)
    more = api.post(f"/api/v1/games/{game['id']}/deals", scotch_deal(0, 0, 0, 0, 0, [20, 16]))
    api.refused(more, 409)
    # A correction that undoes the end puts it back in progress: 25 + 14, 7 + 18.
    corrected = api.put(
        f"/api/v1/games/{game['id']}/deals/2", scotch_deal(1, 1, 1, 0, 0, [20, 16])
    ).get_json()
    assert corrected["totals"] == [39, 25]
    assert corrected["status"] == "in_progress"
    assert corrected["winner"] is None
    assert corrected["settlement"] is None
    assert corrected["balances"] == ["0.00"] * 4


def test_mille_and_scotch_whist_are_not_ended_by_hand(api):
    mille = api.start_game()
    api.refused(api.post(f"/api/v1/games/{mille['id']}/finish"), 409)
    api.refused(api.post(f"/api/v1/games/{mille['id']}/resume"), 409)


THREE = ["Ana", "Ben", "Cy"]
FOUR = ["Ana", "Ben", "Cy", "Dan"]
FIVE = ["Ana", "Ben", "Cy", "Dan", "Eve"]

#: (game, players, stakes, rules, a deal's body that breaks a rule, the field it names)
BAD_DEALS = [
    ("rummy", THREE, {"point": "0.05"}, None, {"counts": [0, 1, 2]}, "out"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, 1]}, "counts"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [3, 1, 2]}, "counts.0"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, 71, 2]}, "counts.1"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, -1, 2]}, "counts.1"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 3, "counts": [0, 1, 2]}, "out"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, 1, 2], "rummy": 1}, "rummy"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, 1, 2], "x": 1}, "x"),
    ("rummy", THREE, {"point": "0.05"}, None, {"out": 0, "counts": [0, 1.5, 2]}, "counts.1"),
    (
        "boathouse-rummy",
        THREE,
        {"point": "0.05"},
        None,
        {"out": 0, "counts": [0, 1, 2]},
        "counts.1",
    ),
    (
        "boathouse-rummy",
        THREE,
        {"point": "0.05"},
        None,
        {"out": 0, "counts": [0, 381, 2]},
        "counts.1",
    ),
    ("continental-rummy", FIVE, {"unit": "0.25"}, None, {"out": 0, "jokers": 3}, "jokers"),
    ("continental-rummy", FIVE, {"unit": "0.25"}, None, {"out": 0, "jokers": -1}, "jokers"),
    (
        "gamblers-rummy",
        FOUR,
        {"point": "0.10"},
        None,
        {"out": None, "counts": [0, 1, 71, 0]},
        "counts.2",
    ),
    ("knock-rummy", THREE, {"point": "0.10"}, None, {"knocker": 5, "counts": [1, 2, 3]}, "knocker"),
    ("knock-rummy", THREE, {"point": "0.10"}, None, {"knocker": 0}, "counts"),
    (
        "scotch-whist",
        FOUR,
        {"game": "1.00"},
        {"partnerships": True},
        {"honours": {"jack": 2, "ace": 0, "king": 0, "queen": 0, "ten": 0}, "cards": [20, 16]},
        "honours.jack",
    ),
    (
        "scotch-whist",
        FOUR,
        {"game": "1.00"},
        {"partnerships": True},
        {"honours": {"jack": 0, "ace": 0, "king": 0, "queen": 0, "ten": 0}, "cards": [21, 15]},
        ("cards.0", "cards.1"),
    ),
    (
        "scotch-whist",
        FOUR,
        {"game": "1.00"},
        {"partnerships": True},
        {"honours": {"jack": 0, "ace": 0, "king": 0, "queen": 0, "ten": 0}, "cards": [20, 20]},
        "cards",
    ),
    (
        "scotch-whist",
        FOUR,
        {"game": "1.00"},
        {"partnerships": True},
        {"honours": {"jack": 0, "ace": 0, "king": 0, "queen": 0, "ten": 1}, "cards": [36, 0]},
        "honours.ten",
    ),
    ("spoil-five", FOUR, {"ante": "1.00"}, None, {"winner": None, "jink": "won"}, "jink"),
    ("spoil-five", FOUR, {"ante": "1.00"}, None, {"winner": 1, "jink": "maybe"}, "jink"),
    ("spoil-five", FOUR, {"ante": "1.00"}, None, {"winner": 4}, "winner"),
]


@pytest.mark.parametrize(("game", "players", "stakes", "rules", "body", "field"), BAD_DEALS)
def test_a_deal_that_breaks_a_rule_is_refused_and_changes_nothing(
    api, game, players, stakes, rules, body, field
):
    started = start(api, game, players, stakes=stakes, **({"rules": rules} if rules else {}))
    before = api.snapshot()
    fields = field if isinstance(field, tuple) else (field,)
    error = api.refused(api.post(f"/api/v1/games/{started['id']}/deals", body), 422, *fields)
    assert error["error"]
    assert api.snapshot() == before


#: (game, players, stakes, rules, the field a refused start names)
BAD_STARTS = [
    ("gamblers-rummy", THREE, {"point": "0.10"}, None, "players"),
    ("rummy", ["Ana"], {"point": "0.10"}, None, "players"),
    ("rummy", THREE, {}, None, "stakes.point"),
    ("rummy", THREE, {"point": "0.10", "unit": "1.00"}, None, "stakes.unit"),
    ("rummy", THREE, {"point": 10}, None, "stakes.point"),
    ("scotch-whist", THREE, {"game": "1.00"}, {"partnerships": True}, "rules.partnerships"),
    ("scotch-whist", THREE, {"game": "1.00"}, {"target": 0}, "rules.target"),
    ("scotch-whist", THREE, {"game": "1.00"}, {"target": 1001}, "rules.target"),
    ("spoil-five", FOUR, {"ante": "1.00", "maximum": "3.00"}, None, "stakes.maximum"),
    ("spoil-five", FOUR, {"dealer": "1.00"}, None, "stakes.ante"),
    ("continental-rummy", [f"P{n}" for n in range(13)], {"unit": "0.25"}, None, "players"),
    ("knock-rummy", ["Ana", "ana"], {"point": "0.10"}, None, "players.1"),
    ("bridge", THREE, {"point": "0.10"}, None, "game"),
]


@pytest.mark.parametrize(("game", "players", "stakes", "rules", "field"), BAD_STARTS)
def test_a_start_that_breaks_a_rule_is_refused_and_changes_nothing(
    api, game, players, stakes, rules, field
):
    api.add_players(*dict.fromkeys(name for name in players if name != "ana"))
    before = api.snapshot()
    body = {"league": "our-table", "game": game, "players": players, "stakes": stakes}
    if rules:
        body["rules"] = rules
    api.refused(api.post("/api/v1/games", body), 422, field)
    assert api.snapshot() == before


def knock(api, players=THREE):
    return start(api, "knock-rummy", players, stakes={"point": "0.10"})


def test_a_correction_recomputes_everything_and_its_reversal_gives_the_same_game(api):
    game = knock(api)
    deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    before = deal(api, game["id"], {"knocker": 1, "counts": [20, 3, 9]})
    url = f"/api/v1/games/{game['id']}/deals/1"
    changed = api.put(url, {"knocker": 2, "counts": [5, 8, 0]}).get_json()
    assert changed["balances"] != before["balances"]
    back = api.put(url, {"knocker": 0, "counts": [6, 6, 14]}).get_json()
    for key in ("balances", "deals", "next_dealer", "status"):
        assert back[key] == before[key]
    assert back["version"] == before["version"] + 2


def test_deleting_a_deal_moves_the_later_ones_and_their_dealers(api):
    game = knock(api)
    deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    deal(api, game["id"], {"knocker": 1, "counts": [20, 3, 9]})
    after = api.delete(f"/api/v1/games/{game['id']}/deals/1").get_json()
    assert [(d["number"], d["dealer"], d["knocker"]) for d in after["deals"]] == [(1, 0, 1)]
    assert after["balances"] == ["-1.70", "2.30", "-0.60"]
    assert after["next_dealer"] == 1


def test_a_stale_version_is_a_409_and_records_nothing(api):
    game = knock(api)
    played = deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    before = api.snapshot()
    stale = {"knocker": 0, "counts": [6, 6, 14], "version": played["version"] - 1}
    api.refused(api.post(f"/api/v1/games/{game['id']}/deals", stale), 409)
    api.refused(api.put(f"/api/v1/games/{game['id']}/deals/1", stale), 409)
    api.refused(
        api.delete(f"/api/v1/games/{game['id']}/deals/1?version={played['version'] - 1}"), 409
    )
    assert api.snapshot() == before
    fresh = {**stale, "version": played["version"]}
    assert api.post(f"/api/v1/games/{game['id']}/deals", fresh).status_code == 201


def test_a_repeated_idempotency_key_records_the_deal_once(api):
    game = knock(api)
    headers = {"Idempotency-Key": "knock-1"}
    body = {"knocker": 0, "counts": [6, 6, 14]}
    first = api.post(f"/api/v1/games/{game['id']}/deals", body, headers=headers)
    again = api.post(f"/api/v1/games/{game['id']}/deals", body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(api.get(f"/api/v1/games/{game['id']}").get_json()["deals"]) == 1


def test_finish_and_resume_a_sitting(api):
    game = knock(api)
    api.refused(api.post(f"/api/v1/games/{game['id']}/finish"), 409)  # no deal yet
    deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    api.refused(api.post(f"/api/v1/games/{game['id']}/resume"), 409)  # in progress
    finished = api.post(f"/api/v1/games/{game['id']}/finish").get_json()
    assert finished["status"] == "finished"
    assert finished["finished_at"] is not None
    assert finished["settlement"] == {
        "payments": [{"from": 0, "to": 1, "amount": "1.00"}, {"from": 2, "to": 1, "amount": "0.80"}]
    }
    api.refused(api.post(f"/api/v1/games/{game['id']}/finish"), 409)
    api.refused(
        api.post(f"/api/v1/games/{game['id']}/deals", {"knocker": 0, "counts": [1, 2, 3]}), 409
    )
    # A correction keeps a finished sitting finished, its settlement recomputed.
    corrected = api.put(
        f"/api/v1/games/{game['id']}/deals/1", {"knocker": 0, "counts": [6, 7, 14]}
    ).get_json()
    assert corrected["status"] == "finished"
    assert corrected["settlement"]["payments"][1] == {"from": 2, "to": 0, "amount": "0.80"}
    resumed = api.post(f"/api/v1/games/{game['id']}/resume").get_json()
    assert resumed["status"] == "in_progress"
    assert resumed["settlement"] is None
    assert resumed["finished_at"] is None
    again = api.post(f"/api/v1/games/{game['id']}/finish").get_json()
    paid = api.post(f"/api/v1/games/{game['id']}/paid", {"version": again["version"]})
    assert paid.get_json()["locked"] is True
    api.refused(api.post(f"/api/v1/games/{game['id']}/resume"), 409)


def test_only_a_scorekeeper_plays_and_a_private_league_hides_its_games(api, app):
    game = knock(api)
    viewer = api.as_("viewer")
    body = {"knocker": 0, "counts": [6, 6, 14]}
    api.refused(viewer.post(f"/api/v1/games/{game['id']}/deals", body), 403)
    api.refused(viewer.post(f"/api/v1/games/{game['id']}/finish"), 403)
    api.refused(api.as_("anonymous").post(f"/api/v1/games/{game['id']}/deals", body), 401)
    api.refused(api.as_("anonymous").get(f"/api/v1/games/{game['id']}"), 404)
    api.refused(api.as_("none").get(f"/api/v1/games/{game['id']}"), 404)
    assert viewer.get(f"/api/v1/games/{game['id']}").get_json()["game"] == "knock-rummy"


def test_the_standings_of_each_game(api):
    game = knock(api)
    deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    deal(api, game["id"], {"knocker": 2, "counts": [6, 5, 0]})
    api.post(f"/api/v1/games/{game['id']}/finish")
    unfinished = knock(api)
    deal(api, unfinished["id"], {"knocker": 0, "counts": [0, 6, 14]})
    rows = api.get("/api/v1/leagues/our-table/standings?game=knock-rummy").get_json()
    assert rows == [
        {"player": "Cy", "played": 1, "won": 1, "net": "5.30"},
        {"player": "Ben", "played": 1, "won": 1, "net": "-1.20"},
        {"player": "Ana", "played": 1, "won": 0, "net": "-4.10"},
    ]
    assert api.get("/api/v1/leagues/our-table/standings?game=rummy").get_json() == []
    mille = api.get("/api/v1/leagues/our-table/standings").get_json()
    assert mille == api.get("/api/v1/leagues/our-table/standings?game=mille").get_json()
    api.refused(api.get("/api/v1/leagues/our-table/standings?game=bridge"), 422, "game")


def test_a_league_lists_games_of_every_kind(api):
    game = knock(api)
    mille = api.start_game()
    listed = api.get("/api/v1/leagues/our-table/games").get_json()["games"]
    by_id = {found["id"]: found for found in listed}
    assert by_id[game["id"]]["game"] == "knock-rummy"
    assert by_id[game["id"]]["players"] == THREE
    assert by_id[mille["id"]]["game"] == "mille"


def test_a_failed_jink_names_its_jinker_but_is_no_deal_won(api):
    game = start(api, "spoil-five", THREE, stakes={"ante": "0.50"})
    played = deal(api, game["id"], {"winner": 1, "jink": "failed"})
    assert played["deals"][0]["winner"] == 1
    assert played["deals"][0]["payments"] == [
        {"from": seat, "to": None, "amount": "0.50", "reason": "ante"} for seat in range(3)
    ]
    assert played["pool"] == "1.50"
    played = deal(api, game["id"], {"winner": 2, "jink": "won"})
    assert played["pool"] == "0.00"
    assert played["balances"] == ["-1.00", "-1.50", "2.50"]
    api.post(f"/api/v1/games/{game['id']}/finish")
    rows = api.get("/api/v1/leagues/our-table/standings?game=spoil-five").get_json()
    assert [(row["player"], row["won"]) for row in rows] == [("Cy", 1), ("Ana", 0), ("Ben", 0)]


def statements(app, send):
    """The SQL statements ``send()`` makes the app send, ``BEGIN`` left out."""
    from sqlalchemy import event

    from scorekeeper.models import db

    sent = []

    def seen(_connection, _cursor, statement, *_args):
        if not statement.startswith("BEGIN"):
            sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        send()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return sent


@pytest.mark.parametrize(
    ("game", "players", "stakes", "body"),
    [
        ("rummy", THREE, {"point": "0.05"}, {"out": 1, "counts": [23, 0, 7]}),
        ("continental-rummy", FIVE, {"unit": "0.25"}, {"out": 2, "jokers": 1}),
        ("knock-rummy", FOUR, {"point": "0.10"}, {"knocker": 0, "counts": [6, 6, 14, 3]}),
        ("spoil-five", FIVE, {"ante": "0.50"}, {"winner": 3, "jink": "won"}),
    ],
)
def test_a_deal_of_any_game_costs_at_most_twelve_statements(api, app, game, players, stakes, body):
    """Issue 35's cap, as for Mille's deals (bench.recording prints every path)."""
    started = start(api, game, players, stakes=stakes)
    url = f"/api/v1/games/{started['id']}"
    deal(api, started["id"], body)
    deal(api, started["id"], body)
    costs = {
        "deal": statements(app, lambda: api.post(f"{url}/deals", body, check=False)),
        "correction": statements(app, lambda: api.put(f"{url}/deals/2", body, check=False)),
        "deletion": statements(app, lambda: api.delete(f"{url}/deals/3", check=False)),
        "finish": statements(app, lambda: api.post(f"{url}/finish", check=False)),
    }
    assert {what: len(sent) for what, sent in costs.items() if len(sent) > 12} == {}
    assert api.get(url).get_json()["status"] == "finished"


def test_the_deal_that_ends_a_scotch_whist_game_costs_at_most_twelve_statements(api, app):
    """The deal that ends a game of its own rule also writes the league's records of it."""
    started = start(
        api, "scotch-whist", FOUR, rules={"partnerships": True}, stakes={"game": "1.00"}
    )
    deal(api, started["id"], scotch_deal(0, 1, 1, 0, 0, [20, 16]))
    last = scotch_deal(0, 0, 0, 0, 0, [20, 16])
    sent = statements(app, lambda: api.post(f"/api/v1/games/{started['id']}/deals", last))
    assert api.get(f"/api/v1/games/{started['id']}").get_json()["status"] == "finished"
    # SQLite can't return the ids of a many-row INSERT in order: the deal's two audit
    # events (recorded, finished) go in one by one there (tests/league/test_query_counts.py).
    sqlite = app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite")
    assert len(sent) <= 12 + sqlite, "\n".join(sent)
