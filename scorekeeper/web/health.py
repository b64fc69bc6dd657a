"""``GET /healthz``: whether this process and its database answer, for a load balancer's
probe or a watchdog (docs/DEPLOY.md).

Cheap enough to ask every few seconds: one trivial statement (``SELECT 1``), no session
read or started, no cookie set, nothing translated, kept by no cache.
"""

from flask import Blueprint, Response, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db
from scorekeeper.version import app_version

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """200 with ``{"status": "ok", "database": "ok", "version": …}`` when the database
    answers; 503 (``"unavailable"``, ``"unreachable"``) when it doesn't."""
    try:
        db.session.execute(text("SELECT 1"))
        answers = True
    except SQLAlchemyError:
        answers = False
    finally:
        db.session.rollback()
    body = {
        "status": "ok" if answers else "unavailable",
        "database": "ok" if answers else "unreachable",
        "version": app_version(),
    }
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, 200 if answers else 503
