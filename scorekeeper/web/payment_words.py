"""What a deal of any game paid, and who settles with whom, in sentences: "Everyone else
paid Cy $1.25 each ($0.25 for the win, $1.00 for the Jokers)." "Dan took the pool:
$5.00." "Cy pays Ana $3.10."

Worded from the engine's payments alone (who, to whom, how much, why: ``Payment`` and its
``Reason``), so a page says the money of every game the same way and no template adds
it up. Payments that differ only by who paid them are said once, "each"; a pool is said as
a pool. Part of the one catalog of words (:mod:`.messages`, :mod:`.game_words`).
"""

from collections.abc import Callable, Sequence

from scorekeeper.engine.games import Payment, Reason, Transfer
from scorekeeper.web.game_words import reason_words
from scorekeeper.web.translation import gettext

#: Writes an amount of money (cents) as the page does.
Written = Callable[[int], str]


def names_and(names: Sequence[str]) -> str:
    """Names joined as a sentence does: "Ana", "Ana and Ben", "Ana, Ben and Cy"."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def _grouped(
    payments: Sequence[Payment],
) -> list[tuple[int | None, list[int | None], list[tuple[Reason, int]]]]:
    """The payments as (payee, payers, what each payer paid and why): payers who paid the
    same payee the same amounts for the same reasons are one group, in the order met."""
    by_pair: dict[tuple[int | None, int | None], list[tuple[Reason, int]]] = {}
    for payment in payments:
        by_pair.setdefault((payment.payer, payment.payee), []).append(
            (payment.reason, payment.amount)
        )
    groups: dict[tuple[int | None, tuple[tuple[Reason, int], ...]], list[int | None]] = {}
    for (payer, payee), paid in by_pair.items():
        groups.setdefault((payee, tuple(paid)), []).append(payer)
    return [(payee, payers, list(paid)) for (payee, paid), payers in groups.items()]


def _why(paid: Sequence[tuple[Reason, int]], written: Written) -> str:
    """Why, and for a payment made of several reasons, how much for each."""
    if len(paid) == 1:
        return reason_words(paid[0][0])
    return ", ".join(
        gettext("%(amount)s %(why)s", amount=written(amount), why=reason_words(reason))
        for reason, amount in paid
    )


def paid_words(payments: Sequence[Payment], names: Sequence[str], written: Written) -> list[str]:
    """What ``payments`` (one deal's, or a game's closing ones) did, a sentence per group."""
    seats = len(names)
    said = []
    # What players paid, then what the pool paid out (taken, or given back at the end).
    for payee, payers, paid in _grouped([p for p in payments if p.payer is not None]):
        total = written(sum(amount for _reason, amount in paid))
        why = _why(paid, written)
        seated = [seat for seat in payers if seat is not None]
        if payee is None:
            said.append(_into_pool(seated, names, total, why, everyone=len(seated) == seats))
        else:
            everyone = len(seated) == seats - 1 and seats > 2
            said.append(_to_seat(seated, names, names[payee], total, why, everyone=everyone))
    from_pool = [payment for payment in payments if payment.payer is None]
    for (reason, amount), payees in _by_amount(from_pool).items():
        said.append(_from_pool(payees, names, written(amount), reason))
    return said


def _to_seat(
    payers: list[int], names: Sequence[str], payee: str, amount: str, why: str, *, everyone: bool
) -> str:
    if everyone:
        return gettext(
            "Everyone else paid %(payee)s %(amount)s each (%(why)s).",
            payee=payee,
            amount=amount,
            why=why,
        )
    if len(payers) > 1:
        return gettext(
            "%(payers)s paid %(payee)s %(amount)s each (%(why)s).",
            payers=names_and([names[seat] for seat in payers]),
            payee=payee,
            amount=amount,
            why=why,
        )
    return gettext(
        "%(payer)s paid %(payee)s %(amount)s (%(why)s).",
        payer=names[payers[0]],
        payee=payee,
        amount=amount,
        why=why,
    )


def _into_pool(
    payers: list[int], names: Sequence[str], amount: str, why: str, *, everyone: bool
) -> str:
    if everyone:
        return gettext("Everyone put %(amount)s into the pool (%(why)s).", amount=amount, why=why)
    if len(payers) > 1:
        return gettext(
            "%(payers)s put %(amount)s each into the pool (%(why)s).",
            payers=names_and([names[seat] for seat in payers]),
            amount=amount,
            why=why,
        )
    return gettext(
        "%(payer)s put %(amount)s into the pool (%(why)s).",
        payer=names[payers[0]],
        amount=amount,
        why=why,
    )


def _by_amount(payments: Sequence[Payment]) -> dict[tuple[Reason, int], list[int]]:
    """Payments out of the pool, their payees grouped by what each got and why."""
    found: dict[tuple[Reason, int], list[int]] = {}
    for payment in payments:
        assert payment.payee is not None  # the pool pays a seat
        found.setdefault((payment.reason, payment.amount), []).append(payment.payee)
    return found


def _from_pool(payees: list[int], names: Sequence[str], amount: str, reason: Reason) -> str:
    named = names_and([names[seat] for seat in payees])
    if reason is not Reason.POOL_BACK:
        return gettext("%(payee)s took the pool: %(amount)s.", payee=named, amount=amount)
    if len(payees) == len(names):
        return gettext("Everyone got %(amount)s back from the pool.", amount=amount)
    if len(payees) > 1:
        return gettext(
            "%(payees)s got %(amount)s each back from the pool.", payees=named, amount=amount
        )
    return gettext("%(payee)s got %(amount)s back from the pool.", payee=named, amount=amount)


def pays_words(transfer: Transfer, names: Sequence[str], written: Written, *, paid: bool) -> str:
    """One payment of a settlement: "Cy pays Ana $3.10" (or, once marked paid, "paid")."""
    values = {
        "payer": names[transfer.payer],
        "payee": names[transfer.payee],
        "amount": written(transfer.amount),
    }
    if paid:
        return gettext("%(payer)s paid %(payee)s %(amount)s", **values)
    return gettext("%(payer)s pays %(payee)s %(amount)s", **values)
