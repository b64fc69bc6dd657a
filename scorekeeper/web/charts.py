"""The geometry of the small inline SVG charts: values placed in a box, drawn by templates.

A game's running totals (``table/charts.py``) and a player's course over a league's
games (``league/charts.py``) are both lines through points in one such box."""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Plot:
    """A ``width`` × ``height`` box with a margin of ``pad``: x runs from ``first`` (left)
    to ``last`` (right), y from ``high`` (top) to ``low`` (bottom)."""

    width: int
    height: int
    pad: int
    first: int
    last: int
    low: int
    high: int

    def x(self, number: int) -> float:
        inner = self.width - 2 * self.pad
        return round(self.pad + inner * (number - self.first) / (self.last - self.first or 1), 1)

    def y(self, value: int) -> float:
        inner = self.height - 2 * self.pad
        return round(self.pad + inner * (self.high - value) / (self.high - self.low or 1), 1)

    def line(self, points: Iterable[tuple[int, int]]) -> str:
        """SVG polyline points through ``(x, y)`` values."""
        return " ".join(f"{self.x(number)},{self.y(value)}" for number, value in points)
