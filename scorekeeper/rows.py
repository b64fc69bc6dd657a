"""Pieces that pages repeat many times, drawn in Python instead of a Jinja macro.

A game's summary row appears up to 25 times on an archive page, on the standings,
a player's page, head-to-head, a balance and the table's home page. As a macro each
row cost a macro call, a ``url_for``, five filters and three translations through
Jinja's runtime: about a quarter of an archive page's time (issue 7). Here it is
written with the helpers the templates use (the same escaping, translations, number
and date formats). The stars after a total (:func:`star_marks`) are the same: twice
per deal on every score card.
"""

from typing import Any

from flask import url_for
from markupsafe import Markup, escape

from scorekeeper.i18n import day, elided, money, number, translations
from scorekeeper.messages import rules_label
from scorekeeper.models import Game

# Named as in the templates, so that ``pybabel extract`` finds the messages here too.


def _(string: str, **variables: Any) -> Markup:
    """``{{ _(string, **variables) }}`` in an autoescaped template."""
    return Markup(elided(Markup(translations().ugettext(string)), variables)) % variables


def ngettext(singular: str, plural: str, num: int) -> Markup:
    """``{{ ngettext(singular, plural, num) }}`` in an autoescaped template."""
    return Markup(translations().ungettext(singular, plural, num)) % {"num": num}


def star_marks(count: int) -> Markup:
    """Stars as on the card, and in words for a screen reader (nothing for none)."""
    if not count:
        return Markup("")
    words = ngettext("%(num)s star", "%(num)s stars", count)
    return Markup(
        f'<span class="stars" aria-hidden="true">{escape("★" * count)}</span>'
        f'<span class="sr">, {words}</span>'
    )


def game_summary_row(game: Game) -> Markup:
    """One game in a list of games: who played, the score, who won and for how much (or
    how far it has got), and the rules; the whole row links to the game."""
    if game.finished:
        winner = game.player(game.winner_seat).name  # type: ignore[arg-type]
        won = _("%(name)s won", name=winner)
        paid = _("paid") if game.paid_at else _("not paid")
        status = f"{escape(day(game.finished_at or game.created_at))} · {won} · "
        status += f"{escape(money(game.amount_due))}, {paid}"
    else:
        progress = _("in progress")
        deals = ngettext("%(num)s deal", "%(num)s deals", game.deal_count)
        status = f"{escape(day(game.created_at))} · {progress} · {deals}"
    versus = _("vs")
    return Markup(
        "\n"
        '  <li class="game-row">\n'
        f'    <a href="{escape(url_for("table.game", game_id=game.id))}">\n'
        f'      <span class="vs">{escape(game.player0.name)} <span class="muted">'
        f"{versus}</span> {escape(game.player1.name)}</span>\n"
        f'      <span class="score">{escape(number(game.total0))} – '
        f"{escape(number(game.total1))}</span>\n"
        '      <span class="meta">\n'
        "        \n"
        f"          {status}\n"
        "        \n"
        f"        · {escape(rules_label(game))}\n"
        "      </span>\n"
        "    </a>\n"
        "  </li>\n"
    )
