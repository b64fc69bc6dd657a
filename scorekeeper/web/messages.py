"""What the rules engine and the models say, in the page's language.

The engine is pure Python and speaks English only; each problem it reports
carries a ``code`` and the ``params`` its message was written with
(:class:`~.engine.TallyProblem`). Here each code has a message to translate, and
ranks, cards, presets, roles, statuses and the audit trail have their words. A
page in English shows the engine's own text, unchanged; the JSON API never
comes here.
"""

from collections.abc import Callable, Mapping
from typing import Any, Final

from flask import Flask
from flask_babel.speaklater import LazyString

from scorekeeper.engine import Preset, Rank, SetCount, TallyProblem
from scorekeeper.engine.counted_cards import HAND_LABELS, card_value
from scorekeeper.engine.counting import Limit, Place
from scorekeeper.models import FINISHED, IN_PROGRESS, AuditAction, AuditEvent, Game, Role
from scorekeeper.web.formatting import money, number
from scorekeeper.web.languages import in_english
from scorekeeper.web.translation import gettext, ngettext
from scorekeeper.web.translation import lazy_gettext as _l

# Names ----------------------------------------------------------------------------

PRESET_LABELS: Final = {
    Preset.STANDARD: _l("Standard"),
    Preset.PROGRESSIVE: _l("Progressive Montreal Mille"),
    Preset.MARKS: _l("Marks (Wikipedia)"),
}
CUSTOM_RULES: Final = _l("Custom rules")

ROLE_LABELS: Final = {
    Role.VIEWER: _l("Viewer"),
    Role.SCOREKEEPER: _l("Scorekeeper"),
    Role.ADMIN: _l("League admin"),
}

STATUS_LABELS: Final = {
    IN_PROGRESS: _l("In progress"),
    FINISHED: _l("Finished"),
    "unpaid": _l("Finished, not paid"),
    "paid": _l("Paid"),
    "abandoned": _l("Abandoned"),
}

RANK_PLURALS: Final = {
    Rank.TWO: _l("twos"),
    Rank.THREE: _l("threes"),
    Rank.FOUR: _l("fours"),
    Rank.FIVE: _l("fives"),
    Rank.SIX: _l("sixes"),
    Rank.SEVEN: _l("sevens"),
    Rank.EIGHT: _l("eights"),
    Rank.NINE: _l("nines"),
    Rank.TEN: _l("tens"),
    Rank.JACK: _l("jacks"),
    Rank.QUEEN: _l("queens"),
    Rank.KING: _l("kings"),
    Rank.ACE: _l("aces"),
}

#: Ranks and cards as written on them: J, Q, K (V, D, R in French), the Q♠ and the J♦.
RANK_SYMBOLS: Final[Mapping[Rank, str | LazyString]] = {
    **{rank: rank.value for rank in Rank},
    Rank.JACK: _l("J"),
    Rank.QUEEN: _l("Q"),
    Rank.KING: _l("K"),
    Rank.ACE: _l("A"),
}
CARD_NAMES: Final = {"Q♠": _l("Q♠"), "J♦": _l("J♦")}
SPECIALS_HEADING: Final = _l("Q♠/J♦")

#: The classes of card in hand, by their names in the JSON (counted_cards.HAND_CLASSES).
HAND_CLASS_LABELS: Final[Mapping[str, str | LazyString]] = {
    "queen_of_spades": CARD_NAMES["Q♠"],
    "jack_of_diamonds": CARD_NAMES["J♦"],
    "twos": _l("2s"),
    "aces": _l("aces"),
    "tens_to_kings": _l("10 to K"),
    "threes_to_nines": _l("3 to 9"),
}
_HAND_CLASS_OF_LABEL: Final = {label: name for name, label in HAND_LABELS.items()}

#: What two decks limit (counting's :class:`~.engine.counting.Limit`), by its key.
LIMIT_NOUNS: Final[Mapping[str, str | LazyString]] = {
    "twos": _l("twos"),
    "aces": _l("aces"),
    "queen_of_spades": CARD_NAMES["Q♠"],
    "jack_of_diamonds": CARD_NAMES["J♦"],
    "other_queens": _l("queens other than Q♠"),
    "other_jacks": _l("jacks other than J♦"),
    "tens_to_kings": _l("cards from 10 to K other than Q♠ and J♦"),
    "threes_to_nines": _l("cards from 3 to 9"),
    **{rank.value: RANK_PLURALS[rank] for rank in Rank if rank not in (Rank.TWO, Rank.ACE)},
}


def preset_label(preset: str | None) -> str:
    """A preset's name, or "Custom rules" for options that match none."""
    return str(PRESET_LABELS[Preset(preset)] if preset in set(Preset) else CUSTOM_RULES)


def rules_label(game: Game) -> str:
    return preset_label(game.preset)


def role_label(role: Role) -> str:
    return str(ROLE_LABELS[Role(role)])


