"""The table: start a game, record and fix deals, read the score card and settlement."""

from collections.abc import Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy.orm import joinedload
from werkzeug.wrappers import Response

from . import services
from .charts import running_totals_chart
from .forms import DealForm, GameChangeForm, NewGameForm, PlayerForm
from .i18n import gettext
from .i18n import lazy_gettext as _l
from .i18n import number as points
from .models import FINISHED, IN_PROGRESS, Game, League, Role, db
from .permissions import (
    acting_user,
    can_read,
    may,
    require_read,
    require_role,
    role_in,
    scorekeeping_leagues,
)

bp = Blueprint("table", __name__)

CARDS_DROPPED = _l(
    "The scores were changed after counting, so the counted cards were not kept with the deal."
)


def _league_or_404(slug: str) -> League:
    """The league, if it exists and the user may read it (else 404: private stays hidden)."""
    league = services.league_by_slug(slug)
    if league is None:
        abort(404)
    require_read(league)
    return league


def _game_or_404(game_id: int, role: Role | None = None) -> Game:
    """The game, checked against the role needed in the league that owns it."""
    # Every game page shows the league and both players: one query, not three.
    together = [joinedload(Game.league), joinedload(Game.player0), joinedload(Game.player1)]
    game = db.get_or_404(Game, game_id, options=together)
    if role is None:
        require_read(game.league)
    else:
        require_role(game.league, role)
    return game


@bp.get("/")
def home() -> str:
    """What to do first; the games in progress one keeps score in; the default league's games."""
    league = services.ensure_default_league()
    readable = can_read(league)
    kept = scorekeeping_leagues()
    shown = kept or ([league] if readable else [])
    games = services.games_of_leagues([found.id for found in shown], status=IN_PROGRESS)
    return render_template(
        "table/home.html",
        league=league,
        readable=readable,
        kept=kept,
        shown=shown,
        # Each league's games under its name, when there are several leagues.
        in_progress=[
            (found, ongoing)
            for found in shown
            if (ongoing := [game for game in games if game.league_id == found.id])
        ],
        finished=(
            services.games_of_leagues([league.id], status=FINISHED, limit=10) if readable else []
        ),
    )


@bp.route("/leagues/<slug>/players", methods=["GET", "POST"])
def players(slug: str) -> str | Response:
    """The league's players, and a form to add one."""
    league = _league_or_404(slug)
    form = PlayerForm()
    if form.is_submitted():
        require_role(league, Role.ADMIN)
    if form.validate_on_submit():
        try:
            player = services.add_player(league.id, form.name.data or "")
        except services.ServiceError as error:
            form.name.errors = [error.message]
        else:
            flash(gettext("%(player)s joined %(league)s.", player=player.name, league=league.name))
            return redirect(url_for(".players", slug=slug))
    return render_template(
        "table/players.html", league=league, form=form, can_admin=may(league, Role.ADMIN)
    )


@bp.get("/games/new")
def new_game_default() -> str | Response:
    """Start a game: straight to the one league the user keeps score in, else choose one."""
    if acting_user() is None:
        abort(401)  # to the sign-in page, and back here
    services.ensure_default_league()  # a site administrator's first game, on a fresh install
    leagues = scorekeeping_leagues()
    if len(leagues) == 1:
        return redirect(url_for(".new_game", slug=leagues[0].slug))
    return render_template("table/choose_league.html", leagues=leagues)


@bp.route("/leagues/<slug>/games/new", methods=["GET", "POST"])
def new_game(slug: str) -> str | Response:
    """Pick two players, the rules and the stakes, and start."""
    league = _league_or_404(slug)
    require_role(league, Role.SCOREKEEPER)
    form = NewGameForm() if request.method == "POST" else NewGameForm.from_defaults(league.defaults)
    if filled := form.refilled(
        gettext("start the game"),
        player0=form.player0.data,
        player1=form.player1.data,
        small=form.small.data,
        big=form.big.data,
        first_dealer=form.first_dealer.data,
    ):
        form = filled
    elif form.validate_on_submit():
        try:
            game = services.start_game(
                league.id,
                (form.player0.data or "", form.player1.data or ""),
                form.rules,
                form.stakes,
                form.chosen_dealer,
            )
        except services.ServiceError as error:
            field = form.player1 if error.field == "players.1" else form.player0
            field.errors = [error.message]
        else:
            return redirect(url_for(".game", game_id=game.id))
    return render_template("table/new_game.html", league=league, form=form)


def _render_game(game: Game, form: DealForm | None = None, status: int = 200) -> tuple[str, int]:
    card = services.scorecard(game)
    can_score = may(game.league, Role.SCOREKEEPER)
    if form is None and can_score and not game.finished and not game.locked:
        form = DealForm(formdata=None)
    if form is not None:
        form.name_seats((game.player0.name, game.player1.name))
        form.version.data = str(game.version)
    page = render_template(
        "table/game.html",
        game=game,
        card=card,
        settlement=services.settlement(game, card),
        form=form,
        chart=running_totals_chart(card, (game.player0.name, game.player1.name)),
        can_score=can_score,
        can_admin=may(game.league, Role.ADMIN),
        history=services.history(game.id) if role_in(game.league) else None,
    )
    return page, status


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> tuple[str, int]:
    """The score card: totals, circles, stars, progress, next dealer, settlement."""
    return _render_game(_game_or_404(game_id))


