"""Starting a game: the new-game page (two players, the rules and the stakes, each
player's chance to win); the game's own pages are :mod:`.views`."""

from flask import (
    Blueprint,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import (
    acting_user,
    league_or_404,
    require_role,
    scorekeeping_leagues,
)
from scorekeeper.errors import ServiceError
from scorekeeper.models import Role
from scorekeeper.names import squeeze
from scorekeeper.records import chances
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.table import starting
from scorekeeper.table.forms import NewGameForm
from scorekeeper.web.translation import gettext

bp = Blueprint("start", __name__)


@bp.get("/games/new")
def new_game_default() -> str | Response:
    """Start a game: straight to the one league the user keeps score in, else choose one."""
    if acting_user() is None:
        abort(401)  # to the sign-in page, and back here
    ensure_default_league()  # a site administrator's first game, on a fresh install
    leagues = scorekeeping_leagues()
    if len(leagues) == 1:
        return redirect(url_for(".new_game", slug=leagues[0].slug))
    return render_template("table/choose_league.html", leagues=leagues)


@bp.route("/leagues/<slug>/games/new", methods=["GET", "POST"])
def new_game(slug: str) -> str | Response:
    """Pick two players, the rules and the stakes, and start."""
    league = league_or_404(slug)
    require_role(league, Role.SCOREKEEPER)
    form = NewGameForm() if request.method == "POST" else NewGameForm.from_defaults(league.defaults)
    if request.method == "POST":
        form.take_picked_players()
    # "See the chances" shows each player's chance to win, starting nothing.
    checking = request.method == "POST" and bool(request.form.get("check"))
    if checking:
        pass
    elif filled := form.refilled(
        gettext("start the game"),
        player0=form.player0.data,
        player1=form.player1.data,
        small=form.small.data,
        big=form.big.data,
        first_dealer=form.first_dealer.data,
    ):
        form = filled
    elif form.validate_on_submit() and not form.ask_about_new_names(
        lambda name: player_service.lookalike_players(league.id, name)
    ):
        try:
            game = starting.start_game(
                league.id,
                (form.player0.data or "", form.player1.data or ""),
                form.rules,
                form.stakes,
                form.chosen_dealer,
            )
        except ServiceError as error:
            field = form.player1 if error.field == "players.1" else form.player0
            field.errors = [error.message]
        else:
            return redirect(url_for("table.game", game_id=game.id))
    odds = None
    if request.method == "POST":
        odds = chances.chances_of_names(league.id, form.player0.data or "", form.player1.data or "")
    return render_template("table/new_game.html", league=league, form=form, odds=odds)


@bp.get("/leagues/<slug>/games/new/chances")
def new_game_chances(slug: str) -> str:
    """The new-game form's line of chances for the two names typed (``player0``,
    ``player1``), for its script to put in place as they change; empty without two."""
    league = league_or_404(slug)
    require_role(league, Role.SCOREKEEPER)
    odds = chances.chances_of_names(
        league.id,
        squeeze(request.args.get("player0", "")),
        squeeze(request.args.get("player1", "")),
    )
    return render_template("table/_chances_box.html", odds=odds)
