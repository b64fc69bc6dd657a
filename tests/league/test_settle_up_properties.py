"""Settling up a night, property-tested (issue 37): for any set of finished games of any
kinds, each player's net is the games' own balances added up (a Mille game's settlement
from its loser to its winner), the payments bring every net to zero to the cent, and
they are as few as possible (n players owing or owed, less the most groups that settle
among themselves, found by brute force)."""

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.league import settle_up
from scorekeeper.records.leagues import league_by_slug
from tests.api.test_other_games import start

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus"]


def least_payments(nets):
    """n non-zero nets less the most disjoint groups adding up to zero (brute force)."""
    owing = [net for net in nets if net]
    best = 0

    def split(left, groups):
        nonlocal best
        if not left:
            best = max(best, groups)
            return
        first, rest = left[0], left[1:]
        for size in range(len(rest) + 1):
            for others in combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in others) == 0:
                    split([v for i, v in enumerate(rest) if i not in others], groups + 1)

    split(owing, 0)
    return len(owing) - best


GAME = st.tuples(
    st.sampled_from(["knock-rummy", "rummy", "continental-rummy"]),
    st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True),
    st.lists(st.integers(0, 40), min_size=4, max_size=4),
    st.integers(1, 20),
)


def play(api, kind, players, counts, stake):
    counts = counts[: len(players)]
    stakes = (
        {"unit": f"0.{stake:02d}"} if kind == "continental-rummy" else {"point": f"0.{stake:02d}"}
    )
    game = start(api, kind, players, stakes=stakes)
    if kind == "knock-rummy":
        body = {"knocker": 0, "counts": counts}
    elif kind == "rummy":
        body = {"out": 0, "counts": [0, *counts[1:]]}
    else:
        body = {"out": 0, "jokers": counts[0] % 3}
    assert api.post(f"/api/v1/games/{game['id']}/deals", body).status_code == 201
    return api.post(f"/api/v1/games/{game['id']}/finish").get_json()


@pytest.mark.slow
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(games=st.lists(GAME, min_size=1, max_size=4))
def test_a_night_settles_every_balance_in_the_fewest_payments(api, app, games):
    played = [play(api, *game) for game in games]
    with app.app_context():
        league = league_by_slug("our-table")
        chosen = settle_up.chosen_games(league, [game["id"] for game in played])
        night = settle_up.night_of(league, chosen)
        nets = {player.name: net for player, net in night.nets}
        payments = [(p.payer.name, p.payee.name, p.amount) for p in night.payments]
    expected = {}
    for game in played:
        for name, balance in zip(game["players"], game["balances"], strict=True):
            expected[name] = expected.get(name, 0) + round(float(balance) * 100)
    assert {name: net for name, net in nets.items() if net} == {
        name: net for name, net in expected.items() if net
    }
    left = dict(expected)
    for payer, payee, amount in payments:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    assert set(left.values()) <= {0}
    assert len(payments) == least_payments(list(expected.values()))
