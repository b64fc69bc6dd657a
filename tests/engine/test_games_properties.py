"""Properties of every game's replay over random valid sittings (Hypothesis): the money
adds up, a correction undone leaves the game as it was, and the settlement settles with
the fewest payments a brute force finds."""

import contextlib
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.game import DealAfterEnd
from scorekeeper.engine.games import Entry, Setup, Sitting, kind_named
from scorekeeper.engine.games.continental_rummy import JOKERS_IN_PLAY
from scorekeeper.engine.games.rummy_family import most_count
from scorekeeper.engine.games.scotch_whist import HONOURS, PACK, Table
from tests.engine.games_support import brute_force_least, settles

SETTINGS = settings(deadline=None, max_examples=25)

Game = tuple[str, Setup, int, list[Entry], bool]


def counts(draw: st.DrawFn, players: int, high: int, out: int | None) -> list[int]:
    values = draw(st.lists(st.integers(0, high), min_size=players, max_size=players))
    if out is not None:
        values[out] = 0
    return values


def rummy_body(draw: st.DrawFn, name: str, players: int) -> dict[str, object]:
    out = draw(st.integers(0, players - 1))
    if name == "rummy":
        return {
            "out": out,
            "counts": counts(draw, players, most_count(players), out),
            "rummy": draw(st.booleans()),
        }
    if name == "boathouse-rummy":
        values = [2 if count == 1 else count for count in counts(draw, players, 380, out)]
        return {"out": out, "counts": values}
    if name == "gamblers-rummy":
        nobody = draw(st.booleans()) and draw(st.booleans())
        return {
            "out": None if nobody else out,
            "counts": counts(draw, players, 70, None if nobody else out),
        }
    if name == "continental-rummy":
        return {"out": out, "jokers": draw(st.integers(0, JOKERS_IN_PLAY[players]))}
    return {"knocker": out, "counts": counts(draw, players, most_count(players), None)}


def spoil_body(draw: st.DrawFn, players: int) -> dict[str, object]:
    winner = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    jink = "none" if winner is None else draw(st.sampled_from(["none", "none", "won", "failed"]))
    return {"winner": winner, "jink": jink}


def whist_body(draw: st.DrawFn, table: Table) -> dict[str, object]:
    """Whole tricks shared among the sides, each honour taken by a side with a trick."""
    sides, tricks = len(table.sides), PACK[table.players] // table.players
    taken = [0] * sides
    for _ in range(tricks):
        taken[draw(st.integers(0, sides - 1))] += 1
    with_tricks = [side for side in range(sides) if taken[side]]
    honours = {name: draw(st.sampled_from(with_tricks)) for name in HONOURS}
    return {"honours": honours, "cards": [count * table.players for count in taken]}


PLAYERS = {
    "rummy": (2, 6),
    "boathouse-rummy": (2, 6),
    "continental-rummy": (2, 8),  # up to 8: the brute force's reach
    "gamblers-rummy": (4, 4),
    "knock-rummy": (2, 6),
    "scotch-whist": (2, 8),
    "spoil-five": (2, 8),
}


def body_for(draw: st.DrawFn, name: str, setup: Setup) -> dict[str, object]:
    """A valid deal of ``name`` under ``setup``, as the API's body."""
    if name == "spoil-five":
        return spoil_body(draw, setup.players)
    if name == "scotch-whist":
        return whist_body(draw, Table(setup.players, bool(setup.rules["partnerships"]), 1, 1))
    return rummy_body(draw, name, setup.players)


