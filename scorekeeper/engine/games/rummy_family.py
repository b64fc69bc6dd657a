"""What the Rummy games share (RULES-MORE-GAMES.md §1–5): the cards dealt, reading who went
out and each player's count, and each other player paying the winner for their count."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..counting import Rank
from .base import Entry, Payment, Problem, Reason
from .reading import Reader, complete

#: Rummy's cards dealt to each player, by the number of players (Boathouse, Gambler's and
#: Knock Rummy deal the same).
CARDS_DEALT: Final = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
#: The most a card counts for in a hand (a court card or a ten).
HIGHEST_CARD: Final = 10
#: A count above this many points a card dealt is legal but unusual: a hand of nearly only
#: tens and court cards.
USUAL_PER_CARD: Final = 8
#: What each card left in a hand counts (Rummy, Gambler's and Knock Rummy): court cards 10,
#: an Ace 1, every other card its pips. The counting help adds a hand up from these.
CARD_VALUES: Final[Mapping[Rank, int]] = {
    **{rank: int(rank.value) for rank in Rank if rank.value.isdigit()},
    Rank.JACK: HIGHEST_CARD,
    Rank.QUEEN: HIGHEST_CARD,
    Rank.KING: HIGHEST_CARD,
    Rank.ACE: 1,
}


def most_count(players: int) -> int:
    """The highest count: every card dealt a court card (100, 70 or 60)."""
    return HIGHEST_CARD * CARDS_DEALT[players]


def usual_count(players: int) -> int:
    """Above this count a hand is worth a second look."""
    return USUAL_PER_CARD * CARDS_DEALT[players]


@dataclass(frozen=True)
class WentOut:
    """A deal won by going out: who went out (None: nobody, a dead deal) and every player's
    count, the one who went out's 0."""

    out: int | None
    counts: tuple[int, ...]

    def entry(self) -> Entry:
        return {"out": self.out, "counts": list(self.counts)}


def read_out(reader: Reader, raw: Mapping[str, object], players: int) -> int | None:
    """Who went out: a seat, required."""
    return reader.seat("out", raw.get("out"), players)


def read_counts(
    reader: Reader, raw: Mapping[str, object], players: int, high: int, out: int | None
) -> list[int | None] | None:
    """Every player's count, from 0 to ``high``, the one who went out's 0; None for each
    count refused (and for all of them when ``counts`` is not a list of one per seat)."""
    values = reader.listed("counts", raw.get("counts"), players)
    if values is None:
        return None
    counts = [
        reader.whole(f"counts.{seat}", value, 0, high, "count.range")
        for seat, value in enumerate(values)
    ]
    if out is not None and counts[out] not in (0, None):
        reader.add(f"counts.{out}", "count.out_not_zero")
        counts[out] = None
    return counts


def read_went_out(
    reader: Reader,
    raw: Mapping[str, object],
    players: int,
    high: int,
    *,
    dead: bool = False,
) -> WentOut | None:
    """``{"out", "counts"}`` read (None if a value is refused); ``dead``: ``out`` may be
    null (a dead deal), though never left out."""
    out = None if dead and "out" in raw and raw["out"] is None else read_out(reader, raw, players)
    counts = complete(read_counts(reader, raw, players, high, out))
    return None if counts is None else WentOut(out, counts)


def paid_by_counts(
    out: int, counts: Sequence[int], point: int, *, doubled: bool = False
) -> tuple[Payment, ...]:
    """Each other player pays ``out`` their count × ``point`` (a line for the count, and,
    ``doubled``, a rummy line of the same amount); nothing for a count of 0."""
    payments: list[Payment] = []
    for seat, count in enumerate(counts):
        if seat == out or not count:
            continue
        payments.append(Payment(seat, out, count * point, Reason.COUNT))
        if doubled:
            payments.append(Payment(seat, out, count * point, Reason.RUMMY))
    return tuple(payments)


def high_counts(counts: Sequence[int], usual: int) -> list[Problem]:
    """A warning for each count above ``usual``."""
    reader = Reader()
    for seat, count in enumerate(counts):
        if count > usual:
            reader.add(f"counts.{seat}", "warning.high_count", count=count, usual=usual)
    return reader.problems
