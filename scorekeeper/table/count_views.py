"""The counting help (issue 8): count a deal from the cards, then save the tally it gives.

The count page shows how every set counted and a deal form filled in with the
tally, carrying the cards in a hidden field; saving goes to the table's usual
record and correct endpoints, which count the cards again before keeping them.
"""

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from scorekeeper.engine.counted_cards import HAND_CLASSES
from scorekeeper.models import Game, Role
from scorekeeper.table import access
from scorekeeper.table.change_forms import DealForm
from scorekeeper.table.count_forms import SHOWN_SET_ROWS, CountForm
from scorekeeper.web.translation import gettext

bp = Blueprint("counting", __name__)


def _scorekept_game(game_id: int) -> Game:
    """The game, if the user keeps score in its league (counting leads to saving a deal)."""
    return access.game(game_id, Role.SCOREKEEPER)


@bp.route("/games/<int:game_id>/count", methods=["GET", "POST"])
def count_next_deal(game_id: int) -> tuple[str, int] | Response:
    """Count the next deal from the cards on the table and in hand."""
    game = _scorekept_game(game_id)
    if game.abandoned:
        flash(gettext("This game was abandoned: it takes no change."), "error")
        return redirect(url_for("table.game", game_id=game_id))
    if game.finished or game.locked:
        flash(gettext("The game is over: it takes no more deals."), "error")
        return redirect(url_for("table.game", game_id=game_id))
    return _count_page(game, None)


@bp.route("/games/<int:game_id>/deals/<int:number>/count", methods=["GET", "POST"])
def count_deal_again(game_id: int, number: int) -> tuple[str, int]:
    """Count a recorded deal again from its cards, to correct it."""
    game = _scorekept_game(game_id)
    if not 1 <= number <= game.deal_count:
        abort(404)
    return _count_page(game, number)


def _count_page(game: Game, number: int | None) -> tuple[str, int]:
    """The count form; once the cards count, their breakdown and a deal form to save."""
    names = (game.player0.name, game.player1.name)
    form = CountForm()
    form.name_seats(names)
    deal_form, status = None, 200
    if not form.is_submitted():
        form.version.data = str(game.version)
        if number is not None:
            deal = game.deals[number - 1]
            form.fill(deal.tally.out, deal.counted)
    elif form.validate():
        deal_form = _counted_deal_form(form, names, game.version)
    else:
        status = 422
    page = render_template(
        "table/count.html",
        game=game,
        number=number,
        form=form,
        deal_form=deal_form,
        shown_rows=SHOWN_SET_ROWS,
        hand_classes=HAND_CLASSES,
    )
    return page, status


def _counted_deal_form(form: CountForm, names: tuple[str, str], version: int) -> DealForm:
    """A deal form filled in with the counted tally, the cards in its hidden field."""
    assert form.count is not None
    deal_form = DealForm(formdata=None)
    deal_form.name_seats(names)
    deal_form.fill(form.count.tally, form.counted)
    # The version the count started from: a deal saved elsewhere meanwhile is a conflict.
    deal_form.version.data = form.version.data or str(version)
    return deal_form
