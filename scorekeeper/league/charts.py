"""Small inline SVG line charts of a player's course: geometry only, drawn by the template."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorekeeper.web.charts import Plot
from scorekeeper.web.translation import ngettext

WIDTH, HEIGHT, PAD = 320, 140, 8


@dataclass(frozen=True)
class TrendChart:
    width: int
    height: int
    points: str  # SVG polyline points
    baseline_y: float  # where the starting value (no money, the first rating) lies
    low: str
    high: str
    summary: str  # the same information in words, for screen readers


def trend_chart(
    values: Sequence[tuple[int, int]],
    baseline: int,
    describe: Callable[[int], str],
    what: str,
) -> TrendChart | None:
    """A line through ``(game number, value)`` pairs; None with fewer than two."""
    if len(values) < 2:
        return None
    ys = [value for _, value in values]
    low, high = min(*ys, baseline), max(*ys, baseline)
    last = values[-1][0]
    plot = Plot(WIDTH, HEIGHT, PAD, values[0][0], last, low, high)

    summary = ngettext(
        # English says "games" even for one, as it always has.
        "%(what)s over %(num)s games: %(now)s now; lowest %(low)s, highest %(high)s.",
        "%(what)s over %(num)s games: %(now)s now; lowest %(low)s, highest %(high)s.",
        last,
        what=what,
        now=describe(ys[-1]),
        low=describe(min(ys)),
        high=describe(max(ys)),
    )
    return TrendChart(
        WIDTH,
        HEIGHT,
        plot.line(values),
        plot.y(baseline),
        describe(low),
        describe(high),
        summary,
    )
