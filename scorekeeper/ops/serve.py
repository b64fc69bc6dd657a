"""``mille-scorekeeper``: serve the app with waitress, reachable from phones on the network.

The start message says which address to open on a phone (and shows it as a QR code),
and, on a fresh install, the setup code that creating the first administrator asks for.
"""

import argparse
import io
import ipaddress
import socket
import sys

import segno
from flask import Flask
from sqlalchemy.engine import make_url
from waitress import serve

from scorekeeper import create_app
from scorekeeper.accounts import users as user_service

ALL_INTERFACES = "0.0.0.0"
#: A documentation address (TEST-NET-1): "connecting" a UDP socket to it sends nothing,
#: it only asks the kernel which local address would be used to leave this machine.
_OUTSIDE = ("192.0.2.1", 9)
#: What plain http on the network can't do: browsers run service workers only on HTTPS.
OFFLINE_NOTE = (
    "(Over plain http a game page keeps deals typed offline while it stays open, but a "
    "reload with no network loses it: offline reloads need HTTPS, see docs/DEPLOY.md.)"
)


def _usable(address: str) -> bool:
    """An IPv4 address another machine could use: not loopback, link-local or unset."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the one its default route uses first.

    Found without sending anything: a UDP socket "connected" to an outside address
    (no packet leaves), then the addresses the host name resolves to locally.
    """
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_OUTSIDE)
            found.append(probe.getsockname()[0])
        except OSError:
            pass  # no route out: maybe no network at all
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found.extend(str(info[4][0]) for info in infos)
    return [a for a in dict.fromkeys(found) if _usable(a)]


def _qr(url: str) -> str:
    """``url`` as a QR code drawn with block characters, for a phone's camera."""
    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True)
    return out.getvalue()


def start_message(app: Flask, host: str, port: int, addresses: list[str]) -> str:
    """What the terminal shows on start: where to open the app, and the setup code."""
    lines = ["Mille Scorekeeper is running."]
    if host == ALL_INTERFACES:
        phone_urls = [f"http://{address}:{port}/" for address in addresses]
        lines.append(f"On this machine: http://127.0.0.1:{port}/")
        if phone_urls:
            lines.append("On a phone on the same network (Wi-Fi), open:")
            lines.extend(f"    {url}" for url in phone_urls)
            lines.append(OFFLINE_NOTE)
        else:
            lines.append("No network found: phones can't reach this machine yet.")
    elif _usable(host):
        phone_urls = [f"http://{host}:{port}/"]
        lines.append(f"Open: {phone_urls[0]}")
        lines.append(OFFLINE_NOTE)
    else:
        phone_urls = []
        lines.append(f"Open on this machine only: http://{host}:{port}/")
        lines.append(f"(For phones on the network: --host {ALL_INTERFACES}, the default.)")
    with app.app_context():
        database = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
        lines.append(f"Database: {database.render_as_string(hide_password=True)}")
        if not user_service.has_users():
            lines.append(
                f"Setup code for the first administrator: {user_service.setup_code()}"
                " (the first page asks for it)."
            )
    text = "\n".join(lines) + "\n"
    if phone_urls:
        text += "Scan with a phone's camera:\n" + _qr(phone_urls[0])
    return text


def _printable(text: str, encoding: str | None) -> str:
    """The message without the QR code when the terminal can't show its block characters."""
    try:
        text.encode(encoding or "utf-8")
    except UnicodeError:
        return text.split("Scan with", 1)[0]
    return text


#: The proxy headers the app reads behind a reverse proxy (web/https.py), which waitress
#: must pass on rather than drop.
PROXY_HEADERS = ("x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "x-forwarded-port")


def waitress_options(app: Flask) -> dict[str, object]:
    """What waitress is told besides where to listen.

    Its body limit is a page's (``MAX_CONTENT_LENGTH``): a larger body is refused from its
    Content-Length before waitress reads a byte of it. Waitress receives a whole request
    before the app sees it and has one limit for every route, so the import's larger one
    made it receive up to 51 MB on any route, anonymous ``/login`` included, and spool it
    to disk before the 413 (its own default is 1 GiB); the import page sends a larger file
    in parts instead (``league/transfer/parts.py``). And behind a reverse proxy
    (``PROXY_FIX``), waitress trusts the same number of hops as the app does: by default it
    trusts none and drops every ``X-Forwarded-*`` header, so the app saw neither HTTPS (no
    ``Secure`` cookies, no HSTS) nor the client's address (one client's wrong guesses
    throttled everyone)."""
    options: dict[str, object] = {"max_request_body_size": int(app.config["MAX_CONTENT_LENGTH"])}
    hops = int(app.config.get("PROXY_FIX") or 0)
    if hops > 0:
        # Whoever connects, as the app's ProxyFix: the app listens where only the proxy
        # reaches it (docs/DEPLOY.md).
        options.update(
            trusted_proxy="*",
            trusted_proxy_count=hops,
            trusted_proxy_headers=" ".join(PROXY_HEADERS),
        )
    return options


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve Mille Scorekeeper.")
    parser.add_argument(
        "--host",
        default=ALL_INTERFACES,
        help="the address to listen on; 127.0.0.1 keeps the app on this machine only",
    )
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    app = create_app()
    options = waitress_options(app)
    served_by_waitress(app, options)
    message = start_message(app, args.host, args.port, lan_addresses())
    print(_printable(message, sys.stdout.encoding), end="", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, **options)


def served_by_waitress(app: Flask, options: dict[str, object]) -> None:
    """Tell the app the largest body waitress receives, so that its pages that take more
    (the import) send it in parts."""
    app.config["SERVER_MAX_BODY"] = options["max_request_body_size"]


if __name__ == "__main__":
    main()
