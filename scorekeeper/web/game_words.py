"""The words for the games the table keeps and what they keep as data: each game's name,
its stakes and rule options, and why money moved (``engine.games.Reason``), in the page's
language (the API says the engine's own codes).

Data named once, worded here: the engine knows a game, a stake or a reason by its code,
a page shows these words for it.
"""

from typing import Final

from flask import Flask
from flask_babel.speaklater import LazyString

from scorekeeper.engine.games import Reason
from scorekeeper.web.translation import lazy_gettext as _l

#: Each game by the engine's name of it.
GAME_NAMES: Final[dict[str, LazyString]] = {
    "mille": _l("Mille"),
    "rummy": _l("Rummy"),
    "boathouse-rummy": _l("Boathouse Rummy"),
    "continental-rummy": _l("Continental Rummy"),
    "gamblers-rummy": _l("Gambler's Rummy"),
    "knock-rummy": _l("Knock Rummy"),
    "scotch-whist": _l("Scotch Whist"),
    "spoil-five": _l("Spoil Five"),
}

#: Each stake a game is played for, by its name in the engine's setup.
STAKE_LABELS: Final[dict[str, LazyString]] = {
    "point": _l("Per point"),
    "unit": _l("Per unit"),
    "game": _l("Per game (each loser pays)"),
    "ante": _l("Ante (each player, when a pool starts)"),
    "dealer": _l("Dealer's stake (the other deals)"),
    "maximum": _l("Most the pool may hold"),
    "small": _l("Small stake"),
    "big": _l("Big stake"),
}

#: Each rule option a game takes, by its name in the engine's setup.
RULE_LABELS: Final[dict[str, LazyString]] = {
    "target": _l("Target"),
    "partnerships": _l("Play in partnerships (partners sit opposite)"),
}

#: What a rule option does, beside its field on the new-game page.
RULE_HINTS: Final[dict[str, LazyString]] = {
    "target": _l("The game ends after the deal at which a total reaches it."),
}

#: What a stake that may be left out means when it is, beside its field on the new-game page.
STAKE_HINTS: Final[dict[str, LazyString]] = {
    "dealer": _l("Leave empty for the ante."),
    "maximum": _l("Leave empty for no maximum."),
}

#: Why money moved, as a line of a deal's payments says it.
REASON_WORDS: Final[dict[Reason, LazyString]] = {
    Reason.COUNT: _l("for the cards left"),
    Reason.RUMMY: _l("doubled for rummy"),
    Reason.UNIT: _l("for the win"),
    Reason.JOKER: _l("for the Jokers"),
    Reason.KNOCK_PENALTY: _l("the knocker's penalty"),
    Reason.RUMMY_BONUS: _l("the rummy bonus"),
    Reason.ANTE: _l("the ante"),
    Reason.DEALER: _l("the dealer's stake"),
    Reason.POOL: _l("took the pool"),
    Reason.JINK: _l("for the jink"),
    Reason.POOL_BACK: _l("the pool given back"),
    Reason.GAME: _l("for the game"),
}


def game_name(kind: str) -> str:
    """A game's name in the page's language ("Knock Rummy"); an unknown one as it is."""
    found = GAME_NAMES.get(kind)
    return str(found) if found is not None else kind


def stake_label(name: str) -> str:
    return str(STAKE_LABELS.get(name, name))


def stake_hint(name: str) -> str:
    """What leaving the stake out means ("Leave empty for the ante."); "" if nothing."""
    found = STAKE_HINTS.get(name)
    return str(found) if found is not None else ""


def rule_label(name: str) -> str:
    return str(RULE_LABELS.get(name, name))


def rule_hint(name: str) -> str:
    """What the rule option does ("The game ends after the deal …"); "" if nothing."""
    found = RULE_HINTS.get(name)
    return str(found) if found is not None else ""


def reason_words(reason: str) -> str:
    """Why money moved, in words ("the knocker's penalty")."""
    return str(REASON_WORDS[Reason(reason)])


def init_app(app: Flask) -> None:
    for word in (game_name, stake_label, stake_hint, rule_label, rule_hint, reason_words):
        app.add_template_filter(word)
