"""The fewest payments that bring balances to zero (RULES-MORE-GAMES.md §0, "The settlement").

Players with a non-zero balance can always be settled in one payment fewer than there are
of them: the largest debtor pays the largest creditor, and every payment clears at least
one of them. A group of players whose balances add up to zero can settle among itself,
which saves one payment more; so the least number of payments is the number of players
with a non-zero balance minus the largest number of disjoint groups whose balances each
add up to zero. Finding those groups is hard in general (it is a partition problem), so
it is found exactly, over every subset, for up to :data:`EXACT_UP_TO` players, and by a
good greedy plan beyond (:func:`exact` says which a list of balances gets).

The same balances always give the same plan.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: Up to this many non-zero balances the plan is the least possible, found over every subset
#: (2**16 of them: about a tenth of a second in pure Python).
EXACT_UP_TO: Final = 16


@dataclass(frozen=True)
class Transfer:
    """One payment that settles balances: ``payer`` gives ``payee`` ``amount`` cents."""

    payer: int
    payee: int
    amount: int


def exact(balances: Sequence[int]) -> bool:
    """Whether :func:`fewest_payments` finds the least plan for ``balances`` exactly (up to
    :data:`EXACT_UP_TO` non-zero balances) rather than greedily."""
    return sum(1 for balance in balances if balance) <= EXACT_UP_TO


def fewest_payments(balances: Sequence[int]) -> tuple[Transfer, ...]:
    """The fewest payments that bring every balance (seat ``i`` is ``balances[i]``, money
    received minus paid) to zero, ordered by payer then payee; ValueError unless the
    balances add up to zero."""
    if sum(balances) != 0:
        raise ValueError(f"balances must add up to zero, not {sum(balances)}")
    seats = [seat for seat, balance in enumerate(balances) if balance]
    if len(seats) <= EXACT_UP_TO:
        groups = _zero_sum_groups(seats, balances)
    else:
        groups = _greedy_groups(seats, balances)
    plan = [transfer for group in groups for transfer in _settled_within(group, balances)]
    return tuple(sorted(plan, key=lambda transfer: (transfer.payer, transfer.payee)))


def _zero_sum_groups(seats: Sequence[int], balances: Sequence[int]) -> list[list[int]]:
    """``seats`` split into the most groups whose balances each add up to zero.

    ``most[mask]`` is the most zero-sum groups a subset can be split into, the rest of it
    left over: adding players one at a time, a new group closes each time the players so far
    add up to zero, so ``most[mask]`` is the best of ``most[mask]`` less one player, plus one
    when ``mask`` itself adds up to zero. The groups are read back down one such order.
    """
    values = [balances[seat] for seat in seats]
    size = 1 << len(values)
    total = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    most = [0] * size
    for mask in range(1, size):
        best, rest = 0, mask
        while rest:
            low = rest & -rest
            if most[mask ^ low] > best:
                best = most[mask ^ low]
            rest ^= low
        most[mask] = best + (total[mask] == 0)
    return _groups_along_best_order(seats, total, most)


def _groups_along_best_order(
    seats: Sequence[int], total: Sequence[int], most: Sequence[int]
) -> list[list[int]]:
    """Walk down from every player, taking off the lowest player that keeps the most groups;
    each time what is left adds up to zero, the players taken since close a group."""
    groups: list[list[int]] = []
    mask = len(total) - 1
    current: list[int] = []
    while mask:
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        wanted = most[mask] - (total[mask] == 0)
        rest = mask
        while rest:
            low = rest & -rest
            if most[mask ^ low] == wanted:
                break
            rest ^= low
        current.append(seats[low.bit_length() - 1])
        mask ^= low
    if current:
        groups.append(current)
    return groups


def _greedy_groups(seats: Sequence[int], balances: Sequence[int]) -> list[list[int]]:
    """Beyond :data:`EXACT_UP_TO`: a debtor and a creditor of the same amount settle as a
    pair (in seat order), everyone else as one group."""
    groups: list[list[int]] = []
    waiting: dict[int, list[int]] = {}
    for seat in seats:
        partners = waiting.get(-balances[seat])
        if partners:
            groups.append([partners.pop(0), seat])
        else:
            waiting.setdefault(balances[seat], []).append(seat)
    rest = sorted(seat for pending in waiting.values() for seat in pending)
    return [*groups, rest] if rest else groups


def _settled_within(group: Sequence[int], balances: Sequence[int]) -> list[Transfer]:
    """A group whose balances add up to zero, settled in one payment fewer than its players:
    the debtors, largest first, pay the creditors, largest first (the lower seat first among
    equals), each payment as much as clears the debtor or the creditor."""
    debtors = sorted((balances[seat], seat) for seat in group if balances[seat] < 0)
    creditors = sorted((-balances[seat], seat) for seat in group if balances[seat] > 0)
    owed = [[-amount, seat] for amount, seat in debtors]
    due = [[-amount, seat] for amount, seat in creditors]
    plan: list[Transfer] = []
    while owed and due:
        amount = min(owed[0][0], due[0][0])
        plan.append(Transfer(payer=owed[0][1], payee=due[0][1], amount=amount))
        owed[0][0] -= amount
        due[0][0] -= amount
        if not owed[0][0]:
            owed.pop(0)
        if not due[0][0]:
            due.pop(0)
    return plan