@bp.post("/games/<int:game_id>/deals")
def record_deal(game_id: int) -> tuple[str, int] | Response:
    """Record the next deal, then show the card again (Post/Redirect/Get)."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    form = DealForm()
    form.name_seats((game.player0.name, game.player1.name))
    if not form.validate_on_submit():
        return _render_game(game, form, 200 if form.warnings else 422)
    assert form.tally is not None
    try:
        game, recorded = services.record_deal(
            game_id,
            form.tally,
            version=form.expected_version,
            token=form.token.data,
            cards=form.counted,
        )
    except services.Conflict as conflict:
        flash(conflict.message, "error")
        game = db.get_or_404(Game, game_id)
        # What was typed stays in the form, to be saved against the card as it is now.
        return _render_game(game, None if game.finished or game.locked else form, 409)
    if recorded:
        flash(gettext("Deal %(number)s saved.", number=game.deal_count))
        if form.cards_dropped:
            flash(str(CARDS_DROPPED))
    else:
        flash(gettext("That deal was already saved; it was not recorded twice."))
    return redirect(url_for(".game", game_id=game_id))


@bp.route("/games/<int:game_id>/deals/<int:number>", methods=["GET", "POST"])
def edit_deal(game_id: int, number: int) -> tuple[str, int] | str | Response:
    """Correct any deal, not only the last; everything after it is recomputed."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    if not 1 <= number <= game.deal_count:
        abort(404)
    form = DealForm()
    form.name_seats((game.player0.name, game.player1.name))
    status = 200
    if request.method == "GET":
        deal = game.deals[number - 1]
        form.fill(deal.tally, deal.counted)
        form.version.data = str(game.version)
    elif form.validate_on_submit():
        assert form.tally is not None
        try:
            services.edit_deal(
                game_id, number, form.tally, version=form.expected_version, cards=form.counted
            )
        except services.Conflict as conflict:
            flash(conflict.message, "error")
            return _render_game(db.get_or_404(Game, game_id), None, 409)
        flash(
            gettext("Deal %(number)s corrected; every total after it is recomputed.", number=number)
        )
        if form.cards_dropped:
            flash(str(CARDS_DROPPED))
        return redirect(url_for(".game", game_id=game_id))
    elif not form.warnings:
        status = 422
    return render_template("table/edit_deal.html", game=game, number=number, form=form), status


@bp.post("/games/<int:game_id>/deals/<int:number>/delete")
def delete_deal(game_id: int, number: int) -> tuple[str, int] | Response:
    """Remove a deal; later deals move up one number."""
    return _change(
        _game_or_404(game_id, Role.SCOREKEEPER),
        lambda version: services.delete_deal(game_id, number, version=version),
        _l("Deal %(number)s deleted; the later deals moved up.", number=number),
    )


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> tuple[str, int] | Response:
    """Take back the last deal with one tap, saying which it was (one tap can't be undone)."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    done = _l("The last deal was taken back.")
    if game.deals:
        scores = " / ".join(points(score) for score in game.deals[-1].tally.scores)
        done = _l(
            "Deal %(number)s (%(scores)s) was taken back.", number=len(game.deals), scores=scores
        )
    return _change(game, lambda version: services.undo_last_deal(game_id, version=version), done)


@bp.post("/games/<int:game_id>/paid")
def mark_paid(game_id: int) -> tuple[str, int] | Response:
    """The loser has paid: settle and lock the game."""
    return _change(
        _game_or_404(game_id, Role.SCOREKEEPER),
        lambda version: services.mark_paid(game_id, version=version),
        _l("Marked paid. The game is settled and locked."),
    )


@bp.post("/games/<int:game_id>/unlock")
def unlock(game_id: int) -> tuple[str, int] | Response:
    """A league admin unlocks a settled game so it can be corrected."""
    return _change(
        _game_or_404(game_id, Role.ADMIN),
        lambda version: services.unlock(game_id, version=version),
        _l("Unlocked. The payment is unpaid again until it is marked once more."),
    )


def _change(
    game: Game, change: Callable[[int | None], Game], done: object
) -> tuple[str, int] | Response:
    """Run a one-button change to ``game`` (loaded for a user allowed to make it) against
    the version the page showed, and say how it went."""
    game_id = game.id  # read now: the change's transaction expires the object
    form = GameChangeForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        change(form.expected_version)
    except services.NotFound:
        abort(404)
    except services.Conflict as conflict:
        flash(conflict.message, "error")
        return _render_game(db.get_or_404(Game, game_id), None, 409)
    flash(str(done))  # a lazy message, worded now: the session keeps plain text
    return redirect(url_for(".game", game_id=game_id))
