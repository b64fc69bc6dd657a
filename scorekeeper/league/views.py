"""The league: standings, players, head-to-head, every past game, who owes whom, seasons,
export and import (Tonight's page is :mod:`.tonight_views`)."""

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import (
    acting_user,
    can_read,
    league_or_404,
    may,
    require_role,
    role_in,
    scorekeeping_leagues,
)
from scorekeeper.engine import Preset
from scorekeeper.engine.games import kind_named
from scorekeeper.errors import ServiceError
from scorekeeper.league import kind_standings, queries
from scorekeeper.league import seasons as season_service
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league.arguments import id_arg, player_of
from scorekeeper.league.charts import trend_chart
from scorekeeper.league.forms import PlayerForm
from scorekeeper.league.own_player_views import account_form
from scorekeeper.models import FINISHED, IN_PROGRESS, MILLE, League, Player, Role, Season
from scorekeeper.records import players as player_service
from scorekeeper.records import skill
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.records.payment_handles import (
    handle_changes,
    handle_of,
    read_handle,
    set_handle,
)
from scorekeeper.table import audit
from scorekeeper.table.forms import PaymentHandleForm
from scorekeeper.web import messages
from scorekeeper.web.formatting import currency_of, money, use_currency
from scorekeeper.web.translation import gettext

bp = Blueprint("leagues", __name__)


@bp.app_template_global()
def rating_limits() -> dict[str, int]:
    """When a rating stops being provisional (after ``games`` games) and is again (after
    ``days_away`` days away), and how many uncertainties the conservative rating takes off
    (``sigmas``): the words that explain them say them."""
    return {
        "games": skill.PROVISIONAL_GAMES,
        "days_away": skill.AWAY_DAYS,
        "sigmas": skill.CONSERVATIVE_SIGMAS,
    }


def _season(league: League) -> Season | None:
    """The season the page is asked for (``?season=``), or None for all time."""
    season_id = id_arg("season")
    if season_id is None:
        return None
    season = season_service.season_in(league.id, season_id)
    if season is None:
        abort(404)
    return season


@bp.get("/")
def front() -> str:
    """What to do first; the games in progress one keeps score in; the default league's games."""
    league = ensure_default_league()
    readable = can_read(league)
    # Its amounts are the default league's games' (the games in progress show none).
    use_currency(currency_of(league))
    kept = scorekeeping_leagues()
    shown = kept or ([league] if readable else [])
    games = league_service.games_of_leagues([found.id for found in shown], status=IN_PROGRESS)
    return render_template(
        "league/front.html",
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
            league_service.games_of_leagues([league.id], status=FINISHED, limit=10)
            if readable
            else []
        ),
    )


@bp.route("/leagues/<slug>/players", methods=["GET", "POST"])
def players(slug: str) -> str | Response:
    """The league's players, and a form to add one."""
    league = league_or_404(slug)
    form = PlayerForm()
    if form.is_submitted():
        require_role(league, Role.ADMIN)
    if form.validate_on_submit():
        try:
            player = player_service.add_player(league.id, form.name.data or "")
        except ServiceError as error:
            form.name.errors = [error.message]
        else:
            flash(gettext("%(player)s joined %(league)s.", player=player.name, league=league.name))
            return redirect(url_for(".players", slug=slug))
    return render_template(
        "league/players.html",
        league=league,
        form=form,
        can_admin=may(league, Role.ADMIN),
        name_changes=player_service.name_changes(league.id) if role_in(league) else None,
    )


@bp.get("/leagues")
def index() -> str:
    """The leagues this visitor may read."""
    return render_template("league/index.html", leagues=queries.readable_leagues(acting_user()))


@bp.get("/leagues/<slug>")
def home(slug: str) -> str:
    """Standings, sortable by any column, for all time or a season; the newest games. With
    ``?game=``, the standings of another game the league has played."""
    league = league_or_404(slug)
    played = kind_standings.games_played(league.id)
    game = request.args.get("game", MILLE)
    if game != MILLE and game in played:
        return render_template(
            "league/kind_home.html",
            league=league,
            game=game,
            played=played,
            standings=kind_standings.kind_standings(league.id, game),
            by_games=kind_named(game).ends_itself,
        )
    season = _season(league)
    sort = request.args.get("sort", standing_queries.DEFAULT_SORT)
    if sort not in standing_queries.SORTS:
        sort = standing_queries.DEFAULT_SORT
    descending = request.args.get("order", "desc" if sort != "player" else "asc") != "asc"
    return render_template(
        "league/home.html",
        league=league,
        season=season,
        seasons=season_service.seasons_of(league.id),
        standings=standing_queries.standings(league.id, season, sort, descending),
        sort=sort,
        descending=descending,
        newest=queries.archive(league.id, limit=10).games,
        played=played,
    )


@bp.get("/leagues/<slug>/players/<int:player_id>")
def player(slug: str, player_id: int) -> str:
    """A player's record, net money and rating over time, opponents, best and worst games."""
    league = league_or_404(slug)
    return _render_player(league, player_of(league, player_id))


