"""Every other game through the API, each the same way (issue 35): a whole sitting of
several deals, a correction and its reversal, a stale version, a repeated
Idempotency-Key, the end and taking it back; on SQLite and, with DATABASE_URL, PostgreSQL."""

import pytest

from tests.api.test_other_games import deal, start

FOUR = ["Ana", "Ben", "Cy", "Dan"]

#: Each game: how it starts (players, stakes, rules) and its deals in turn.
GAMES = {
    "rummy": (
        FOUR[:3],
        {"point": "0.05"},
        None,
        [
            {"out": 1, "counts": [23, 0, 7]},
            {"out": 0, "counts": [0, 12, 30], "rummy": True},
            {"out": 2, "counts": [5, 9, 0]},
        ],
    ),
    "boathouse-rummy": (
        FOUR[:3],
        {"point": "0.05"},
        None,
        [
            {"out": 1, "counts": [23, 0, 7]},
            {"out": 0, "counts": [0, 11, 40]},
            {"out": 2, "counts": [5, 9, 0]},
        ],
    ),
    "continental-rummy": (
        FOUR,
        {"unit": "0.25"},
        None,
        [{"out": 1, "jokers": 0}, {"out": 3, "jokers": 2}, {"out": 0, "jokers": 1}],
    ),
    "gamblers-rummy": (
        FOUR,
        {"point": "0.10"},
        None,
        [
            {"out": 1, "counts": [9, 0, 4, 12]},
            {"out": None, "counts": [3, 5, 7, 9]},
            {"out": 3, "counts": [2, 6, 1, 0]},
        ],
    ),
    "knock-rummy": (
        FOUR,
        {"point": "0.10"},
        None,
        [
            {"knocker": 0, "counts": [6, 6, 14, 3]},
            {"knocker": 1, "counts": [9, 0, 4, 12]},
            {"knocker": 2, "counts": [5, 9, 2, 7]},
        ],
    ),
    "scotch-whist": (
        FOUR,
        {"game": "2.00"},
        {"partnerships": True, "target": 100},
        [
            {"honours": {"jack": 0, "ace": 1, "king": 1, "queen": 0, "ten": 0}, "cards": [20, 16]},
            {"honours": {"jack": 1, "ace": 0, "king": 0, "queen": 1, "ten": 1}, "cards": [8, 28]},
            {"honours": {"jack": 0, "ace": 0, "king": 1, "queen": 1, "ten": 0}, "cards": [24, 12]},
        ],
    ),
    "spoil-five": (
        FOUR,
        {"ante": "0.50", "maximum": "4.00"},
        None,
        [{"winner": None}, {"winner": 2, "jink": "failed"}, {"winner": 1, "jink": "won"}],
    ),
}


def started(api, game):
    players, stakes, rules, bodies = GAMES[game]
    extra = {"rules": rules} if rules else {}
    return start(api, game, players, stakes=stakes, **extra), bodies


def zero_sum(game):
    total = sum(round(float(balance) * 100) for balance in game["balances"])
    return total + round(float(game["pool"] or "0") * 100) == 0


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_sitting_corrected_and_back(api, game):
    begun, bodies = started(api, game)
    played = None
    for body in bodies:
        played = deal(api, begun["id"], body)
        assert zero_sum(played)
    assert [d["dealer"] for d in played["deals"]] == [0, 1, 2]
    url = f"/api/v1/games/{begun['id']}/deals/2"
    changed = api.put(url, bodies[0]).get_json()
    assert zero_sum(changed)
    back = api.put(url, bodies[1]).get_json()
    for key in ("deals", "balances", "pool", "totals", "next_dealer", "status"):
        assert back[key] == played[key], key


@pytest.mark.parametrize("game", list(GAMES))
def test_a_stale_version_and_a_repeated_key_record_nothing_twice(api, game):
    begun, bodies = started(api, game)
    url = f"/api/v1/games/{begun['id']}/deals"
    headers = {"Idempotency-Key": f"{game}-first"}
    first = api.post(url, bodies[0], headers=headers)
    again = api.post(url, bodies[0], headers=headers)
    assert first.get_json() == again.get_json()
    before = api.snapshot()
    stale = {**bodies[1], "version": begun["version"]}
    api.refused(api.post(url, stale), 409)
    assert api.snapshot() == before
    fresh = {**bodies[1], "version": first.get_json()["version"]}
    assert api.post(url, fresh).status_code == 201


@pytest.mark.parametrize("game", [name for name in GAMES if name != "scotch-whist"])
def test_a_sitting_ended_and_taken_back(api, game):
    begun, bodies = started(api, game)
    for body in bodies:
        deal(api, begun["id"], body)
    ended = api.post(f"/api/v1/games/{begun['id']}/finish").get_json()
    assert ended["status"] == "finished"
    assert ended["pool"] in (None, "0.00")
    assert zero_sum(ended)
    left = {seat: round(float(b) * 100) for seat, b in enumerate(ended["balances"])}
    for payment in ended["settlement"]["payments"]:
        amount = round(float(payment["amount"]) * 100)
        left[payment["from"]] += amount
        left[payment["to"]] -= amount
    assert set(left.values()) == {0}
    resumed = api.post(f"/api/v1/games/{begun['id']}/resume").get_json()
    assert resumed["status"] == "in_progress"
    assert resumed["settlement"] is None
