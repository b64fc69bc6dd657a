"""The one catalog of what the rules engine and the models say, in every language.

The engine words nothing: each problem it reports is a ``code`` and the ``params`` it
names (:class:`~.engine.TallyProblem`), a set's count is numbers, the audit trail keeps
an action and its values. Here each of them has its one sentence, written once as the
message id Flask-Babel translates: pages show it in their language, and the JSON API
(``english=True``) shows the message id itself, in English, with numbers and money as
the API writes them ("-2,000", "12.50"), for every client. A page in English says
exactly what the API says.
"""

from collections.abc import Iterable, Mapping
from typing import Final

from flask import Flask
from flask_babel.speaklater import LazyString

from scorekeeper.engine import (
    DifferenceRule,
    Preset,
    Rank,
    Rules,
    SetCount,
    SkunkRule,
    Stakes,
    TallyProblem,
    format_money,
)
from scorekeeper.engine.counted_cards import IMPOSSIBLE_ERROR, SHAPE_ERROR, card_value
from scorekeeper.engine.counting import Limit, Place
from scorekeeper.models import FINISHED, IN_PROGRESS, Game, Role
from scorekeeper.web.event_words import event_summary
from scorekeeper.web.formatting import money, number
from scorekeeper.web.languages import english_words, in_english
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


def rules_summary(rules: Rules, stakes: Stakes) -> str:
    """Rules and stakes in one line, what the new-game page shows before its options:
    "Standard: to 1,200, skunk ×2, ×3 below zero · $1.00–$3.00"."""
    preset = rules.matching_preset()
    parts = [gettext("to %(target)s", target=number(rules.target))]
    if rules.skunk is SkunkRule.MULTIPLY:
        parts.append(gettext("skunk ×2, ×3 below zero"))
    else:
        parts.append(gettext("skunk: one more big stake"))
    if rules.difference is DifferenceRule.CEIL:
        parts.append(gettext("every started 100"))
    if rules.progressive:
        parts.append(gettext("progressive"))
    if rules.natural_needed:
        parts.append(gettext("a natural needed"))
    label = preset_label(preset.value if preset else None)
    return gettext(
        "%(rules)s: %(options)s · %(small)s–%(big)s",
        rules=label,
        options=", ".join(parts),
        small=money(stakes.small),
        big=money(stakes.big),
    )


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


def hand_label(hand_class: str) -> str:
    """A class of card in hand (``counted_cards.HAND_CLASSES``) in words: "Q♠", "aces"."""
    return str(HAND_CLASS_LABELS[hand_class])


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
    # Cards sent as JSON (engine/counted_cards.py): the API's, and the deal form's hidden field
    SHAPE_ERROR: _l("Some cards are missing or not given as whole numbers."),
    IMPOSSIBLE_ERROR: _l("These cards can't come from one deal of two decks."),
    "json.unknown_count_field": _l('"%(key)s" is not a field of a count.'),
    "json.out": _l("out must be 0 or 1: the seat of the player who went out."),
    "json.players": _l("players must be a list of both players' cards."),
    "json.count": _l("%(key)s must be a whole number from 0 to %(most)s."),
    "json.unknown_field": _l('"%(key)s" is not a field here.'),
    "json.player": _l('%(name)s\'s cards must be an object with "sets" and "hand".'),
    "json.player_field": _l('%(name)s\'s cards: "%(key)s" is not a field here.'),
    "json.sets": _l("%(name)s's sets must be a list."),
    "json.too_many_sets": _l("%(name)s can have at most %(most)s sets, one of each rank."),
    "json.counts": _l("%(subject)s must be an object of counts."),
    "json.set": _l('%(subject)s must be an object with "rank" and "naturals".'),
    "json.rank": _l("rank must be one of %(ranks)s."),
    # The other games (engine/games/problems.py): reading any body
    "field.unknown": _l("There is no such field in this game."),
    "field.missing": _l("This is needed."),
    "field.not_whole": _l("This must be a whole number."),
    "field.not_bool": _l("This must be true or false."),
    "field.not_object": _l("This must be an object."),
    "field.choice": _l("This must be one of %(choices)s."),
    "list.length": _l("This must be a list of %(length)s values, one for each seat or side."),
    "seat.range": _l("This must be a seat: a whole number from 0 to %(high)s."),
    "side.range": _l("This must be a side: a whole number from 0 to %(high)s."),
    # Starting one
    "players.range": _l("This game takes %(low)s to %(high)s players."),
    "stake.range": _l("A stake must be from %(low)s to %(high)s."),
    "target.range": _l("The target must be a whole number from %(low)s to %(high)s."),
    "target.step": _l("The target must be a multiple of %(step)s."),
    "partnerships.players": _l("Partnerships need 4, 6 or 8 players."),
    "maximum.below_antes": _l(
        "The maximum can't be below what a new pool holds: every player's ante, %(least)s."
    ),
    # A deal
    "count.range": _l("A count is a whole number from %(low)s to %(high)s."),
    "count.one": _l("No card is worth 1 here, so a count can't be 1."),
    "count.out_not_zero": _l("The player who went out holds nothing: their count is 0."),
    "jokers.range": _l("The winner's Jokers are from %(low)s to %(high)s."),
    "cards.range": _l("A side takes from %(low)s to %(high)s cards."),
    "cards.step": _l("Cards come in whole tricks of %(step)s cards, one from each player."),
    "cards.total": _l("The sides' cards must add up to the pack: %(total)s cards."),
    "honour.no_trick": _l("A side that took an honour took at least one trick."),
    "jink.no_winner": _l("Only a player who won three tricks can jink: choose who did."),
    "warning.high_count": _l(
        "%(count)s is an unusually high count (most hands hold %(usual)s or less)."
    ),
    "warning.all_jokers": _l("The winner melded all %(jokers)s Jokers: is that right?"),
}

