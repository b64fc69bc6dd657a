"""The bill of a game of any kind but Mille, per payer: what each payer owes to whom, how
each payee is paid (the game's own handle, else the league's), the deals that made the
payer's balance, and the sentence to share.

A finished game of Mille has one payer; another game settles in the fewest payments
(:mod:`scorekeeper.engine.settle_up`), so a payer may owe two players and a player may be
paid by two: each payer gets a receipt of their own, and a seat's link reads the receipts
its player pays or is paid by. Worded here from the :class:`.ShownSitting`, in the page's
language; nothing here adds money up but the payer's payments to one total.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.engine.games import Transfer
from scorekeeper.models import Game
from scorekeeper.records import payment_handles
from scorekeeper.records.payment_handles import PaymentHandle
from scorekeeper.table.shown_sitting import ShownSitting
from scorekeeper.web.formatting import currency_of, long_day, money
from scorekeeper.web.payment_words import names_and
from scorekeeper.web.translation import gettext


@dataclass(frozen=True)
class Due:
    """One payment of a payer's receipt, and where its payee is paid (None: not said, or
    not for this reader)."""

    payee: str
    amount: int
    handle: PaymentHandle | None
    paypal: str | None


@dataclass(frozen=True)
class PayerReceipt:
    """One payer's bill."""

    seat: int
    payer: str
    #: The seats this payer pays.
    payees: tuple[int, ...]
    dues: list[Due]
    total: int
    #: The payer's balance, and each deal (and the end) that made it.
    balance: str
    lines: list[str]
    day: str
    #: The sentence to share, ending with a link.
    text: str

    def concerns(self, seat: int) -> bool:
        """Whether the player of ``seat`` pays or is paid on this receipt."""
        return seat == self.seat or seat in self.payees


def receipts_of(
    game: Game,
    shown: ShownSitting,
    link: Callable[[int], str],
    *,
    show_handle: bool,
) -> list[PayerReceipt]:
    """Each payer's receipt of the finished game ``shown``, in the settlement's order.
    ``link(seat)``: the address a payer's sentence ends with (a read-only receipt: never
    a link that could agree as the payer); ``show_handle``: whether the reader may see
    where the payees are paid (the league's members, the game's links)."""
    day = long_day(game.finished_at or game.played_at)
    found = []
    for settling in shown.settling:
        transfers = [t for t in shown.sitting.settlement or () if t.payer == settling.seat]
        dues = [_due(game, shown.names, t, show_handle=show_handle) for t in transfers]
        text = _share_text(game, settling.payer, dues, settling.lines, day)
        where = gettext("The receipt: %(link)s", link=link(settling.seat))
        found.append(
            PayerReceipt(
                seat=settling.seat,
                payer=settling.payer,
                payees=tuple(t.payee for t in transfers),
                dues=dues,
                total=sum(t.amount for t in transfers),
                balance=settling.balance,
                lines=settling.lines,
                day=day,
                text=f"{text} {where}",
            )
        )
    return found


def _due(game: Game, names: Sequence[str], transfer: Transfer, *, show_handle: bool) -> Due:
    handle = payment_handles.bill_handle(game, transfer.payee) if show_handle else None
    return Due(
        payee=names[transfer.payee],
        amount=transfer.amount,
        handle=handle,
        paypal=handle.paypal_link(transfer.amount, currency_of(game.league)) if handle else None,
    )


def _share_text(game: Game, payer: str, dues: list[Due], lines: list[str], day: str) -> str:
    """ "Cy owes $3.10 to Ana and $0.40 to Ben for the game of 24 November 2026: deal 1:
    −$1.00, …", every amount exact; "paid" once it is marked paid."""
    owed = names_and(
        [gettext("%(amount)s to %(payee)s", amount=money(d.amount), payee=d.payee) for d in dues]
    )
    facts = {"payer": payer, "owed": owed, "day": day, "lines": ", ".join(lines)}
    if game.paid_at:
        return gettext("%(payer)s paid %(owed)s for the game of %(day)s: %(lines)s.", **facts)
    return gettext("%(payer)s owes %(owed)s for the game of %(day)s: %(lines)s.", **facts)
