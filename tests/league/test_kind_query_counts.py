"""The league's pages of every game (issue 37) send a pinned number of SQL statements, the
same for a league of a few games of each kind and of many: each game's standings, on the
page and through the API, settling up the night (its page and the API), who owes whom and
the payments. Counts, never times (``python -m bench.pages --mixed`` times them; see
docs/PERFORMANCE.md)."""

import pytest

from scorekeeper.engine.games import KINDS, kind_named
from scorekeeper.models import MILLE, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import closing, kind_service, starting
from tests.conftest import make_token
from tests.league.test_query_counts import count_statements, members, play

__all__ = ["members"]  # the fixture, shared with the pins of Mille's pages

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
#: Each other game: its players, rules, stakes (cents) and the deals of a short sitting (a
#: game that ends itself ends at its last deal).
SITTINGS = {
    "rummy": (3, {}, {"point": 5}, [{"out": 1, "counts": [23, 0, 7]}]),
    "boathouse-rummy": (3, {}, {"point": 5}, [{"out": 0, "counts": [0, 9, 3]}]),
    "continental-rummy": (5, {}, {"unit": 25}, [{"out": 2, "jokers": 1}]),
    "gamblers-rummy": (4, {}, {"point": 10}, [{"out": 0, "counts": [0, 12, 30, 4]}]),
    "knock-rummy": (4, {}, {"point": 10}, [{"knocker": 0, "counts": [6, 6, 14, 3]}]),
    "scotch-whist": (
        4,
        {"target": 1},
        {"game": 100},
        [
            {
                "honours": dict.fromkeys(("jack", "ace", "king", "queen", "ten"), 0),
                "cards": [36, 0, 0, 0],
            }
        ],
    ),
    "spoil-five": (5, {}, {"ante": 25}, [{"winner": 1}, {"winner": None}]),
}


def sittings(app, rounds, start=0):
    """``rounds`` finished sittings of each other game, seats turning round the players; two
    in three marked paid."""
    with app.app_context():
        league = league_by_slug("our-table")
        for n in range(start, start + rounds):
            for name, (count, rules, stakes, deals) in SITTINGS.items():
                names = [PLAYERS[(n + seat) % len(PLAYERS)] for seat in range(count)]
                kind = kind_named(name)
                game = starting.start_game_of(kind, league.id, names, rules, stakes, 0)
                for body in deals * 2 if not kind.ends_itself else deals:
                    kind_service.record(game.id, body)
                if not kind.ends_itself:
                    kind_service.finish(game.id)
                if n % 3:
                    closing.mark_paid(game.id)
        db.session.remove()


def pages(app):
    """Every pinned page of the other games, by name: (client role, URL, API?)."""
    league = "/leagues/our-table"
    found = {f"standings of {kind}": f"{league}?game={kind}" for kind in KINDS if kind != MILLE}
    found |= {
        "settle up tonight": f"{league}/settle-up",
        "who owes whom": f"{league}/owes",
        "payments": f"{league}/payments",
    }
    api = {f"API standings of {kind}": f"/api/v1{league}/standings?game={kind}" for kind in KINDS}
    api["API settle up tonight"] = f"/api/v1{league}/settle-up"
    return found, api


def counts(app, viewer, script):
    found = {}
    on_pages, on_api = pages(app)
    for name, url in on_pages.items():
        response, found[name] = count_statements(app, lambda url=url: viewer.get(url))
        assert response.status_code == 200, name
    client = app.test_client()
    client.get("/api/v1/leagues/our-table", headers=script)  # the token's first use is noted
    for name, url in on_api.items():
        response, found[name] = count_statements(
            app, lambda url=url: client.get(url, headers=script)
        )
        assert response.status_code == 200, name
    return found


#: The pinned counts: a change that adds a statement to a page updates its pin on purpose;
#: one that makes a count grow with the league fails here whatever the pin.
EXPECTED = {
    # The records of the game's players, one row each (records.kind_records), and the games
    # the league played, for the picker.
    **{f"standings of {kind}": 4 for kind in KINDS if kind != MILLE},
    # Tonight's unpaid games and the newest 60 to tick, each with its seats (and the
    # sittings' balances, kept on each game); the players; the payments ticked.
    "settle up tonight": 8,
    # Mille's pairs, the sittings' unpaid balances and their seats, the latest payments.
    "who owes whom": 8,
    # The sittings paid on the page: their ledgers' sums and their seats (issue 37).
    "payments": 5,
    **{f"API standings of {kind}": 3 for kind in KINDS},
    "API settle up tonight": 6,
}


@pytest.mark.slow
def test_the_other_games_pages_send_their_pinned_statements_whatever_the_league_size(app, members):
    viewer, _admin, _scorekeeper = members
    script = {"Authorization": f"Bearer {make_token(app)}"}
    play(app, 3)
    sittings(app, 2)
    small = counts(app, viewer, script)
    play(app, 12, start=3)
    sittings(app, 10, start=2)
    big = counts(app, viewer, script)
    assert small == big
    assert small == EXPECTED
