"""Scotch Whist, or Catch the Ten (RULES-MORE-GAMES.md §6)."""

import pytest

from scorekeeper.engine.game import DealAfterEnd
from scorekeeper.engine.games import kind_named
from tests.engine.games_support import entry_round_trips, play, refused, setup_of, setup_refused

WHIST = kind_named("scotch-whist")
PAIRS = setup_of("scotch-whist", 4, {"game": 100}, {"partnerships": True})
NAMES = ("jack", "ace", "king", "queen", "ten")


def deal(
    cards: list[int], jack: int = 0, ace: int = 0, king: int = 0, queen: int = 0, ten: int = 0
) -> dict[str, object]:
    return {
        "honours": {"jack": jack, "ace": ace, "king": king, "queen": queen, "ten": ten},
        "cards": cards,
    }


EXAMPLE_6 = deal([20, 16], jack=0, ten=0, queen=0, ace=1, king=1)


def test_worked_example_6_deal_scores_of_two_partnerships() -> None:
    sitting = play("scotch-whist", PAIRS, [EXAMPLE_6])
    assert sitting.sides == ((0, 2), (1, 3))
    line = sitting.lines[0]
    assert (line.scores, line.totals, line.winner, line.payments) == ((25, 7), (25, 7), None, ())
    assert sitting.totals == (25, 7)
    assert not sitting.finished
    assert sitting.winners is None


def test_the_entry_is_the_body_with_the_honours_in_the_apis_order() -> None:
    body = {"cards": [20, 16], "honours": {"ten": 0, "king": 1, "queen": 0, "ace": 1, "jack": 0}}
    entry = WHIST.read_deal(PAIRS, body)
    assert entry == EXAMPLE_6
    assert list(entry["honours"]) == list(NAMES)  # type: ignore[call-overload]
    entry_round_trips(WHIST, PAIRS, entry)


def test_the_rules_default_to_a_target_of_41_without_partnerships() -> None:
    setup = setup_of("scotch-whist", 4, {"game": 100})
    assert dict(setup.rules) == {"target": 41, "partnerships": False}
    assert setup.stakes == {"game": 100}
    assert play("scotch-whist", setup, []).sides == ((0,), (1,), (2,), (3,))


@pytest.mark.parametrize(
    ("players", "sides"),
    [
        (4, ((0, 2), (1, 3))),
        (6, ((0, 3), (1, 4), (2, 5))),
        (8, ((0, 4), (1, 5), (2, 6), (3, 7))),
    ],
)
def test_partners_sit_half_the_table_apart(
    players: int, sides: tuple[tuple[int, ...], ...]
) -> None:
    setup = setup_of("scotch-whist", players, {"game": 100}, {"partnerships": True})
    assert play("scotch-whist", setup, []).sides == sides


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_partnerships_need_four_six_or_eight_players(players: int) -> None:
    assert setup_refused(WHIST, players, {"game": 100}, {"partnerships": True}) == {
        "rules.partnerships": "partnerships.players"
    }


@pytest.mark.parametrize(
    ("players", "rules", "stakes", "fields"),
    [
        (1, {}, {"game": 100}, {"players": "players.range"}),
        (9, {}, {"game": 100}, {"players": "players.range"}),
        (4, {"target": 0}, {"game": 100}, {"rules.target": "target.range"}),
        (4, {"target": 1001}, {"game": 100}, {"rules.target": "target.range"}),
        (4, {"target": 41.5}, {"game": 100}, {"rules.target": "field.not_whole"}),
        (4, {"target": True}, {"game": 100}, {"rules.target": "field.not_whole"}),
        (4, {"partnerships": "yes"}, {"game": 100}, {"rules.partnerships": "field.not_bool"}),
        (4, {"skunk": "mark"}, {"game": 100}, {"rules.skunk": "field.unknown"}),
        (4, {}, {}, {"stakes.game": "field.missing"}),
        (4, {}, {"game": 100, "point": 1}, {"stakes.point": "field.unknown"}),
    ],
)
def test_a_setup_that_breaks_a_rule_is_refused_naming_the_field(
    players: int, rules: dict[str, object], stakes: dict[str, object], fields: dict[str, str]
) -> None:
    assert setup_refused(WHIST, players, stakes, rules) == fields


