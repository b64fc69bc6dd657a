"""A league's export and import pages: its games as CSV or JSON, and a file of games read
and saved all or nothing (:mod:`.read_csv`, :mod:`.read_json`, :mod:`.save`)."""

import io
import shutil
import tempfile

from flask import Blueprint, Response, render_template, stream_template, stream_with_context

from scorekeeper.accounts.permissions import league_or_404
from scorekeeper.league.forms import ImportForm
from scorekeeper.league.transfer import export_csv as csv_export
from scorekeeper.league.transfer import export_json as json_export
from scorekeeper.league.transfer.plan import ImportPlan, ImportProblems
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.read_json import parse_json_file
from scorekeeper.league.transfer.save import check_league_empty, run_import
from scorekeeper.models import League, Role
from scorekeeper.web.security import allows_body
from scorekeeper.web.streaming import sent_as_made
from scorekeeper.web.translation import gettext

bp = Blueprint("transfer", __name__)

#: The largest file an import reads (a season of thousands of games is far smaller).
MAX_IMPORT_BYTES = 50 * 1024 * 1024


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
    return sent_as_made(
        stream_template("league/import_progress.html", league=league, progress=progress)
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
    plan = parse_json_file(upload)
    try:
        check_league_empty(league.id)
    except ImportProblems:
        plan.close()
        raise
    return plan
