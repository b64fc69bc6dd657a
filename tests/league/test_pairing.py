"""Tonight's pairing: everyone plays, sit-outs are fair, repeats are as few as they can be
(checked against every possible pairing of up to 8 players), rounds go round robin, and
the same inputs give the same round."""

import random
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.league.pairing import (
    History,
    Round,
    TooFewPlayers,
    pair,
    pair_round,
    pairing_cost,
    round_robin,
    sit_out,
)

EVENING = datetime(2025, 3, 7, 19, 0)


def every_pairing(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split an even number of players into games."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, second in enumerate(rest):
        for others in every_pairing(rest[:index] + rest[index + 1 :]):
            yield [(first, second), *others]


def best_by_brute_force(players: list[int], history: History, out: int | None) -> tuple:
    playing = [player for player in sorted(players) if player != out]
    return min(
        pairing_cost(players, history, Round(tuple(games), out)).key()
        for games in every_pairing(playing)
    )


def test_every_pairing_counts_them_all():
    # (2n - 1)!! ways: 1, 3, 15, 105.
    assert [len(list(every_pairing(list(range(n))))) for n in (2, 4, 6, 8)] == [1, 3, 15, 105]


@st.composite
def evenings(draw: st.DrawFn) -> tuple[list[int], History]:
    """Two to eight players here (ids with gaps), and a season behind them."""
    players = draw(st.lists(st.integers(1, 60), min_size=2, max_size=8, unique=True))
    moments = st.integers(0, 40).map(lambda days: EVENING - timedelta(days=days))
    met, last_met = {}, {}
    for first, second in combinations(players, 2):
        count = draw(st.integers(0, 4))
        if count:
            met[pair(first, second)] = count
            last_met[pair(first, second)] = draw(moments)
    sat_out = draw(st.dictionaries(st.sampled_from(players), moments))
    return players, History(met, last_met, sat_out)


@settings(max_examples=300, deadline=None)
@given(evenings())
def test_a_round_is_the_best_pairing_there_is(evening):
    players, history = evening
    round_ = pair_round(players, history)
    playing = [player for game in round_.games for player in game]
    # Everyone plays once, but one player out with an odd number.
    assert len(playing) == len(set(playing))
    assert set(playing) | ({round_.sitting_out} - {None}) == set(players)
    assert (round_.sitting_out is None) == (len(players) % 2 == 0)
    # The sit-out is fair: nobody here has sat out less recently.
    if round_.sitting_out is not None:
        never = [player for player in players if player not in history.last_sat_out]
        if never:
            assert round_.sitting_out in never
        else:
            oldest = min(history.last_sat_out[player] for player in players)
            assert history.last_sat_out[round_.sitting_out] == oldest
    # The pairing is as good as the best of every possible one.
    found = pairing_cost(players, history, round_).key()
    assert found == best_by_brute_force(players, history, round_.sitting_out)
    # The same inputs, in any order, give the same round.
    shuffled = list(players)
    random.Random(len(players)).shuffle(shuffled)
    assert pair_round(shuffled, history) == round_


def test_least_met_first_then_least_recently_met():
    ana, ben, cleo, dan = 1, 2, 3, 4
    history = History(
        met={pair(ana, ben): 2, pair(cleo, dan): 2, pair(ana, cleo): 1, pair(ben, dan): 1},
        last_met={
            pair(ana, ben): EVENING,
            pair(cleo, dan): EVENING,
            pair(ana, cleo): EVENING - timedelta(days=14),
            pair(ben, dan): EVENING - timedelta(days=7),
        },
    )
    # Ana–Dan and Ben–Cleo never met: they play.
    assert pair_round([ana, ben, cleo, dan], history).games == ((ana, dan), (ben, cleo))
    # Once they have, the pairs that met longest ago come first (Ana–Cleo, Ben–Dan).
    history = History(
        met={**history.met, pair(ana, dan): 1, pair(ben, cleo): 1},
        last_met={
            **history.last_met,
            pair(ana, dan): EVENING - timedelta(days=1),
            pair(ben, cleo): EVENING - timedelta(days=1),
        },
    )
    assert pair_round([ana, ben, cleo, dan], history).games == ((ana, cleo), (ben, dan))


def test_no_two_meet_a_third_time_while_others_could_meet_a_second():
    # Ana–Ben have met twice; everyone else once, except Cleo–Dan who met three times.
    players = [1, 2, 3, 4, 5, 6]
    met = {pair(a, b): 1 for a, b in combinations(players, 2)}
    met[pair(1, 2)] = 2
    met[pair(3, 4)] = 3
    round_ = pair_round(players, History(met=met))
    counts = sorted(met[pair(*game)] for game in round_.games)
    assert counts == [1, 1, 1]


def test_whoever_sat_out_least_recently_sits_out():
    players = [1, 2, 3, 4, 5]
    sat = {1: EVENING - timedelta(days=7), 2: EVENING - timedelta(days=30), 4: EVENING}
    assert sit_out(players, History(last_sat_out=sat)) in {3, 5}  # never
    sat |= {3: EVENING - timedelta(days=1), 5: EVENING - timedelta(days=2)}
    assert sit_out(players, History(last_sat_out=sat)) == 2
    assert sit_out(players[:4], History(last_sat_out=sat)) is None


def test_fewer_than_two_players_make_no_round():
    with pytest.raises(TooFewPlayers):
        pair_round([7], History())
    with pytest.raises(TooFewPlayers):
        pair_round([7, 7], History())


def test_the_circle_method_meets_every_two_once():
    for count in range(2, 10):
        players = list(range(10, 10 + count))
        rounds = round_robin(players)
        games = [frozenset(game) for games in rounds for game in games if None not in game]
        assert len(games) == len(set(games)) == count * (count - 1) // 2
        for games in rounds:
            seated = [player for game in games for player in game]
            assert len(seated) == len(set(seated))


def play_rounds(players: list[int], rounds: int, history: History | None = None):
    """Rounds one after the other, each played and added to the history."""
    history = history or History()
    met, last_met, sat = dict(history.met), dict(history.last_met), dict(history.last_sat_out)
    played = []
    for number in range(rounds):
        at = EVENING + timedelta(hours=number)
        round_ = pair_round(players, History(met, last_met, sat))
        for game in round_.games:
            met[pair(*game)] = met.get(pair(*game), 0) + 1
            last_met[pair(*game)] = at
        if round_.sitting_out is not None:
            sat[round_.sitting_out] = at
        played.append(round_)
    return played, History(met, last_met, sat)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_rounds_of_the_same_players_are_a_round_robin_and_then_another(count):
    players = list(range(1, count + 1))
    cycle = count - 1 if count % 2 == 0 else count
    played, history = play_rounds(players, 2 * cycle)
    first, second = played[:cycle], played[cycle:]
    # The first cycle: every two meet exactly once, and nobody meets anyone twice before.
    games = [pair(*game) for round_ in first for game in round_.games]
    assert Counter(games) == {pair(a, b): 1 for a, b in combinations(players, 2)}
    # Each sits out once per cycle with an odd number.
    if count % 2:
        assert sorted(round_.sitting_out for round_ in first) == players
    # After everyone has met once, it goes round again in the same order.
    assert second == first
    assert set(history.met.values()) == {2}


def test_the_next_round_tonight_avoids_the_first_rounds_games():
    players = [3, 8, 12, 20, 21, 40]
    # A season behind them where some met often.
    history = History(
        met={pair(3, 8): 3, pair(12, 20): 1, pair(21, 40): 2},
        last_met={
            pair(3, 8): EVENING - timedelta(days=21),
            pair(12, 20): EVENING - timedelta(days=7),
            pair(21, 40): EVENING - timedelta(days=14),
        },
    )
    played, _ = play_rounds(players, 3, history)
    tonight = [pair(*game) for round_ in played for game in round_.games]
    assert len(tonight) == len(set(tonight))  # no repeat tonight
    assert not {pair(3, 8), pair(12, 20), pair(21, 40)} & set(tonight)


def test_a_newcomer_joining_mid_evening_is_paired_with_someone_they_never_met():
    _, history = play_rounds([1, 2, 3, 4], 3)  # a whole round robin
    round_ = pair_round([1, 2, 3, 4, 5], history)
    # Whoever sits out, the newcomer plays someone (they have met nobody).
    assert 5 in {player for game in round_.games for player in game}
