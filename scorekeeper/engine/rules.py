"""The options a game is played under, its presets, and its stakes (RULES.md §3–4)."""

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class SkunkRule(StrEnum):
    """How a loser below half the target pays for it."""

    MULTIPLY = "multiply"  # every payment doubled, or tripled below zero
    MARK = "mark"  # one more big stake, as a line of its own


class DifferenceRule(StrEnum):
    """How the point difference is turned into a count of small stakes."""

    ROUND = "round"  # round each total to the nearest 100, 50 up
    CEIL = "ceil"  # every started 100 of the difference


class Preset(StrEnum):
    """The rule sets a new game can start from."""

    STANDARD = "standard"
    PROGRESSIVE = "progressive"
    MARKS = "marks"

    @property
    def label(self) -> str:
        return _PRESET_LABELS[self]


_PRESET_LABELS: Final = {
    Preset.STANDARD: "Standard",
    Preset.PROGRESSIVE: "Progressive Montreal Mille",
    Preset.MARKS: "Marks (Wikipedia)",
}

MIN_TARGET: Final = 100
MAX_TARGET: Final = 10_000


@dataclass(frozen=True)
class Rules:
    """Everything about a game's rules that changes its end or its settlement."""

    target: int = 1200
    progressive: bool = False
    natural_needed: bool = False
    skunk: SkunkRule = SkunkRule.MULTIPLY
    difference: DifferenceRule = DifferenceRule.ROUND

    def __post_init__(self) -> None:
        if not MIN_TARGET <= self.target <= MAX_TARGET or self.target % 5:
            raise ValueError(f"target must be a multiple of 5 from {MIN_TARGET} to {MAX_TARGET}")

    def is_skunk(self, loser_total: int) -> bool:
        """Whether a loser's final total (before rounding) is below half the target."""
        return 2 * loser_total < self.target

    def matching_preset(self) -> Preset | None:
        """The preset these rules are exactly, if any."""
        return next((p for p, rules in PRESETS.items() if rules == self), None)


PRESETS: Final = {
    Preset.STANDARD: Rules(),
    Preset.PROGRESSIVE: Rules(
        target=2000, progressive=True, skunk=SkunkRule.MARK, difference=DifferenceRule.ROUND
    ),
    Preset.MARKS: Rules(skunk=SkunkRule.MARK, difference=DifferenceRule.CEIL),
}

#: The most a single stake may be, in cents ($10,000): a guard against typos.
MAX_STAKE: Final = 1_000_000


@dataclass(frozen=True)
class Stakes:
    """The small stake (per 100 points of difference) and the big one, in cents."""

    small: int
    big: int

    def __post_init__(self) -> None:
        for name, cents in (("small", self.small), ("big", self.big)):
            if not 0 < cents <= MAX_STAKE:
                raise ValueError(f"the {name} stake must be more than 0 and at most $10,000")

    @classmethod
    def from_small(cls, small: int) -> "Stakes":
        """The usual stakes: the big amount is three times the small one."""
        return cls(small=small, big=3 * small)
