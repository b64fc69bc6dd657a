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
from scorekeeper.errors import ServiceError
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import queries
from scorekeeper.league import seasons as season_service
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league.charts import trend_chart
from scorekeeper.league.forms import PlayerForm, SettleForm
from scorekeeper.models import FINISHED, IN_PROGRESS, League, Player, Role, Season
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
from scorekeeper.web.translation import gettext, ngettext

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


def _id_arg(name: str) -> int | None:
    """A row id from the query string; None when absent or not a possible id."""
    value = request.args.get(name, type=int)
    return value if value is not None and 0 < value <= queries.MAX_ID else None


def _player(league: League, player_id: int | None) -> Player:
    player = queries.player_in(league.id, player_id)
    if player is None:
        abort(404)
    return player


def _pair(league: League, first_id: int, second_id: int) -> tuple[Player, Player]:
    """Two different players of the league (a player owes themself nothing: there is no page)."""
    if first_id == second_id:
        abort(404)
    return _player(league, first_id), _player(league, second_id)


def _season(league: League) -> Season | None:
    """The season the page is asked for (``?season=``), or None for all time."""
    season_id = _id_arg("season")
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
    """Standings, sortable by any column, for all time or a season; the newest games."""
    league = league_or_404(slug)
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
    )


@bp.get("/leagues/<slug>/players/<int:player_id>")
def player(slug: str, player_id: int) -> str:
    """A player's record, net money and rating over time, opponents, best and worst games."""
    league = league_or_404(slug)
    return _render_player(league, _player(league, player_id))


@bp.post("/leagues/<slug>/players/<int:player_id>/payment")
def player_payment(slug: str, player_id: int) -> Response | tuple[str, int]:
    """A league admin says how a player is paid (an Interac e-Transfer or PayPal.me)."""
    league = league_or_404(slug, Role.ADMIN)
    found = _player(league, player_id)
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
        handle=handle_of(found) if member else None,
        handle_form=form,
        handle_changes=handle_changes(found, names.former if names else None) if admin else None,
        name_changes=names.changes if names else None,
    )


@bp.get("/leagues/<slug>/head-to-head")
def head_to_head(slug: str) -> str:
    """Any two players: games, wins each, net money between them, their games."""
    league = league_or_404(slug)
    first_id, second_id = _id_arg("a"), _id_arg("b")
    first = queries.player_in(league.id, first_id)
    second = queries.player_in(league.id, second_id)
    record = page = None
    if first is not None and second is not None and first.id != second.id:
        record = standing_queries.head_to_head(first.id, second.id)
        page = queries.archive(
            league.id,
            queries.GameFilters(player=first.id, opponent=second.id),
            after=_id_arg("after"),
            before=_id_arg("before"),
        )
    return render_template(
        "league/head_to_head.html",
        league=league,
        players=queries.players_of(league.id),
        first=first,
        second=second,
        record=record,
        page=page,
    )


@bp.get("/leagues/<slug>/games")
def games(slug: str) -> str:
    """Every game, newest first, by player, opponent, season, status and rules; keyset pages."""
    league = league_or_404(slug)
    player_id = _id_arg("player")
    opponent_id = _id_arg("opponent") if player_id else None
    status = request.args.get("status") or None
    preset = request.args.get("preset") or None
    filters = queries.GameFilters(
        player=_player(league, player_id).id if player_id else None,
        opponent=_player(league, opponent_id).id if opponent_id else None,
        season=_season(league),
        status=status if status in queries.ARCHIVE_STATUSES else None,
        preset=preset if preset in {*Preset, "custom"} else None,
        abandoned=True,  # the history keeps them, marked
    )
    page = queries.archive(
        league.id,
        filters,
        after=_id_arg("after"),
        before=_id_arg("before"),
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


@bp.get("/leagues/<slug>/owes")
def owes(slug: str) -> str:
    """Who owes whom: unpaid settlements netted per pair, and the latest payments."""
    league = league_or_404(slug)
    return render_template(
        "league/owes.html",
        league=league,
        balances=balance_queries.balances(league.id),
        payments=balance_queries.payments(league.id, limit=10),
        can_score=may(league, Role.SCOREKEEPER),
    )


@bp.get("/leagues/<slug>/owes/<int:first_id>/<int:second_id>")
def balance(slug: str, first_id: int, second_id: int) -> str:
    """What two players owe each other, the unpaid games behind it, and marking them paid."""
    league = league_or_404(slug)
    return _render_balance(league, *_pair(league, first_id, second_id))


def _render_balance(league: League, first: Player, second: Player) -> str:
    owed = balance_queries.balance_between(first, second)
    page = queries.archive(
        league.id,
        queries.GameFilters(player=first.id, opponent=second.id, status="unpaid"),
        after=_id_arg("after"),
        before=_id_arg("before"),
    )
    form = None
    if owed is not None and page.games and page.newer is None:  # the first page: all of them
        net = owed.amount if owed.creditor.id == first.id else -owed.amount
        data = {"through": page.games[0].id, "count": owed.games, "net": net}
        form = SettleForm(formdata=None, data=data)
    return render_template(
        "league/balance.html",
        league=league,
        first=first,
        second=second,
        owed=owed,
        page=page,
        form=form,
        can_score=may(league, Role.SCOREKEEPER),
    )


@bp.post("/leagues/<slug>/owes/<int:first_id>/<int:second_id>")
def settle_up(slug: str, first_id: int, second_id: int) -> str | Response | tuple[str, int]:
    """Mark the unpaid games between two players paid, all together, as the page showed them."""
    league = league_or_404(slug, Role.SCOREKEEPER)
    first, second = _pair(league, first_id, second_id)
    form = SettleForm()
    if not form.validate_on_submit():
        abort(400)
    unpaid = balance_queries.unpaid_between(
        league.id, first.id, second.id, through=form.through.data
    )
    if (len(unpaid), balance_queries.owed_to(first.id, unpaid)) != (form.count.data, form.net.data):
        flash(gettext("These games changed since the page was loaded; here they are now."), "error")
        return _render_balance(league, first, second), 409
    try:
        league_service.mark_games_paid(league.id, {game.id: game.version for game in unpaid})
    except ServiceError as error:
        flash(error.message, "error")
        return _render_balance(league, first, second), 409
    flash(ngettext("Marked %(num)s game paid.", "Marked %(num)s games paid.", len(unpaid)))
    return redirect(url_for(".owes", slug=slug))


@bp.get("/leagues/<slug>/payments")
def payments(slug: str) -> str:
    """Every payment marked, latest first."""
    league = league_or_404(slug)
    page = balance_queries.payments(league.id, after=_id_arg("after"))
    return render_template("league/payments.html", league=league, page=page)
