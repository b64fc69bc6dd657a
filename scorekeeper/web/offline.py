"""The service worker that keeps game pages at hand without a network (static/sw.js).

It is served from the site's root, so its scope covers every page; the file itself
stays in ``static/`` with the other scripts.
"""

from flask import Blueprint, current_app, send_from_directory
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