@pytest.mark.parametrize("target", [1, 1000])
def test_the_target_is_from_1_to_1000(target: int) -> None:
    assert setup_of("scotch-whist", 2, {"game": 1}, {"target": target}).rules["target"] == target


# --- packs and cards taken ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "dealt", "pack"),
    [(2, 18, 36), (3, 12, 36), (4, 9, 36), (5, 7, 35), (6, 6, 36), (7, 5, 35), (8, 4, 32)],
)
def test_each_player_count_has_its_pack_and_cards_dealt(
    players: int, dealt: int, pack: int
) -> None:
    setup = setup_of("scotch-whist", players, {"game": 100})
    cards = [pack - players] + [players] + [0] * (players - 2)
    sitting = play("scotch-whist", setup, [deal(cards, ten=1)])
    # Side 0 took every trick but one, side 1 that trick and the Ten.
    one_trick = max(0, players - dealt)
    assert sitting.lines[0].scores == (
        11 + 4 + 3 + 2 + pack - players - dealt,
        10 + one_trick,
        *(0,) * (players - 2),
    )
    short = [*cards[:-1], cards[-1] + players]
    short[0] -= 2 * players
    assert refused(WHIST, setup, deal(short, ten=1)) == {"cards": "cards.total"}


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        (deal([21, 15]), {"cards.0": "cards.step", "cards.1": "cards.step"}),
        (deal([40, -4]), {"cards.0": "cards.range", "cards.1": "cards.range"}),
        (deal([20, 20]), {"cards": "cards.total"}),
        (deal([20, 16, 0]), {"cards": "list.length"}),
        (deal([36, 0], ace=1), {"honours.ace": "honour.no_trick"}),
        (deal([20, 16], ace=2), {"honours.ace": "side.range"}),
        (deal([20, 16], king=None), {"honours.king": "field.missing"}),  # type: ignore[arg-type]
        (
            {"honours": dict.fromkeys(NAMES[:4], 0), "cards": [20, 16]},
            {"honours.ten": "field.missing"},
        ),
        (
            {"honours": {**deal([36, 0])["honours"], "nine": 0}, "cards": [36, 0]},
            {"honours.nine": "field.unknown"},
        ),  # type: ignore[dict-item]
        ({"honours": [0, 0, 0, 0, 0], "cards": [36, 0]}, {"honours": "field.not_object"}),
        ({"cards": [36, 0]}, {"honours": "field.missing"}),
        ({"honours": deal([36, 0])["honours"]}, {"cards": "field.missing"}),
        ({**deal([36, 0]), "winner": 0}, {"winner": "field.unknown"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_naming_each_field(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(WHIST, PAIRS, body) == fields


def test_an_honour_is_refused_only_for_the_side_that_took_no_trick() -> None:
    assert refused(WHIST, PAIRS, deal([36, 0], jack=1, ace=1, ten=0)) == {
        "honours.jack": "honour.no_trick",
        "honours.ace": "honour.no_trick",
    }


def test_a_side_that_took_fewer_cards_than_it_was_dealt_scores_only_its_honours() -> None:
    sitting = play("scotch-whist", PAIRS, [deal([4, 32], jack=0, ace=1, king=1, queen=1, ten=1)])
    assert sitting.lines[0].scores == (11, 4 + 3 + 2 + 10 + 32 - 18)


# --- the end and the money ------------------------------------------------------------------


def test_the_game_ends_after_the_first_deal_with_a_side_at_the_target_highest_alone() -> None:
    setup = setup_of("scotch-whist", 4, {"game": 100}, {"partnerships": True, "target": 41})
    bodies = [EXAMPLE_6, EXAMPLE_6]  # 25, 7 then 50, 14
    sitting = play("scotch-whist", setup, bodies)
    assert sitting.finished
    assert sitting.winners == (0, 2)
    assert sitting.totals == (50, 14)
    last = sitting.lines[-1]
    assert [(p.payer, p.payee, p.amount, str(p.reason)) for p in last.payments] == [
        (1, 0, 100, "game"),
        (3, 2, 100, "game"),
    ]
    assert sitting.lines[0].payments == ()
    assert sitting.balances == (100, -100, 100, -100)
    assert sitting.closing == ()
    assert {(t.payer, t.payee, t.amount) for t in sitting.settlement or ()} == {
        (1, 0, 100),
        (3, 2, 100),
    }
    assert [line.winner for line in sitting.lines] == [None, None]


def test_a_deal_after_the_end_is_refused() -> None:
    with pytest.raises(DealAfterEnd) as caught:
        play("scotch-whist", PAIRS, [EXAMPLE_6, EXAMPLE_6, EXAMPLE_6])
    assert (caught.value.ended_at, caught.value.count) == (2, 3)


def test_a_tie_for_the_highest_at_the_target_plays_on_until_one_is_highest_alone() -> None:
    setup = setup_of("scotch-whist", 2, {"game": 100}, {"target": 30})
    both = deal([18, 18], jack=1, ace=1, ten=0, king=0, queen=0)  # 15 each: 10 + 3 + 2, 11 + 4
    even = play("scotch-whist", setup, [both, both])
    assert even.totals == (30, 30)
    assert not even.finished
    assert even.winners is None
    ended = play("scotch-whist", setup, [both, both, deal([36, 0])])  # 30 + 18 more to side 0
    assert ended.totals == (78, 30)
    assert ended.finished
    assert ended.winners == (0,)
    assert [line.payments for line in ended.lines[:2]] == [(), ()]


def test_without_partnerships_every_other_player_pays_the_winner() -> None:
    setup = setup_of("scotch-whist", 3, {"game": 50}, {"target": 41})
    sitting = play("scotch-whist", setup, [deal([36, 0, 0])])  # 30 + 24 = 54
    assert sitting.winners == (0,)
    assert [(p.payer, p.payee, p.amount) for p in sitting.lines[0].payments] == [
        (1, 0, 50),
        (2, 0, 50),
    ]


@pytest.mark.parametrize(("players", "each"), [(6, 2), (8, 3)])
def test_the_winning_pair_shares_every_losers_stake_a_whole_stake_a_line(
    players: int, each: int
) -> None:
    setup = setup_of("scotch-whist", players, {"game": 100}, {"partnerships": True, "target": 41})
    pack = {6: 36, 8: 32}[players]
    sitting = play("scotch-whist", setup, [deal([pack] + [0] * (players // 2 - 1))])
    payments = sitting.lines[0].payments
    assert len(payments) == players - 2
    assert all(p.amount == 100 for p in payments)
    half = players // 2
    assert sitting.winners == (0, half)
    assert sitting.balances[0] == sitting.balances[half] == each * 100


def test_a_correction_that_undoes_the_end_puts_the_game_back_in_progress() -> None:
    kind, entries = WHIST, [WHIST.read_deal(PAIRS, body) for body in (EXAMPLE_6, EXAMPLE_6)]
    assert kind.replay(PAIRS, 0, entries, ended=False).finished
    small = WHIST.read_deal(PAIRS, deal([20, 16], jack=1, ace=1, king=1, queen=1, ten=1))
    back = kind.replay(PAIRS, 0, [entries[0], small], ended=False)
    assert not back.finished
    assert back.balances == (0, 0, 0, 0)
    assert back.settlement is None


def test_ending_is_the_games_own_rule_not_the_scorekeepers() -> None:
    assert WHIST.ends_itself
    sitting = play("scotch-whist", PAIRS, [EXAMPLE_6], ended=True)
    assert not sitting.finished
    assert sitting.settlement is None
