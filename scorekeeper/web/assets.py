"""The static files, cached by browsers for good and sent compressed.

Every file under ``static/`` is read once, when the app starts. Its content hash goes
into each URL ``url_for('static', ...)`` builds (``/static/style.css?v=3f2a9c01d4e7``).
A text file is compressed, with brotli and gzip, when it is first asked for, and kept:
no later request compresses it again. A request naming the current hash is answered
with ``Cache-Control: public, max-age=31536000, immutable``: a browser keeps the file
and never asks again, and a new version of the file has a new URL. Any other request
for the file (no hash, an old page's hash) gets ``no-cache`` and an ETag, as before.

The web app manifest names its icons; they get their hashes too, so an installed app
caches them as well.

Why not a library: Flask-Static-Digest and WhiteNoise's compression both write
fingerprinted or compressed copies into ``static/`` with a build step before the
package is made; here the files are few and small (under 60 KB), so hashing and
compressing them in memory is simpler than a step to remember. Pages and JSON
are compressed per request by Flask-Compress (:func:`scorekeeper.create_app`).
"""

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import brotli
from flask import Flask, Response, abort, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

#: How long a fingerprinted file may be kept: a year, the most HTTP caches honour.
FOREVER = "public, max-age=31536000, immutable"
#: Text worth compressing (images are compressed already).
TEXT = ("text/", "application/json", "application/manifest+json", "image/svg+xml")
#: Content codings offered, best first.
CODINGS = ("br", "gzip")
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Asset:
    """One static file as it is sent: its bytes, type, content hash and compressed forms."""

    body: bytes
    mimetype: str
    version: str

    @cached_property
    def encoded(self) -> dict[str, bytes]:
        """The text files' compressed forms, made when the file is first asked for: brotli
        at its best takes a tenth of a second for the dozen files, which every ``flask``
        command and every worker's start paid though most never serve one."""
        if not self.mimetype.startswith(TEXT):
            return {}
        return {"br": brotli.compress(self.body), "gzip": gzip.compress(self.body, mtime=0)}


def _asset(body: bytes, name: str) -> Asset:
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return Asset(body, mimetype, hashlib.sha256(body).hexdigest()[:12])


def load(folder: Path) -> dict[str, Asset]:
    """Every file of ``folder`` by its name under it; the manifest's icons fingerprinted."""
    assets = {
        path.relative_to(folder).as_posix(): _asset(path.read_bytes(), path.name)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
    if MANIFEST in assets:

        def fingerprinted(match: re.Match[str]) -> str:
            name = match[1]
            return f'"/static/{name}?v={assets[name].version}"' if name in assets else match[0]

        text = assets[MANIFEST].body.decode()
        assets[MANIFEST] = _asset(
            re.sub(r'"/static/([^"?]+)"', fingerprinted, text).encode(), MANIFEST
        )
    return assets


class Sessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, never saved with a static file.

    Flask-Login looks at the session after every request, and a session looked at adds
    ``Vary: Cookie``; a browser then asks for a cached file again whenever the cookie
    changed (a flashed message changes it). A static file never changes the session."""

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if request.endpoint != "static":
            super().save_session(app, session, response)


def init_app(app: Flask) -> None:
    """Serve ``static/`` from memory and put each file's hash in the URLs built for it."""
    assert app.static_folder is not None
    assets = load(Path(app.static_folder))

    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and (asset := assets.get(values.get("filename", ""))):
            values.setdefault("v", asset.version)

    def static(filename: str) -> Response:
        asset = assets.get(filename)
        if asset is None:
            abort(404)
        coding = request.accept_encodings.best_match(list(asset.encoded))
        body = asset.encoded[coding] if coding else asset.body
        response = Response(body, mimetype=asset.mimetype)
        if asset.encoded:
            response.vary.add("Accept-Encoding")
        if coding:
            response.headers["Content-Encoding"] = coding
        response.set_etag(f"{asset.version}-{coding or 'identity'}")
        if request.args.get("v") == asset.version:
            response.headers["Cache-Control"] = FOREVER
        else:
            response.cache_control.no_cache = True
        response.make_conditional(request)
        return response

    app.session_interface = Sessions()
    app.url_defaults(add_version)
    app.view_functions["static"] = static
