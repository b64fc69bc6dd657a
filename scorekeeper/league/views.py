"""The league: standings, players, head-to-head, every past game, who owes whom, seasons,
export and import."""

import io
import json
import shutil
import tempfile
import uuid
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    stream_template,
    stream_with_context,
    url_for,
)
from werkzeug.wrappers import Response

from scorekeeper import messages
from scorekeeper.accounts.permissions import acting_user, may, require_read, require_role
from scorekeeper.engine import Preset
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import queries
from scorekeeper.league import seasons as season_service
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league import tonight as tonight_service
from scorekeeper.league.charts import trend_chart
from scorekeeper.league.forms import ImportForm, SeasonForm, SettleForm, StartRoundForm
from scorekeeper.league.transfer import export_csv as csv_export
from scorekeeper.league.transfer import export_json as json_export
from scorekeeper.league.transfer.plan import ImportPlan, ImportProblems, read_text
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.read_json import parse_json
from scorekeeper.league.transfer.save import check_league_empty, run_import
from scorekeeper.models import IN_PROGRESS, League, Player, Role, Season
from scorekeeper.table import service as game_service
from scorekeeper.web.formatting import money
from scorekeeper.web.forms import ButtonForm
from scorekeeper.web.security import allows_body
from scorekeeper.web.translation import gettext, ngettext

bp = Blueprint("leagues", __name__)

#: The largest file an import reads (a season of thousands of games is far smaller).
MAX_IMPORT_BYTES = 50 * 1024 * 1024


def _id_arg(name: str) -> int | None:
    """A row id from the query string; None when absent or not a possible id."""
    value = request.args.get(name, type=int)
    return value if value is not None and 0 < value <= queries.MAX_ID else None


def _league(slug: str, role: Role | None = None) -> League:
    """The league, if it exists and the user may read it (or has ``role`` in it)."""
    league = league_service.league_by_slug(slug)
    if league is None:
        abort(404)
    if role is None:
        require_read(league)
    else:
        require_role(league, role)
    return league


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


@bp.get("/leagues")
def index() -> str:
    """The leagues this visitor may read."""
    return render_template("league/index.html", leagues=queries.readable_leagues(acting_user()))


@bp.get("/leagues/<slug>")
def home(slug: str) -> str:
    """Standings, sortable by any column, for all time or a season; the newest games."""
    league = _league(slug)
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


def _ids(values: list[str]) -> list[int]:
    """Row ids from a form's repeated field: what is not a possible id is left out."""
    ids = []
    for value in values[: tonight_service.MAX_PLAYERS_HERE]:
        if value.isdecimal() and 0 < int(value) <= queries.MAX_ID:
            ids.append(int(value))
    return ids


@bp.route("/leagues/<slug>/tonight", methods=["GET", "POST"])
def tonight(slug: str) -> str | Response | tuple[str, int]:
    """Tick who is here; the pairings of the next round; one tap starts all its games."""
    league = _league(slug, Role.SCOREKEEPER)
    asked = request.form if request.method == "POST" else request.args
    here = tonight_service.players_here(league.id, _ids(asked.getlist("here")))
    form = StartRoundForm()
    status, problem = 200, None
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        try:
            started = tonight_service.start_round(
                league, here, form.signature.data or "", form.token.data or ""
            )
        except Conflict as error:
            flash(error.message, "error")
            status = 409
        except ServiceError as error:
            problem, status = error.message, 422
        else:
            if started:
                flash(ngettext("%(num)s game started.", "%(num)s games started.", started))
            here_ids = [player.id for player in here]
            return redirect(url_for(".tonight", slug=slug, here=here_ids, _anchor="in-progress"))
    plan = None
    if "pair" in asked or request.method == "POST":
        try:
            plan = tonight_service.plan_round(league.id, here)
        except ServiceError as error:
            problem, status = error.message, 422
    start = None
    if plan is not None:
        start = StartRoundForm(
            formdata=None, data={"signature": plan.signature, "token": uuid.uuid4().hex}
        )
    return render_template(
        "league/tonight.html",
        league=league,
        players=queries.players_of(league.id),
        here={player.id for player in here},
        plan=plan,
        problem=problem,
        start=start,
        in_progress=league_service.games_of_leagues([league.id], status=IN_PROGRESS),
    ), status


@bp.get("/leagues/<slug>/players/<int:player_id>")
def player(slug: str, player_id: int) -> str:
    """A player's record, net money and rating over time, opponents, best and worst games."""
    league = _league(slug)
    found = _player(league, player_id)
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
    )


