"""Starting a game: the new-game page (the game, its players, who deals first, its rules
and stakes, each player's chance to win); the game's own pages are :mod:`.views`."""

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
from scorekeeper.engine.games import KINDS, Refused
from scorekeeper.errors import ServiceError
from scorekeeper.models import Game, League, Role
from scorekeeper.names import MAX_NAME_LENGTH, squeeze
from scorekeeper.records import chances
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.table import starting
from scorekeeper.table.new_game_forms import SEATS, NewGameForm
from scorekeeper.web.messages import problem_message
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
    return render_template("table/choose_league.html", leagues=leagues, target="start.new_game")


@bp.route("/leagues/<slug>/games/new", methods=["GET", "POST"])
def new_game(slug: str) -> str | Response:
    """Pick the game, its players, who deals first, its rules and stakes, and start."""
    league = league_or_404(slug)
    require_role(league, Role.SCOREKEEPER)
    if request.method != "POST":
        return _page(league, NewGameForm.for_league(league))
    form = NewGameForm()
    form.take_picked_players()
    # "See the chances" shows each player's chance to win, starting nothing; so does a
    # button that asks for another game's fields or one more player row.
    if request.form.get("check") or form.only_shown():
        return _page(league, form)
    if form.own_rules:
        form, game = _start_with_own_rules(league, form)
    else:
        game = _start_of_kind(league, form)
    if game is not None:
        return redirect(url_for("table.game", game_id=game.id))
    return _page(league, form)


def _page(league: League, form: NewGameForm) -> str:
    """The page, with the chances of the two players typed once it was sent (for the one
    game the ratings are kept for)."""
    odds = None
    if request.method == "POST" and form.kind.name == chances.RATED_GAME:
        odds = chances.chances_of_names(league.id, form.player0.data or "", form.player1.data or "")
    return render_template(
        "table/new_game.html",
        league=league,
        form=form,
        odds=odds,
        kinds=list(KINDS.values()),
        seats=SEATS,
        rated_game=chances.RATED_GAME,
    )


def _asks(league: League, form: NewGameForm) -> bool:
    """Whether a name would make a new player close to a player's: the form asks then."""
    return form.ask_about_new_names(lambda name: player_service.lookalike_players(league.id, name))


def _start_with_own_rules(league: League, form: NewGameForm) -> tuple[NewGameForm, Game | None]:
    """The default game, from the form's own rules and stakes, as it always was started:
    the form to show again (the rules of a preset filled in, perhaps) or the game."""
    if filled := form.refilled(
        gettext("start the game"),
        player0=form.player0.data,
        player1=form.player1.data,
        small=form.small.data,
        big=form.big.data,
        first_dealer=form.first_dealer.data,
    ):
        filled.setups = form.setups  # the other games' fields as they were sent
        return filled, None
    if not form.validate_on_submit() or _asks(league, form):
        return form, None
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
        return form, None
    return form, game


def _start_of_kind(league: League, form: NewGameForm) -> Game | None:
    """Any other game, from the stakes and options its engine module declares; None when
    something is refused, each problem beside its field."""
    if not form.validate_on_submit() or _asks(league, form):
        return None
    setup = form.setup
    try:
        return starting.start_game_of(
            form.kind,
            league.id,
            [name for _, name in form.typed()],
            setup.rule_values(),
            setup.stake_cents(),
            form.dealer_seat,
        )
    except Refused as refused:  # read from the same fields just now: kept for safety
        left = setup.place(refused.problems)
        form.players_errors = [problem_message(problem) for problem in left]
    except ServiceError as error:
        _, _, seat = (error.field or "").partition(".")
        if error.field == "first_dealer":
            form.first_dealer.errors = [error.message]
        else:
            form.seat_field(int(seat) if seat.isdigit() else 0).errors = [error.message]
    return None


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


@bp.get("/leagues/<slug>/games/new/lookalikes")
def new_game_lookalikes(slug: str) -> str:
    """ "Did you mean Ben?" for the name typed in a row (``row``, ``name``), for the form's
    script to show as it is typed; empty when the name is a player or close to none."""
    league = league_or_404(slug)
    require_role(league, Role.SCOREKEEPER)
    row, name = request.args.get("row", ""), squeeze(request.args.get("name", ""))
    if not (row.isdigit() and int(row) < SEATS) or not 0 < len(name) <= MAX_NAME_LENGTH:
        return ""
    close = player_service.lookalike_players(league.id, name)
    return render_template("table/_did_you_mean.html", row=int(row), typed=name, close=close)
