"""Tonight's page: which game, who is here, the next round — Mille's pairs, or any other
game's tables — and one tap that starts all its games."""

import uuid
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import acting_user, league_or_404, scorekeeping_leagues
from scorekeeper.engine.games import KINDS, GameKind
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.league import queries
from scorekeeper.league import tonight as tonight_service
from scorekeeper.league.forms import StartRoundForm
from scorekeeper.models import MILLE, League, Player, Role
from scorekeeper.records import chances
from scorekeeper.table.setup_forms import SetupForm, setup_form
from scorekeeper.web.translation import gettext, ngettext

bp = Blueprint("tonight", __name__)

#: What a page of Tonight was asked: the query of a GET, the form of a POST.
Asked = MultiDict[str, str]


@bp.get("/tonight")
def tonight_default() -> str | Response:
    """Tonight (the menu's and the home page's): straight to the one league the user keeps
    score in, else choose one."""
    if acting_user() is None:
        abort(401)  # to the sign-in page, and back here
    leagues = scorekeeping_leagues()
    if len(leagues) == 1:
        return redirect(url_for(".tonight", slug=leagues[0].slug))
    return render_template("league/choose_tonight.html", leagues=leagues, target="tonight.tonight")


@bp.route("/leagues/<slug>/tonight", methods=["GET", "POST"])
def tonight(slug: str) -> str | Response | tuple[str, int]:
    """Pick the game and tick who is here; the next round; one tap starts all its games."""
    league = league_or_404(slug, Role.SCOREKEEPER)
    asked = request.form if request.method == "POST" else request.args
    kind = KINDS.get(asked.get("game") or MILLE)
    if kind is None:
        if request.method == "POST":
            abort(400)
        kind = KINDS[MILLE]
    here = _here(league, asked)
    if kind.name == MILLE:
        return _mille(league, here, asked)
    return _tables(league, kind, here, asked)


def _ids(values: list[str]) -> list[int]:
    """Row ids from a form's repeated field: what is not a possible id is left out."""
    ids = []
    for value in values[: tonight_service.MAX_PLAYERS_HERE]:
        if value.isdecimal() and 0 < int(value) <= queries.MAX_ID:
            ids.append(int(value))
    return ids


def _here(league: League, asked: Asked) -> list[Player]:
    """The players ticked; on a first look at the page, those who are here tonight (so a
    second round starts with the first one's players ticked)."""
    if request.method == "POST" or "here" in asked or "pair" in asked:
        return tonight_service.players_here(league.id, _ids(asked.getlist("here")))
    return tonight_service.here_tonight(league)


def _page(league: League, kind: GameKind, here: list[Player], **shown: Any) -> str:
    """The page, for ``kind``, with the players ``here`` ticked and what else it shows."""
    return render_template(
        "league/tonight.html",
        league=league,
        kinds=list(KINDS.values()),
        picked=kind,
        paired_game=MILLE,
        players=queries.players_of(league.id),
        here={player.id for player in here},
        in_progress=tonight_service.games_in_progress(league.id),
        **{"plan": None, "tables": None, "problem": None, "start": None, **shown},
    )


def _start_form(signature: str) -> StartRoundForm:
    return StartRoundForm(formdata=None, data={"signature": signature, "token": uuid.uuid4().hex})


def _started(league: League, kind: GameKind, here: list[Player], started: int) -> Response:
    """Back to the page, at the games in progress, with the players still ticked."""
    if started:
        flash(ngettext("%(num)s game started.", "%(num)s games started.", started))
    ids = [player.id for player in here]
    game = None if kind.name == MILLE else kind.name  # Mille's address as it always was
    return redirect(
        url_for(".tonight", slug=league.slug, game=game, here=ids, _anchor="in-progress")
    )


# Mille: two players a game ----------------------------------------------------------------


def _mille(league: League, here: list[Player], asked: Asked) -> Response | tuple[str, int]:
    status, problem = 200, None
    if request.method == "POST":
        started = _start_round(league, here)
        if isinstance(started, Response):
            return started
        status, problem = started
    plan = None
    if "pair" in asked or request.method == "POST":
        try:
            plan = tonight_service.plan_round(league.id, here)
        except ServiceError as error:
            problem, status = error.message, 422
    return _page(
        league,
        KINDS[MILLE],
        here,
        plan=plan,
        chances=chances.chances_of_pairs(plan.games) if plan is not None else [],
        problem=problem,
        start=_start_form(plan.signature) if plan is not None else None,
    ), status


def _start_round(league: League, here: list[Player]) -> Response | tuple[int, str | None]:
    """Start the round's games, then show them; or why not (a status and the problem)."""
    form = StartRoundForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        started = tonight_service.start_round(
            league, here, form.signature.data or "", form.token.data or ""
        )
    except Conflict as error:
        flash(error.message, "error")
        return 409, None
    except ServiceError as error:
        return 422, error.message
    return _started(league, KINDS[MILLE], here, started)


# Every other game: tables of its size ------------------------------------------------------

Setup = tuple[Mapping[str, object], Mapping[str, int | None]]


def _tables(
    league: League, kind: GameKind, here: list[Player], asked: Asked
) -> Response | tuple[str, int]:
    last = league.last_setup(kind.name)
    form_class = setup_form(kind)
    if request.method == "POST":
        setup = form_class(prefix=kind.name)
        status, problem, chosen = 200, None, _read_setup(setup)
        if chosen is None:
            status, problem = 422, gettext("Check the stakes and rules below.")
        else:
            started = _start_tables(league, kind, here, chosen)
            if isinstance(started, Response):
                return started
            status, problem = started
    else:
        setup = form_class(formdata=None, prefix=kind.name, data=form_class.data_of(last))
        status, problem, chosen = 200, None, None
    tables = None
    if "pair" in asked or request.method == "POST":
        try:
            tables = tonight_service.plan_tables(
                league.id, kind, here, tonight_service.sizes_taken(kind, *_setup(chosen, last))
            )
        except ServiceError as error:
            problem, status = error.message, 422
    start = _start_form(tables.signature) if tables is not None else None
    shown = {"tables": tables, "problem": problem, "start": start, "setup": setup, "last": last}
    return _page(league, kind, here, **shown), status


def _setup(chosen: Setup | None, last: Mapping[str, Any] | None) -> Setup:
    """The rules and stakes the round is seated for: those sent, else the league's last."""
    if chosen is not None:
        return chosen
    return (last or {}).get("rules") or {}, (last or {}).get("stakes") or {}


def _read_setup(setup: SetupForm) -> Setup | None:
    """The rules and stakes sent, once the engine has found them good for a table of the
    sizes they allow; None when not, each problem beside its field."""
    if not setup.validate():
        return None
    rules, stakes = setup.rule_values(), setup.stake_cents()
    sizes = tonight_service.sizes_taken(setup.kind, rules, stakes)
    if sizes:  # every size it allows is refused the same (stakes left out): one will do
        setup.check(sizes[0])
    if any(field.errors for field in setup):
        return None
    return rules, stakes


def _start_tables(
    league: League, kind: GameKind, here: list[Player], setup: Setup
) -> Response | tuple[int, str | None]:
    """Start every table, then show the games; or why not (a status and the problem)."""
    form = StartRoundForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        started = tonight_service.start_tables(
            league, kind, here, setup, form.signature.data or "", form.token.data or ""
        )
    except Conflict as error:
        flash(error.message, "error")
        return 409, None
    except ServiceError as error:
        return 422, error.message
    return _started(league, kind, here, started)
