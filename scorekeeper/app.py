"""The app: create_app() and what it plugs into Flask, area by area."""

import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter, Map
from werkzeug.wrappers import Response

from scorekeeper import api, database
from scorekeeper.accounts import views as accounts_views
from scorekeeper.accounts.permissions import acting_user, keeps_score_anywhere, may
from scorekeeper.extensions import babel, compress, csrf, login_manager
from scorekeeper.league import money_views, name_views, own_player_views, tonight_views
from scorekeeper.league import settings as league_settings
from scorekeeper.league import views as league_views
from scorekeeper.league.transfer import views as transfer_views
from scorekeeper.models import Role
from scorekeeper.ops import cli
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.table import count_views, new_game_views, seat_views, submissions
from scorekeeper.table import views as table_views
from scorekeeper.table.forms import preset_rules
from scorekeeper.urls import is_api_request
from scorekeeper.version import app_version
from scorekeeper.web import (
    assets,
    errors,
    filters,
    game_words,
    health,
    https,
    i18n,
    languages,
    messages,
    offline,
    security,
)

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
    """Build the app: its settings, then everything the areas plug into it."""
    app = Flask(
        "scorekeeper",  # the package's name: its instance folder, wherever create_app lives
        instance_relative_config=True,
        template_folder=_asset_dir("templates"),
        static_folder=_asset_dir("static"),
    )
    configure(app, test_config)
    register_extensions(app)
    register_blueprints(app)
    register_hooks(app)
    register_template_helpers(app)
    register_error_handlers(app)
    register_commands(app)
    if app.config["AUTO_MIGRATE"]:
        database.migrate_and_seed(app, seed=on_start)
    return app


def on_start() -> None:
    """What every start does once the schema is up to date: make sure there is a league to
    play in, and let go of the one-time tokens past their use (``table/submissions.py``)."""
    ensure_default_league()
    submissions.prune()


#: The settings every app starts from (``configure`` puts the environment's on top).
DEFAULTS: dict[str, Any] = {
    "AUTO_MIGRATE": True,
    # A token that survives an evening at the table.
    "WTF_CSRF_TIME_LIMIT": 12 * 3600,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_DURATION": timedelta(days=30),
    "REMEMBER_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    # The largest request a page takes (security.allows_body: more for one): a larger one
    # is refused (413) from its Content-Length, before it is read. Flask's limits on
    # a form's fields in memory and its number of parts, stated here to be seen.
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    # The largest body the server in front receives, when it says (waitress, which
    # mille-scorekeeper tells the pages' limit: see ops/serve.py); the import page then
    # sends a larger file in parts, kept meanwhile in IMPORT_PARTS_FOLDER (by default
    # "imports" in the instance folder; league/transfer/parts.py).
    "SERVER_MAX_BODY": None,
    "IMPORT_PARTS_FOLDER": None,
    "MAX_FORM_MEMORY_SIZE": 500_000,
    "MAX_FORM_PARTS": 1000,
    # Reverse proxies in front of the app whose X-Forwarded-* headers count (web/https.py).
    "PROXY_FIX": 0,
    # Pages, JSON and exports compressed when the client asks; static files come
    # compressed already (assets). Brotli first, where the browser takes it: smaller.
    # A streamed answer (the exports) is compressed as it is made, gzip too (issue 26).
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["br", "gzip"],
}


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The defaults, then ``SCOREKEEPER_*`` and ``DATABASE_URL`` from the environment, then
    ``test_config``; a secret key made on first start unless one is given."""
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DEFAULTS,
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite'}",
    )
    app.config.from_prefixed_env("SCOREKEEPER")
    if "DATABASE_URL" in os.environ:
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)
    app.config["SQLALCHEMY_DATABASE_URI"] = database.database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    # Ids in URLs fit the database's integer: /games/99999999999999999999 is a 404.
    app.url_map.converters["int"] = BoundedIntConverter
    # A request's body limit is its view's (web/security.allows_body), known before it is read.
    app.request_class = security.Request


def register_extensions(app: Flask) -> None:
    database.init_app(app)  # the database and its migrations, and SQLite's settings
    babel.init_app(app, locale_selector=i18n.select_locale)
    # A body too large is refused from its Content-Length before anything reads it: this
    # hook comes first, before the CSRF check's, which parses the form.
    app.before_request(security.refuse_a_body_too_large)
    csrf.init_app(app)
    csrf.exempt(api.bp)  # no cookies: API writes take a bearer token instead
    login_manager.init_app(app)
    compress.init_app(app)
    assets.init_app(app)  # static files from memory, their fingerprints in their URLs


def register_blueprints(app: Flask) -> None:
    app.register_blueprint(table_views.bp)
    app.register_blueprint(new_game_views.bp)
    app.register_blueprint(count_views.bp)
    app.register_blueprint(seat_views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(accounts_views.bp)
    app.register_blueprint(own_player_views.bp)
    app.register_blueprint(league_settings.bp)
    app.register_blueprint(league_views.bp)
    app.register_blueprint(name_views.bp)
    app.register_blueprint(money_views.bp)
    app.register_blueprint(tonight_views.bp)
    app.register_blueprint(transfer_views.bp)
    app.register_blueprint(i18n.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(health.bp)


def register_hooks(app: Flask) -> None:
    app.before_request(security.refuse_nul_characters)
    app.before_request(languages.refresh)  # the language chosen afresh for every request
    app.before_request(accounts_views.first_visit_offers_setup)
    app.after_request(security.security_headers)
    https.init_app(app)  # around the whole app: Secure cookies, and the proxies trusted


def register_template_helpers(app: Flask) -> None:
    i18n.init_app(app)
    messages.init_app(app)
    filters.init_app(app)
    game_words.init_app(app)
    app.add_template_global(preset_rules)
    app.add_template_global(app_version)
    app.add_template_global(may)
    app.add_template_global(Role)
    app.add_template_global(acting_user)
    app.add_template_global(keeps_score_anywhere)
    app.add_template_global(accounts_views.offline_owner)
    app.add_template_global(offline.page_messages)


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(CSRFError, errors.csrf_error)
    for code in errors.ERROR_PAGES:
        app.register_error_handler(code, error_answer)


def error_answer(error: HTTPException) -> tuple[str, int] | Response:
    """An HTTP error as the API's JSON under its prefix (even at an address no route
    matched, where no blueprint's handler is asked), else as a page."""
    return api.http_error(error) if is_api_request() else errors.error_page(error)


def register_commands(app: Flask) -> None:
    cli.init_app(app)