@bp.get("/leagues/<slug>/head-to-head")
def head_to_head(slug: str) -> str:
    """Any two players: games, wins each, net money between them, their games."""
    league = _league(slug)
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
    league = _league(slug)
    player_id = _id_arg("player")
    opponent_id = _id_arg("opponent") if player_id else None
    status = request.args.get("status") or None
    preset = request.args.get("preset") or None
    filters = queries.GameFilters(
        player=_player(league, player_id).id if player_id else None,
        opponent=_player(league, opponent_id).id if opponent_id else None,
        season=_season(league),
        status=status if status in queries.STATUSES else None,
        preset=preset if preset in {*Preset, "custom"} else None,
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
        statuses={status: messages.status_label(status) for status in queries.STATUSES},
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
    league = _league(slug)
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
    league = _league(slug)
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
    league = _league(slug, Role.SCOREKEEPER)
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
        game_service.mark_games_paid(league.id, {game.id: game.version for game in unpaid})
    except ServiceError as error:
        flash(error.message, "error")
        return _render_balance(league, first, second), 409
    flash(ngettext("Marked %(num)s game paid.", "Marked %(num)s games paid.", len(unpaid)))
    return redirect(url_for(".owes", slug=slug))


@bp.get("/leagues/<slug>/payments")
def payments(slug: str) -> str:
    """Every payment marked, latest first."""
    league = _league(slug)
    page = balance_queries.payments(league.id, after=_id_arg("after"))
    return render_template("league/payments.html", league=league, page=page)


@bp.route("/leagues/<slug>/seasons", methods=["GET", "POST"])
def seasons(slug: str) -> str | Response | tuple[str, int]:
    """The league's seasons, and a form to add one (league admins)."""
    league = _league(slug, Role.ADMIN)
    form = SeasonForm()
    if form.validate_on_submit():
        assert form.starts_on.data
        assert form.ends_on.data
        try:
            season = season_service.add_season(
                league.id, form.name.data or "", form.starts_on.data, form.ends_on.data
            )
        except ServiceError as error:
            _field(form, error.field).errors = [error.message]
        else:
            flash(gettext("Season %(name)s added.", name=season.name))
            return redirect(url_for(".seasons", slug=slug))
    status = 422 if form.errors else 200
    return render_template(
        "league/seasons.html",
        league=league,
        form=form,
        seasons=season_service.seasons_of(league.id),
        delete_form=ButtonForm(formdata=None),
    ), status


def _field(form: SeasonForm, name: str | None) -> Any:
    return getattr(form, name or "name", form.name)


@bp.route("/leagues/<slug>/seasons/<int:season_id>", methods=["GET", "POST"])
def edit_season(slug: str, season_id: int) -> str | Response | tuple[str, int]:
    """Rename a season or change its dates (league admins)."""
    league = _league(slug, Role.ADMIN)
    season = season_service.season_in(league.id, season_id) or abort(404)
    form = SeasonForm(obj=season)
    if form.validate_on_submit():
        assert form.starts_on.data
        assert form.ends_on.data
        try:
            season_service.update_season(
                league.id, season.id, form.name.data or "", form.starts_on.data, form.ends_on.data
            )
        except ServiceError as error:
            _field(form, error.field).errors = [error.message]
        else:
            flash(gettext("Season saved; its standings are added up again."))
            return redirect(url_for(".seasons", slug=slug))
    status = 422 if form.errors else 200
    return render_template(
        "league/edit_season.html", league=league, season=season, form=form
    ), status


@bp.post("/leagues/<slug>/seasons/<int:season_id>/delete")
def delete_season(slug: str, season_id: int) -> Response:
    """Remove a season (its games stay)."""
    league = _league(slug, Role.ADMIN)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        season_service.delete_season(league.id, season_id)
    except NotFound:
        abort(404)
    flash(gettext("Season removed; its games stay in the league."))
    return redirect(url_for(".seasons", slug=slug))


@bp.get("/leagues/<slug>/export.csv")
def export_csv(slug: str) -> Response:
    """The league's deals as CSV, one row per deal (the import format)."""
    league = _league(slug)
    rows = stream_with_context(csv_export.export_csv(league.id))
    return Response(
        rows,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{league.slug}-deals.csv"'},
    )


@bp.get("/leagues/<slug>/export.json")
def export_json(slug: str) -> Response:
    """The league's games as JSON: everything needed to make them again."""
    league = _league(slug)
    return Response(
        json.dumps(json_export.export_json(league), indent=1, ensure_ascii=False),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{league.slug}.json"'},
    )


@bp.route("/leagues/<slug>/import", methods=["GET", "POST"])
@allows_body(MAX_IMPORT_BYTES + 1024 * 1024)  # the file and the multipart around it
def import_games(slug: str) -> str | Response | tuple[str, int]:
    """Import paper score cards (CSV) or a league export (JSON); all or nothing."""
    league = _league(slug, Role.ADMIN)
    form = ImportForm()
    if not form.validate_on_submit():
        return render_template("league/import.html", league=league, form=form), (
            422 if form.errors else 200
        )
    try:
        plan = _read_import(league, form)
    except ImportProblems as problems:
        return render_template(
            "league/import.html", league=league, form=form, problems=problems.problems
        ), 422
    progress = run_import(league.id, plan)
    return Response(
        stream_template("league/import_progress.html", league=league, progress=progress),
        mimetype="text/html",
    )


def _read_import(league: League, form: ImportForm) -> ImportPlan:
    upload = form.file.data.stream  # spooled to a temporary file: read as a stream
    upload.seek(0, io.SEEK_END)
    if upload.tell() > MAX_IMPORT_BYTES:
        raise ImportProblems([gettext("The file is larger than 50 MB; split it in parts.")])
    upload.seek(0)
    if form.format.data != "json":
        # The import reads the file again as it saves, after the request's own copy is
        # closed: it reads a copy of its own, on disk, closed when the import is done.
        spooled = tempfile.TemporaryFile()  # noqa: SIM115 (the import closes it)
        copy = io.TextIOWrapper(spooled, encoding="utf-8-sig", newline="")
        try:
            shutil.copyfileobj(upload, copy.buffer)
            return parse_csv(copy)
        except BaseException:
            copy.close()
            raise
    text = read_text(upload.read())
    try:
        loaded = json.loads(text)
    except ValueError as error:
        raise ImportProblems([gettext("The file is not JSON: %(error)s.", error=error)]) from None
    except RecursionError:
        raise ImportProblems(
            [gettext("The file is nested too deeply to be a league export.")]
        ) from None
    plan = parse_json(loaded)
    check_league_empty(league.id)
    return plan
