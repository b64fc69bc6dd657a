"""Every problem code the games of this package give, and what each means.

A :class:`~.base.Problem` ties a code to the field at fault (``counts.2``,
``honours.jack``, ``stakes.ante``) and to the values it names (``params``); the engine
words nothing, ``web/messages.py`` does. Mille's deals keep the codes of
``engine/tally.py`` (``score.range``, ``stars.too_many_out`` …), with ``stars.<seat>``
named ``naturals.<seat>`` as the API names it.

Reading any body (a deal, the rules, the stakes):

* ``field.unknown``: the body, ``rules`` or ``stakes`` has no such key.
* ``field.missing``: a required value is left out (or null where null means nothing).
* ``field.not_whole``: the value must be a whole number.
* ``field.not_bool``: the value must be true or false.
* ``field.not_object``: the value must be an object (``honours``).
* ``field.choice`` ``{choices}``: the value must be one of the words ``choices``.
* ``list.length`` ``{length}``: the value must be a list of ``length`` values, one per
  seat (``counts``) or per side (``cards``, ``scores``, ``naturals``).
* ``seat.range`` ``{high}``: the value must be a seat, a whole number from 0 to ``high``.
* ``side.range`` ``{high}``: the value must be a side, a whole number from 0 to ``high``.

Starting a game:

* ``players.range`` ``{low, high}``: the game takes ``low`` to ``high`` players.
* ``stake.range`` ``{low, high}``: a stake is from ``low`` to ``high`` cents.
* ``target.range`` ``{low, high}``: the target is a whole number from ``low`` to ``high``.
* ``target.step`` ``{step}``: Mille's target is a multiple of ``step`` (5).
* ``partnerships.players``: partnerships need 4, 6 or 8 players (Scotch Whist).
* ``maximum.below_antes`` ``{least}``: Spoil Five's maximum can't be below the players'
  antes of a new pool (``least`` cents).

A deal:

* ``count.range`` ``{low, high}``: a count is a whole number from ``low`` to ``high``
  (10 × the cards dealt; 380 in Boathouse).
* ``count.one``: no card is worth 1 in Boathouse Rummy, so no count is 1.
* ``count.out_not_zero``: the player who went out holds nothing: their count is 0.
* ``jokers.range`` ``{low, high}``: the winner's Jokers are ``low`` to ``high`` (the
  Jokers in play).
* ``cards.range`` ``{low, high}``: a side took ``low`` to ``high`` cards (the pack).
* ``cards.step`` ``{step}``: a side's cards come in whole tricks of ``step`` cards (one per
  player).
* ``cards.total`` ``{total}``: the sides' cards add up to the pack (``total`` cards).
* ``honour.no_trick`` ``{side}``: the side that took this honour took no trick.
* ``jink.no_winner``: a jink, won or failed, is made by a player who won three tricks: a
  spoilt deal has no jink.

Warnings (legal, but worth a second look before saving):

* ``warning.high_count`` ``{count, usual}``: a count above ``usual``, unusually high.
* ``warning.all_jokers`` ``{jokers}``: the winner melded every Joker in play.
"""

from typing import Final

#: The codes above, in the order they are described.
CODES: Final = (
    "field.unknown",
    "field.missing",
    "field.not_whole",
    "field.not_bool",
    "field.not_object",
    "field.choice",
    "list.length",
    "seat.range",
    "side.range",
    "players.range",
    "stake.range",
    "target.range",
    "target.step",
    "partnerships.players",
    "maximum.below_antes",
    "count.range",
    "count.one",
    "count.out_not_zero",
    "jokers.range",
    "cards.range",
    "cards.step",
    "cards.total",
    "honour.no_trick",
    "jink.no_winner",
    "warning.high_count",
    "warning.all_jokers",
)
