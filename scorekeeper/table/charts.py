"""A small inline SVG of both running totals: geometry only, drawn by the template."""

from dataclasses import dataclass

from scorekeeper.engine import Scorecard, Seat
from scorekeeper.web.charts import Plot

WIDTH, HEIGHT, PAD = 320, 160, 8


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[str, str]  # SVG polyline points, one per seat
    target_y: float
    zero_y: float  # the chart's words, for screen readers, are the template's (game.html)


def running_totals_chart(card: Scorecard) -> Chart | None:
    """Both players' totals after each deal, with the target as a line; None before deal 1."""
    if not card.lines:
        return None
    totals = [(0, 0)] + [line.totals for line in card.lines]
    values = [value for pair in totals for value in pair] + [card.rules.target]
    plot = Plot(WIDTH, HEIGHT, PAD, 0, len(totals) - 1, min(0, *values), max(values))
    lines = tuple(plot.line((i, pair[seat]) for i, pair in enumerate(totals)) for seat in Seat)
    return Chart(WIDTH, HEIGHT, (lines[0], lines[1]), plot.y(card.rules.target), plot.y(0))
