"""What the tests of the other games share: playing a game from its bodies, and what a
refused body names."""

from collections.abc import Mapping, Sequence

import pytest

from scorekeeper.engine.games import (
    Entry,
    GameKind,
    Problem,
    Refused,
    Setup,
    Sitting,
    kind_named,
)


def setup_of(
    game: str,
    players: int,
    stakes: Mapping[str, int | None],
    rules: Mapping[str, object] | None = None,
) -> Setup:
    return kind_named(game).setup(players, rules or {}, stakes)


def play(
    game: str,
    setup: Setup,
    bodies: Sequence[Mapping[str, object]],
    *,
    first_dealer: int = 0,
    ended: bool = False,
) -> Sitting:
    """The game after deals entered as the API's bodies, each read first as the app does."""
    kind = kind_named(game)
    entries = [kind.read_deal(setup, body) for body in bodies]
    return kind.replay(setup, first_dealer, entries, ended=ended)


def problems_of(kind: GameKind, setup: Setup, body: Mapping[str, object]) -> tuple[Problem, ...]:
    """The problems a deal body is refused for."""
    with pytest.raises(Refused) as caught:
        kind.read_deal(setup, body)
    assert caught.value.problems, "a refusal says what is wrong"
    return caught.value.problems


def refused(kind: GameKind, setup: Setup, body: Mapping[str, object]) -> dict[str, str]:
    """Each field a deal body is refused for, with its problem's code."""
    return {problem.field: problem.code for problem in problems_of(kind, setup, body)}


def setup_refused(
    kind: GameKind,
    players: int,
    stakes: Mapping[str, object],
    rules: Mapping[str, object] | None = None,
) -> dict[str, str]:
    """Each field a setup is refused for, with its problem's code."""
    with pytest.raises(Refused) as caught:
        kind.setup(players, rules or {}, stakes)  # type: ignore[arg-type]
    return {problem.field: problem.code for problem in caught.value.problems}


def paid(sitting: Sitting, number: int = 1) -> list[tuple[int | None, int | None, int, str]]:
    """Deal ``number``'s payments as (from, to, cents, reason)."""
    line = sitting.lines[number - 1]
    return [(p.payer, p.payee, p.amount, str(p.reason)) for p in line.payments]


def entry_round_trips(kind: GameKind, setup: Setup, entry: Entry) -> None:
    """A stored entry reads back as itself."""
    assert kind.read_deal(setup, entry) == entry
