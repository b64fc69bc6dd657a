"""Mille Scorekeeper: the paper score card of Montreal Mille, done better."""

import os
import secrets
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
    """A key made on first start and kept in the instance folder, unless one is configured."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
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
    )
    app.config.from_prefixed_env("SCOREKEEPER")
    if "DATABASE_URL" in os.environ:
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from . import cli, database, views

    # Ids in URLs fit the database's integer: /games/99999999999999999999 is a 404.
    app.url_map.converters["int"] = BoundedIntConverter

    app.config["SQLALCHEMY_DATABASE_URI"] = database.database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    database.init_app(app)
    views.init_app(app)
    cli.init_app(app)
    if app.config["AUTO_MIGRATE"]:
        database.migrate_and_seed(app)
    return app