def status_label(status: str) -> str:
    return str(STATUS_LABELS[status])


def card_name(card: str) -> str:
    """The Q♠ or the J♦, as the page's language writes it (D♠, V♦)."""
    return str(CARD_NAMES.get(card, card))


def rank_plural(rank: Rank) -> str:
    """The rank in words, as in "8 tens" / "8 dix"."""
    return str(RANK_PLURALS[Rank(rank)])


def hand_label(label: str) -> str:
    """A class of card in hand, named as ``counted_cards.HAND_LABELS`` names it."""
    name = _HAND_CLASS_OF_LABEL.get(label)
    return label if name is None else str(HAND_CLASS_LABELS[name])


def hand_field_label(hand_class: str) -> str:
    """A class of card in hand with what each is worth: "Q♠ (100)", "Aces (15)"."""
    label = str(HAND_CLASS_LABELS[hand_class])
    return f"{label[0].upper()}{label[1:]} ({card_value(hand_class)})"


def lazy_hand_field_label(hand_class: str) -> LazyString:
    """:func:`hand_field_label`, worded when a page shows it (a form field's label)."""
    return LazyString(hand_field_label, hand_class)


def _and(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return gettext("%(first)s and %(last)s", first=", ".join(words[:-1]), last=words[-1])


# The engine's problems --------------------------------------------------------------

PROBLEMS: Final = {
    # A tally (engine/tally.py)
    "out.missing": _l("Choose the one player who went out."),
    "score.not_whole": _l("The score must be a whole number."),
    "score.step": _l(
        "Scores must be multiples of 5: every card is worth 5, 10, 15, 20, 50 or 100."
    ),
    "score.range": _l(
        "A deal score must lie between %(low)s and %(high)s: two decks can't reach further."
    ),
    "score.out_minimum": _l(
        "The player who went out scores at least %(least)s (one set of three 5-point cards)."
    ),
    "stars.not_whole": _l("The number of stars must be a whole number."),
    "stars.negative": _l("The number of stars can't be negative."),
    "stars.too_many_out": _l("A player who went out can have at most %(most)s stars in one deal."),
    "stars.too_many_in": _l("A player who stayed in can have at most %(most)s stars in one deal."),
    "stars.too_many": _l("A player can have at most %(most)s stars in one deal."),
    "warning.high_score": _l("%(score)s is an unusually high deal score."),
    "warning.star_on_low_score": _l(
        "A star with a deal score of %(score)s is unusual "
        "(a natural set alone is worth at least %(least)s)."
    ),
    # Cards counted (engine/counting.py)
    "cards.negative": _l("counts of cards can't be negative."),
    "set.wild_in_twos": _l("in a set of twos no two is wild; count them all as natural twos."),
    "set.special_wrong_rank": _l("only a set of queens can hold the Q♠, and only jacks the J♦."),
    "set.too_many_specials": _l("it can't hold more %(special)s than natural %(rank)s."),
    "set.no_natural": _l(
        "a set needs at least one natural card (a set made only of twos is a set of twos)."
    ),
    "set.too_small": _l("a set needs at least three cards."),
    "set.repeated": _l(
        "%(name)s already has a set of %(rank)s (set %(earlier)s); "
        "a player's cards of one rank make one set."
    ),
    "out.no_set": _l("%(name)s went out, so %(name)s must have at least one set on the table."),
    "out.hand_not_empty": _l("%(name)s went out, so %(name)s's hand must be empty."),
    "in.hand_empty": _l(
        "%(name)s stayed in, so %(name)s still holds at least one card: "
        "enter the cards left in %(name)s's hand."
    ),
    "deck.too_many": _l("%(total)s %(noun)s, but two decks have only %(most)s."),
    "deck.too_many_together": _l(
        "%(where)s hold %(total)s %(noun)s together, but two decks have only %(most)s."
    ),
}


def place_label(place: Place) -> str:
    """Where cards are, in words: "Ana's set 2 (kings)", "Ben's hand"."""
    if place.number is None or place.rank is None:
        return gettext("%(name)s's hand", name=place.name)
    return gettext(
        "%(name)s's set %(number)s (%(rank)s)",
        name=place.name,
        number=place.number,
        rank=rank_plural(place.rank),
    )


def _worded(value: object) -> object:
    """A problem's value as the page's language writes it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return number(value)
    if isinstance(value, Rank):
        return rank_plural(value)
    if isinstance(value, Place):
        return place_label(value)
    if isinstance(value, Limit):
        return str(LIMIT_NOUNS.get(value.key, value.noun))
    if isinstance(value, str):
        return card_name(value)
    return value


def problem_message(problem: TallyProblem) -> str:
    """The problem in the page's language (the engine's own words in English)."""
    template = PROBLEMS.get(problem.code)
    if in_english() or template is None:
        return problem.message
    params = {key: _worded(value) for key, value in problem.params.items()}
    if "limit" in params:
        params["noun"] = params["limit"]
    if "places" in problem.params:
        places = problem.params["places"]
        assert isinstance(places, tuple)
        params["where"] = _and([place_label(place) for place in places])
    text = str(template) % params
    if "place" in params:
        return gettext("%(place)s: %(problem)s", place=params["place"], problem=text)
    return text


def set_description(line: SetCount) -> str:
    """How a set counted, as the engine describes it: "8 tens, natural set: 8 × 10 × 2 = 160".

    The arithmetic after the colon is the engine's own: numbers and signs only.
    """
    if in_english():
        return line.description
    card_set, factor = line.card_set, line.factor
    rank = card_set.rank
    extras = []
    if card_set.specials:
        extras.append(f"{card_set.specials} {card_name(rank.special or '')}")
    if card_set.wild_twos:
        extras.append(ngettext("%(num)s wild two", "%(num)s wild twos", card_set.wild_twos))
    label = f"{card_set.size} {rank_plural(rank)}"
    if extras:
        label += f" ({', '.join(extras)})"
    if card_set.natural:
        label += gettext(", natural set")
    if factor == 4 or (factor == 2 and not card_set.natural):  # doubled for going out naturally
        label += gettext(", natural going out")
    terms = line.description.rpartition(": ")[2].rpartition(" = ")[0]
    return gettext("%(set)s: %(sum)s = %(points)s", set=label, sum=terms, points=line.points)


# The audit trail --------------------------------------------------------------------


def event_summary(event: AuditEvent, game: Game | None = None) -> str:
    """What a change to a game was, in the page's language, worded from its action and
    the values kept with it (amounts as the page writes money)."""
    wording = _EVENTS.get(event.action)
    try:
        return unread_text(event) if wording is None else wording(event.params)
    except (KeyError, TypeError):
        return unread_text(event)


def unread_text(event: AuditEvent) -> str:
    """An event whose values can't be worded: the sentence it was kept with, if the
    migration to values couldn't read it (``text``), else its action."""
    return str(event.params.get("text") or event.action)


