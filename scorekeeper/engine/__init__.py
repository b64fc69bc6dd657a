"""The rules of Montreal Mille, as ``shared/RULES.md`` states them.

Pure Python: nothing here imports Flask, SQLAlchemy or WTForms. Money is
whole cents (``int``) throughout; :mod:`.money` converts at the edges.
"""

from .cards import DECK_POINTS, MAX_DEAL_SCORE, MIN_DEAL_SCORE, MIN_OUT_SCORE
from .counting import (
    CardSet,
    Count,
    Hand,
    ImpossibleCards,
    PlayerCards,
    Rank,
    SetCount,
    count_deal,
)
from .game import DealAfterEnd, DealLine, Scorecard, ends_with, replay
from .money import format_money, parse_money
from .rules import PRESETS, DifferenceRule, Preset, Rules, SkunkRule, Stakes
from .settlement import LineKind, Settlement, SettlementLine, settle
from .tally import (
    InvalidTally,
    Seat,
    Tally,
    TallyProblem,
    tally_warnings,
    validate_tally,
    whole_number,
)

__all__ = [
    "DECK_POINTS",
    "MAX_DEAL_SCORE",
    "MIN_DEAL_SCORE",
    "MIN_OUT_SCORE",
    "PRESETS",
    "CardSet",
    "Count",
    "DealAfterEnd",
    "DealLine",
    "DifferenceRule",
    "Hand",
    "ImpossibleCards",
    "InvalidTally",
    "LineKind",
    "PlayerCards",
    "Preset",
    "Rank",
    "Rules",
    "Scorecard",
    "Seat",
    "SetCount",
    "Settlement",
    "SettlementLine",
    "SkunkRule",
    "Stakes",
    "Tally",
    "TallyProblem",
    "count_deal",
    "ends_with",
    "format_money",
    "parse_money",
    "replay",
    "settle",
    "tally_warnings",
    "validate_tally",
    "whole_number",
]
