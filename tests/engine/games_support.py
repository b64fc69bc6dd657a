"""What the tests of the other games share: playing a game from its bodies, and what a
refused body names."""

from collections.abc import Mapping, Sequence
from functools import cache

import pytest

from scorekeeper.engine.games import (
    Entry,
    GameKind,
    Problem,
    Refused,
    Setup,
    Sitting,
    Transfer,
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


def settles(balances: Sequence[int], plan: Sequence[Transfer]) -> bool:
    """Whether paying ``plan`` brings every balance to zero, each payment positive and
    between two different players."""
    left = list(balances)
    for transfer in plan:
        assert transfer.amount > 0
        assert transfer.payer != transfer.payee
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return not any(left)


def brute_force_least(balances: Sequence[int]) -> int:
    """The least number of payments, by trying every way to split the players with a
    non-zero balance into groups that add up to zero (each settles in its size − 1)."""
    values = tuple(sorted(balance for balance in balances if balance))

    @cache
    def most_groups(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for chosen in range(1 << len(others)):
            group = [first] + [v for i, v in enumerate(others) if chosen >> i & 1]
            if sum(group) == 0:
                left = tuple(v for i, v in enumerate(others) if not chosen >> i & 1)
                best = max(best, 1 + most_groups(left))
        return best

    return len(values) - most_groups(values)