#: ``players.range`` for a game of one number of players (Gambler's Rummy's 4, Mille's 2).
EXACT_PLAYERS: Final = _l("This game takes %(high)s players.")

#: The problems whose values are amounts of money (cents), worded as money.
MONEY_PARAMS: Final = {"stake.range": ("low", "high"), "maximum.below_antes": ("least",)}


def place_label(place: Place) -> str:
    """Where cards are, in words: "Ana's set 2 (kings)", "Ana's set 2", "Ben's hand"."""
    if place.number is None:
        return gettext("%(name)s's hand", name=place.name)
    if place.rank is None:
        return gettext("%(name)s's set %(number)s", name=place.name, number=place.number)
    return gettext(
        "%(name)s's set %(number)s (%(rank)s)",
        name=place.name,
        number=place.number,
        rank=rank_plural(place.rank),
    )


def _worded(value: object, english: bool) -> object:
    """A problem's value in words: numbers as the API writes them in English ("-2,000"),
    as the page's language does otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return f"{value:,}" if english else number(value)
    if isinstance(value, Rank):
        return rank_plural(value)
    if isinstance(value, Place):
        return place_label(value)
    if isinstance(value, Limit):
        return str(LIMIT_NOUNS[value.key])
    if isinstance(value, str):
        return card_name(value)
    return value


def problem_message(problem: TallyProblem, english: bool | None = None) -> str:
    """The problem as a sentence: in English as the API says it (``english``), else in the
    page's language (a page in English says what the API says)."""
    english = in_english() if english is None else english
    if not english:
        return _problem_text(problem, english=False)
    with english_words():
        return _problem_text(problem, english=True)


def _problem_text(problem: TallyProblem, english: bool) -> str:
    params = {key: _worded(value, english) for key, value in problem.params.items()}
    for key in MONEY_PARAMS.get(problem.code, ()):
        cents = problem.params[key]
        assert isinstance(cents, int)
        params[key] = format_money(cents) if english else money(cents)
    if isinstance(choices := problem.params.get("choices"), tuple | list):
        params["choices"] = ", ".join(str(choice) for choice in choices)
    if "limit" in params:
        params["noun"] = params["limit"]
    if "places" in problem.params:
        places = problem.params["places"]
        assert isinstance(places, tuple)
        params["where"] = _and([place_label(place) for place in places])
    sentence = PROBLEMS[problem.code]
    if problem.code == "players.range" and params["low"] == params["high"]:
        sentence = EXACT_PLAYERS
    text = str(sentence) % params
    if "place" in params:
        return gettext("%(place)s: %(problem)s", place=params["place"], problem=text)
    return text


def english(text: str | LazyString) -> str:
    """A catalog's message as the API says it: its own English words."""
    with english_words():
        return str(text)


def cards_error(code: str, english: bool | None = None) -> str:
    """Why cards can't be counted (``BadCards.code``), as :func:`problem_message` words."""
    return problem_message(TallyProblem("cards", code), english)


def problem_fields(problems: Iterable[TallyProblem]) -> dict[str, list[str]]:
    """The API's ``fields``: each place's problems in English, in order, said once each."""
    grouped: dict[str, list[str]] = {}
    for problem in problems:
        found = grouped.setdefault(problem.field, [])
        message = problem_message(problem, english=True)
        if message not in found:
            found.append(message)
    return grouped


def set_description(line: SetCount, english: bool = False) -> str:
    """How a set counted: "8 tens, natural set: 8 × 10 × 2 = 160", in the page's language
    or (``english``) as the API says it; the arithmetic is numbers and signs only."""
    if english:
        with english_words():
            return set_description(line)
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
    if line.natural_going_out:
        label += gettext(", natural going out")
    terms = " + ".join(f"{count} × {each}" for count, each in line.terms)
    if factor > 1:
        terms = f"({terms}) × {factor}" if len(line.terms) > 1 else f"{terms} × {factor}"
    points = line.points
    return gettext("%(set)s: %(sum)s = %(points)s", set=label, sum=terms, points=points)


def init_app(app: Flask) -> None:
    app.add_template_filter(problem_message, "problem")
    app.add_template_filter(rules_label)
    app.add_template_global(rules_summary)
    app.add_template_filter(role_label)
    app.add_template_filter(rank_plural)
    app.add_template_filter(hand_label)
    app.add_template_global(set_description)
    app.add_template_global(event_summary)
