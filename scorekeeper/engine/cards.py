"""Card values and the limits they put on a deal score (RULES.md §1–2)."""

from typing import Final

QUEEN_OF_SPADES: Final = 100
JACK_OF_DIAMONDS: Final = 50
TWO: Final = 20
ACE: Final = 15
TEN_TO_KING: Final = 10
THREE_TO_NINE: Final = 5

#: Two 52-card decks, no jokers: the points of all 104 cards.
DECK_POINTS: Final = (
    2 * (QUEEN_OF_SPADES + JACK_OF_DIAMONDS)
    + 8 * TWO
    + 8 * ACE
    + (4 * 8 - 4) * TEN_TO_KING
    + 7 * 8 * THREE_TO_NINE
)

#: The least a player who went out can score: one set of three 5-point cards.
MIN_OUT_SCORE: Final = 3 * THREE_TO_NINE
#: Every card left in hand, none on the table.
MIN_DEAL_SCORE: Final = -DECK_POINTS
#: Every card on the table, counted four times.
MAX_DEAL_SCORE: Final = 4 * DECK_POINTS
#: Every card is a multiple of five points, so every score is too.
POINT_STEP: Final = 5

assert DECK_POINTS == 1140