def _imported(values: Mapping[str, Any]) -> str:
    where = (
        gettext("line %(number)s", number=values["where"])
        if values["place"] == "line"
        else gettext("game %(key)s", key=values["where"])
    )
    if values["file"] == "league_export":
        text = gettext("Imported from a league export (%(where)s).", where=where)
    else:
        text = gettext("Imported from a paper score card (%(where)s).", where=where)
    if values.get("paid_by"):
        said = gettext("The file says %(name)s marked it paid.", name=values["paid_by"])
        text = f"{text} {said}"
    if "abandoned_by" in values:
        said = (
            gettext("The file says %(name)s abandoned it.", name=values["abandoned_by"])
            if values["abandoned_by"]
            else gettext("The file says it was abandoned.")
        )
        text = f"{text} {said}"
    return text


_EVENTS: Final[dict[AuditAction, Callable[[Mapping[str, Any]], str]]] = {
    AuditAction.DEAL_RECORDED: lambda v: gettext("Deal %(number)s recorded.", number=v["number"]),
    AuditAction.DEAL_EDITED: lambda v: gettext("Deal %(number)s corrected.", number=v["number"]),
    AuditAction.DEAL_DELETED: lambda v: gettext(
        "Deal %(number)s deleted; later deals moved up.", number=v["number"]
    ),
    AuditAction.GAME_FINISHED: lambda v: gettext(
        "%(winner)s won after deal %(number)s.", winner=v["winner"], number=v["number"]
    ),
    AuditAction.GAME_REOPENED: lambda v: gettext("The game is in progress again."),
    AuditAction.PAYMENT_MARKED: lambda v: gettext(
        "%(payer)s's payment of %(amount)s marked paid.",
        payer=v["payer"],
        amount=money(v["amount"]),
    ),
    AuditAction.GAME_UNLOCKED: lambda v: gettext("Game unlocked; its payment is unpaid again."),
    AuditAction.GAME_ABANDONED: lambda v: gettext("Game abandoned: it no longer counts."),
    AuditAction.GAME_RESTORED: lambda v: gettext("Game restored: it counts again."),
    AuditAction.GAME_IMPORTED: _imported,
    AuditAction.CARD_AGREED: lambda v: (
        gettext(
            "%(name)s agreed with the card (version %(version)s) on their own phone.",
            name=v["name"],
            version=v["version"],
        )
        if v["by"] == "link"
        else gettext(
            "%(name)s agreed with the card (version %(version)s).",
            name=v["name"],
            version=v["version"],
        )
    ),
}


def init_app(app: Flask) -> None:
    app.add_template_filter(problem_message, "problem")
    app.add_template_filter(rules_label)
    app.add_template_filter(role_label)
    app.add_template_filter(rank_plural)
    app.add_template_filter(hand_label)
    app.add_template_global(set_description)
    app.add_template_global(event_summary)
