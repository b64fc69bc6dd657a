"""HTTPS as the browser sees it: the client's scheme and address behind a reverse proxy,
``Secure`` cookies and HSTS whenever a page is served over HTTPS.

``PROXY_FIX`` (``SCOREKEEPER_PROXY_FIX``) is the number of reverse proxies in front of
the app whose ``X-Forwarded-*`` headers are trusted; 0, the default, trusts none, as a
client could send those headers itself.
"""

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

#: One year: a browser that has seen the site over HTTPS uses nothing else.
HSTS = "max-age=31536000"

StartResponse = Callable[..., Any]


class SecureOverHttps:
    """Every cookie set over HTTPS is ``Secure``, and the answer says HSTS.

    Done around the app rather than in Flask's settings, so that it follows the scheme
    of each request (``http://`` on the LAN, ``https://`` behind a proxy) and covers
    every cookie: the session's and Flask-Login's remember-me cookie alike.
    """

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("wsgi.url_scheme") != "https":
            return self.app(environ, start_response)

        def secure_start_response(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            headers = [_secure(name, value) for name, value in headers]
            if not any(name.lower() == "strict-transport-security" for name, _ in headers):
                headers.append(("Strict-Transport-Security", HSTS))
            return start_response(status, headers, *args)

        return self.app(environ, secure_start_response)


def _secure(name: str, value: str) -> tuple[str, str]:
    if name.lower() != "set-cookie":
        return name, value
    attributes = [part.strip().lower() for part in value.split(";")[1:]]
    return name, value if "secure" in attributes else f"{value}; Secure"


def init_app(app: Flask) -> None:
    app.wsgi_app = SecureOverHttps(app.wsgi_app)  # type: ignore[method-assign]
    hops = int(app.config.get("PROXY_FIX") or 0)
    if hops > 0:  # outermost, so that everything inside sees the client's scheme and address
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops
        )
