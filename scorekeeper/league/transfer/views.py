"""A league's export and import pages: its games as CSV or JSON, and a file of games read
and saved all or nothing (:mod:`.read_csv`, :mod:`.read_json`, :mod:`.save`)."""

import io
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    render_template,
    stream_template,
    stream_with_context,
)

from scorekeeper.accounts.permissions import acting_user, league_or_404
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.league.forms import ImportForm, ImportPartForm
from scorekeeper.league.transfer import export_csv as csv_export
from scorekeeper.league.transfer import export_json as json_export
from scorekeeper.league.transfer import parts
from scorekeeper.league.transfer.parts import MAX_IMPORT_BYTES
from scorekeeper.league.transfer.plan import ImportPlan, ImportProblems
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.read_json import parse_json_file
from scorekeeper.league.transfer.save import check_league_empty, run_import
from scorekeeper.models import League, Role
from scorekeeper.web.security import allows_body
from scorekeeper.web.streaming import sent_as_made
from scorekeeper.web.translation import gettext

bp = Blueprint("transfer", __name__)


@bp.get("/leagues/<slug>/export.csv")
def export_csv(slug: str) -> Response:
    """The league's deals as CSV, one row per deal (the import format)."""
    league = league_or_404(slug)
    rows = stream_with_context(csv_export.export_csv(league.id))
    return Response(
        rows,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{league.slug}-deals.csv"'},
    )


@bp.get("/leagues/<slug>/export.json")
def export_json(slug: str) -> Response:
    """The league's games as JSON: everything needed to make them again."""
    league = league_or_404(slug)
    # Made and sent a game at a time, compressed as it goes (COMPRESS_ALGORITHM_STREAMING):
    # a league of any size in the same memory (issue 26).
    return Response(
        stream_with_context(json_export.export_json(league)),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{league.slug}.json"'},
    )


@bp.route("/leagues/<slug>/import", methods=["GET", "POST"])
@allows_body(MAX_IMPORT_BYTES + 1024 * 1024)  # the file and the multipart around it
def import_games(slug: str) -> str | Response | tuple[str, int]:
    """Import paper score cards (CSV) or a league export (JSON); all or nothing."""
    league = league_or_404(slug, Role.ADMIN)
    form = ImportForm()
    if not form.validate_on_submit():
        return _import_page(league, form), 422 if form.errors else 200
    try:
        with _uploaded(form) as upload:
            plan = _read_import(league, form, upload)
    except ImportProblems as problems:
        return _import_page(league, form, problems.problems), 422
    progress = run_import(league.id, plan)
    return sent_as_made(
        stream_template("league/import_progress.html", league=league, progress=progress)
    )


def _import_page(league: League, form: ImportForm, problems: list[str] | None = None) -> str:
    """The import page; a file larger than the server receives at once (waitress: the
    pages' limit) is sent by its script in parts of ``parts_of`` bytes."""
    server_most = current_app.config.get("SERVER_MAX_BODY")
    return render_template(
        "league/import.html",
        league=league,
        form=form,
        problems=problems,
        parts_of=parts.PART_BYTES if server_most and server_most < MAX_IMPORT_BYTES else None,
    )


@bp.post("/leagues/<slug>/import/parts")
def import_part(slug: str) -> tuple[Response, int]:
    """One part of a file too large for one request (``parts.py``): the upload's id and
    what it holds, as JSON for the import page's script, or why not (``error``)."""
    league_or_404(slug, Role.ADMIN)
    user = acting_user()
    form = ImportPartForm()
    if user is None or not form.validate_on_submit():
        return jsonify(error=gettext("This part could not be read: choose the file again.")), 422
    try:
        upload, received = parts.receive(
            user.id, form.upload.data or "", form.offset.data or 0, form.part.data.stream
        )
    except (Conflict, NotFound) as refused:
        return jsonify(error=refused.message), 409 if isinstance(refused, Conflict) else 404
    except ServiceError as refused:
        return jsonify(error=refused.message), 422
    return jsonify(upload=upload, received=received), 200


@contextmanager
def _uploaded(form: ImportForm) -> Iterator[IO[bytes]]:
    """The file to import: the form's, or the one its script sent in parts before."""
    if not form.upload.data:
        yield form.file.data.stream  # spooled to a temporary file: read as a stream
        return
    user = acting_user()
    try:
        with parts.taken(user.id if user else 0, form.upload.data) as whole:
            yield whole
    except NotFound as gone:
        raise ImportProblems([gone.message]) from None


def _read_import(league: League, form: ImportForm, upload: IO[bytes]) -> ImportPlan:
    upload.seek(0, io.SEEK_END)
    if upload.tell() > MAX_IMPORT_BYTES:
        raise ImportProblems([parts.too_large()])
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
    plan = parse_json_file(upload)
    try:
        check_league_empty(league.id)
    except ImportProblems:
        plan.close()
        raise
    return plan