@bp.post("/leagues/<slug>/players/<int:player_id>/payment")
def player_payment(slug: str, player_id: int) -> Response | tuple[str, int]:
    """A league admin says how a player is paid (an Interac e-Transfer or PayPal.me)."""
    league = league_or_404(slug, Role.ADMIN)
    found = player_of(league, player_id)
    form = PaymentHandleForm()
    if form.validate_on_submit():
        try:
            handle = read_handle(form.kind.data or "", form.handle.data or "")
        except ServiceError as error:
            (form.kind if error.field == "kind" else form.handle).errors = [error.message]
        else:
            set_handle(found.id, handle, by=audit.actor_id())
            flash(gettext("Saved how %(name)s is paid.", name=found.name))
            return redirect(url_for(".player", slug=slug, player_id=player_id, _anchor="how-paid"))
    return _render_player(league, found, form), 422


def _render_player(league: League, found: Player, form: PaymentHandleForm | None = None) -> str:
    # Where the player is paid: for the league's members only, set by its admins, who also
    # see every change of it (the league's, and each game's through a seat's link).
    member = role_in(league) is not None
    admin = may(league, Role.ADMIN)
    if form is None and admin:
        form = PaymentHandleForm(formdata=None)
        if (handle := handle_of(found)) is not None:
            form.kind.data, form.handle.data = handle.kind.value, handle.handle
    names = player_service.name_history(found) if member else None
    summary = standing_queries.player_summary(found)
    trend = summary.trend
    return render_template(
        "league/player.html",
        league=league,
        player=found,
        summary=summary,
        money_chart=trend_chart([(p.number, p.net) for p in trend], 0, money, gettext("Net money")),
        rating_chart=trend_chart(
            [(p.number, p.rating) for p in trend],
            trend[0].rating if trend else 0,
            str,
            gettext("Rating"),
        ),
        recent=queries.archive(league.id, queries.GameFilters(player=found.id), limit=10).games,
        other_games=kind_standings.player_records(found),
        handle=handle_of(found) if member else None,
        handle_form=form,
        handle_changes=handle_changes(found, names.former if names else None) if admin else None,
        account_form=account_form(league.id, found) if admin else None,
        name_changes=names.changes if names else None,
    )


@bp.get("/leagues/<slug>/head-to-head")
def head_to_head(slug: str) -> str:
    """Any two players: games, wins each, net money between them, their games."""
    league = league_or_404(slug)
    first_id, second_id = id_arg("a"), id_arg("b")
    first = queries.player_in(league.id, first_id)
    second = queries.player_in(league.id, second_id)
    record = page = None
    if first is not None and second is not None and first.id != second.id:
        record = standing_queries.head_to_head(first.id, second.id)
        page = queries.archive(
            league.id,
            queries.GameFilters(player=first.id, opponent=second.id),
            after=id_arg("after"),
            before=id_arg("before"),
        )
    return render_template(
        "league/head_to_head.html",
        league=league,
        players=queries.players_of(league.id),
        first=first,
        second=second,
        record=record,
        page=page,
        together=kind_standings.together(first.id, second.id)
        if record and first and second
        else [],
    )


@bp.get("/leagues/<slug>/games")
def games(slug: str) -> str:
    """Every game, newest first, by player, opponent, season, status and rules; keyset pages."""
    league = league_or_404(slug)
    player_id = id_arg("player")
    opponent_id = id_arg("opponent") if player_id else None
    status = request.args.get("status") or None
    preset = request.args.get("preset") or None
    filters = queries.GameFilters(
        player=player_of(league, player_id).id if player_id else None,
        opponent=player_of(league, opponent_id).id if opponent_id else None,
        season=_season(league),
        status=status if status in queries.ARCHIVE_STATUSES else None,
        preset=preset if preset in {*Preset, "custom"} else None,
        abandoned=True,  # the history keeps them, marked
    )
    page = queries.archive(
        league.id,
        filters,
        after=id_arg("after"),
        before=id_arg("before"),
    )
    return render_template(
        "league/games.html",
        league=league,
        filters=filters,
        page=page,
        players=queries.players_of(league.id),
        seasons=season_service.seasons_of(league.id),
        statuses={status: messages.status_label(status) for status in queries.ARCHIVE_STATUSES},
        presets=[(preset.value, messages.preset_label(preset)) for preset in Preset]
        + [("custom", messages.preset_label(None))],
        query=_filter_args(filters),
    )


def _filter_args(filters: queries.GameFilters) -> dict[str, Any]:
    """The filters as query arguments, for the links to the pages on either side."""
    args = {
        "player": filters.player,
        "opponent": filters.opponent,
        "season": filters.season.id if filters.season else None,
        "status": filters.status,
        "preset": filters.preset,
    }
    return {key: value for key, value in args.items() if value is not None}
