"""The service worker that keeps game pages at hand without a network (static/sw.js).

It is served from the site's root, so its scope covers every page; the file itself
stays in ``static/`` with the other scripts.
"""

from flask import Blueprint, current_app, get_flashed_messages, request, send_from_directory
from werkzeug.wrappers import Response

bp = Blueprint("offline", __name__)


@bp.get("/sw.js")
def service_worker() -> Response:
    """static/sw.js at the root scope; always checked again, so a new version is taken up."""
    assert current_app.static_folder is not None
    response = send_from_directory(
        current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


def page_messages() -> list[str] | list[tuple[str, str]]:
    """The flashed messages this page shows (category, message). A page fetched in the
    background (``X-Requested-With: background``: the worker keeping it, the live card,
    the offline queue's fresh page) shows none and leaves them for the page the phone
    shows next: the worker's fetch once took "That deal was already saved" from the
    reload it was meant for."""
    if request.headers.get("X-Requested-With") == "background":
        return []
    return get_flashed_messages(with_categories=True)