@st.composite
def games(draw: st.DrawFn, name: str) -> Game:
    """A sitting of ``name``: its setup, first dealer, entries, and whether it was ended;
    Scotch Whist is cut at the deal that ends it."""
    kind = kind_named(name)
    players = draw(st.integers(*PLAYERS[name]))
    stake = draw(st.integers(1, 5000))
    if name == "spoil-five":
        ante = draw(st.integers(1, 500))
        maximum = draw(st.one_of(st.none(), st.integers(players * ante, players * ante * 3)))
        setup = kind.setup(
            players,
            {},
            {
                "ante": ante,
                "dealer": draw(st.one_of(st.none(), st.integers(1, 500))),
                "maximum": maximum,
            },
        )
    elif name == "scotch-whist":
        pairs = players in (4, 6, 8) and draw(st.booleans())
        setup = kind.setup(
            players, {"target": draw(st.integers(1, 80)), "partnerships": pairs}, {"game": stake}
        )
    else:
        setup = kind.setup(players, {}, {"unit" if name == "continental-rummy" else "point": stake})
    entries: list[Entry] = []
    for _ in range(draw(st.integers(0, 15))):
        entries.append(kind.read_deal(setup, body_for(draw, name, setup)))
        if name == "scotch-whist" and kind.replay(setup, 0, entries, ended=False).finished:
            break
    return name, setup, draw(st.integers(0, players - 1)), entries, draw(st.booleans())


def replayed(game: Game, entries: list[Entry] | None = None) -> Sitting:
    name, setup, first, played, ended = game
    return kind_named(name).replay(
        setup, first, played if entries is None else entries, ended=ended
    )


@pytest.mark.parametrize("name", list(PLAYERS))
@SETTINGS
@given(data=st.data())
def test_the_balances_and_the_pool_add_up_to_zero_after_every_deal_and_at_the_end(
    name: str, data: st.DataObject
) -> None:
    sitting = replayed(data.draw(games(name)))
    for line in sitting.lines:
        assert sum(line.balances) + (line.pool or 0) == 0
        assert all(payment.amount > 0 for payment in line.payments)
    assert sum(sitting.balances) + (sitting.pool or 0) == 0
    if sitting.finished and sitting.pool is not None:
        assert sitting.pool == 0


@pytest.mark.parametrize("name", list(PLAYERS))
@SETTINGS
@given(data=st.data())
def test_a_correction_then_its_reversal_gives_the_same_sitting(
    name: str, data: st.DataObject
) -> None:
    game = data.draw(games(name))
    _, setup, _, entries, _ = game
    if not entries:
        return
    index = data.draw(st.integers(0, len(entries) - 1))
    other = kind_named(name).read_deal(setup, data.draw(st.composite(body_for)(name, setup)))
    corrected = [*entries[:index], other, *entries[index + 1 :]]
    with contextlib.suppress(DealAfterEnd):  # a correction that ends Scotch Whist earlier
        replayed(game, corrected)
    reversed_ = [*corrected[:index], entries[index], *corrected[index + 1 :]]
    assert replayed(game, reversed_) == replayed(game)


@pytest.mark.parametrize("name", list(PLAYERS))
@SETTINGS
@given(data=st.data())
def test_the_settlement_settles_every_balance_with_the_fewest_payments(
    name: str, data: st.DataObject
) -> None:
    _, setup, first, entries, _ = data.draw(games(name))
    sitting = kind_named(name).replay(setup, first, entries, ended=True)
    if not sitting.finished:  # Scotch Whist that nobody has won yet
        assert sitting.settlement is None
        return
    assert sitting.settlement is not None
    assert settles(sitting.balances, sitting.settlement)
    assert len(sitting.settlement) == brute_force_least(sitting.balances)


@pytest.mark.parametrize("name", list(PLAYERS))
def test_every_game_plays_its_random_sittings(name: str) -> None:
    @settings(deadline=None, max_examples=10)
    @given(games(name))
    def plays(game: Game) -> None:
        sitting = replayed(game)
        assert len(sitting.lines) == len(game[3])
        assert sitting.next_dealer == (game[2] + len(game[3])) % game[1].players

    plays()


def test_mapping_entries_are_plain() -> None:
    entry = kind_named("rummy").read_deal(
        kind_named("rummy").setup(2, {}, {"point": 1}), {"out": 0, "counts": [0, 3]}
    )
    assert isinstance(entry, Mapping)
    assert type(entry) is dict
