"""A small inline SVG of both running totals: geometry only, drawn by the template."""

from dataclasses import dataclass

from scorekeeper.engine import Scorecard, Seat

WIDTH, HEIGHT, PAD = 320, 160, 8


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[str, str]  # SVG polyline points, one per seat
    target_y: float
    zero_y: float
    summary: str  # the same information in words, for screen readers


def running_totals_chart(card: Scorecard, names: tuple[str, str]) -> Chart | None:
    """Both players' totals after each deal, with the target as a line; None before deal 1."""
    if not card.lines:
        return None
    totals = [(0, 0)] + [line.totals for line in card.lines]
    values = [value for pair in totals for value in pair] + [card.rules.target]
    low, high = min(0, *values), max(values)
    span = high - low or 1

    def y(value: int) -> float:
        return round(PAD + (HEIGHT - 2 * PAD) * (high - value) / span, 1)

    def x(index: int) -> float:
        return round(PAD + (WIDTH - 2 * PAD) * index / (len(totals) - 1), 1)

    lines = tuple(
        " ".join(f"{x(i)},{y(pair[seat])}" for i, pair in enumerate(totals)) for seat in Seat
    )
    summary = (
        f"Running totals over {len(card.lines)} deals: {names[0]} {card.totals[0]:,}, "
        f"{names[1]} {card.totals[1]:,}; target {card.rules.target:,}."
    )
    return Chart(WIDTH, HEIGHT, (lines[0], lines[1]), y(card.rules.target), y(0), summary)
