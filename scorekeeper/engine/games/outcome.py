"""How each player finished a game: the finishing order the league's standings and
ratings are made from (RULES-MORE-GAMES.md §8, issue 37).

In a sitting the order is by money won (each seat its own side); in a game that ends by
its own rule and is kept in points (Scotch Whist), by side: the winning side first, the
others by their totals. Sides that finish level share a place.
"""

from dataclasses import dataclass

from .base import Sitting


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's result of a finished game."""

    seat: int
    #: The index of the seat's side (``Sitting.sides``): its partners share it.
    side: int
    #: Money received minus paid over the whole game (after a pool is given back).
    net: int
    deals_won: int
    #: 1 for the best; sides that finish level share a place.
    place: int
    #: On the winning side of a game that ends itself; in a sitting, a best net (shared or not).
    won: bool
    #: The seat's side's total and the other sides' totals added up (games kept in
    #: points); 0 and 0 otherwise.
    points_for: int
    points_against: int


def _side_scores(sitting: Sitting) -> list[tuple[int, int]]:
    """What orders the sides, best first when sorted high to low: (won, total) for a game
    kept in points, (net, 0) for a sitting."""
    if sitting.totals is None:
        return [(sitting.balances[side[0]], 0) for side in sitting.sides]
    winners = set(sitting.winners or ())
    return [
        (int(bool(winners & set(side))), total)
        for side, total in zip(sitting.sides, sitting.totals, strict=True)
    ]


def outcome(sitting: Sitting) -> tuple[SeatOutcome, ...]:
    """Each seat's result, in seat order. ValueError for a game that isn't finished."""
    if not sitting.finished:
        raise ValueError("only a finished game has an outcome")
    scores = _side_scores(sitting)
    places = [1 + sum(other > score for other in scores) for score in scores]
    all_points = sum(sitting.totals or ())
    found: dict[int, SeatOutcome] = {}
    for index, (side, place, seats_total) in enumerate(
        zip(sitting.sides, places, sitting.totals or [0] * len(sitting.sides), strict=True)
    ):
        for seat in side:
            found[seat] = SeatOutcome(
                seat=seat,
                side=index,
                net=sitting.balances[seat],
                deals_won=sitting.deals_won(seat),
                place=place,
                won=place == 1,
                points_for=seats_total,
                points_against=all_points - seats_total,
            )
    return tuple(found[seat] for seat in sorted(found))
