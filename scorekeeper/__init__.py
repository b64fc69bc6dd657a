"""Mille Scorekeeper: the paper score card of Montreal Mille, done better."""

import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

PACKAGE_DIR = Path(__file__).resolve().parent


def _asset_dir(name: str) -> str:
    """``templates/`` and ``static/`` sit at the top of the source tree and inside the wheel."""
    bundled = PACKAGE_DIR / name
    return str(bundled if bundled.is_dir() else PACKAGE_DIR.parent / name)


def _secret_key(instance_path: str) -> str:
    """A key made on first start and kept in the instance folder, unless one is configured.

    Several app processes may start at once: the key is written whole under another name
    and linked into place, so the first one wins and every process reads that one key.
    """
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        handle, draft = tempfile.mkstemp(dir=instance_path, prefix="secret_key.")  # mode 0600
        with os.fdopen(handle, "w") as out:
            out.write(secrets.token_hex(32))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process made it first
        finally:
            os.unlink(draft)
    return path.read_text().strip()


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` limited to a 32-bit signed integer, the range of an id column, and to
    ASCII digits (``\\d`` would take a full-width ``１`` for game 1)."""

    regex = r"[0-9]+"

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(url_map, *args, **kwargs)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, database (migrated on start), forms, blueprints."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
        AUTO_MIGRATE=True,
        # A token that survives an evening at the table.
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_DURATION=timedelta(days=30),
        REMEMBER_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        # The largest request a page takes (views.allows_body: more for one): a larger one
        # is refused (413) from its Content-Length, before it is read. Flask's limits on
        # a form's fields in memory and its number of parts, stated here to be seen.
        MAX_CONTENT_LENGTH=1024 * 1024,
        MAX_FORM_MEMORY_SIZE=500_000,
        MAX_FORM_PARTS=1000,
        # Reverse proxies in front of the app whose X-Forwarded-* headers count (https.py).
        PROXY_FIX=0,
    )
    app.config.from_prefixed_env("SCOREKEEPER")
    if "DATABASE_URL" in os.environ:
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from . import cli, database, https, views

    # Ids in URLs fit the database's integer: /games/99999999999999999999 is a 404.
    app.url_map.converters["int"] = BoundedIntConverter

    app.config["SQLALCHEMY_DATABASE_URI"] = database.database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    database.init_app(app)
    views.init_app(app)
    cli.init_app(app)
    https.init_app(app)
    if app.config["AUTO_MIGRATE"]:
        database.migrate_and_seed(app)
    return app
