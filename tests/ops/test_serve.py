"""``mille-scorekeeper``: reachable from a phone on the network, with a start message that
says where, and a setup code for the first administrator (issue 13)."""

import ipaddress
import sys

import pytest
import segno

from scorekeeper import create_app
from scorekeeper.accounts import users as user_service
from scorekeeper.models import User, db
from scorekeeper.ops import serve


def test_the_start_message_gives_the_phone_address_and_its_qr_code(app):
    message = serve.start_message(app, "0.0.0.0", 5000, ["192.168.1.20", "10.0.0.7"])
    assert "On this machine: http://127.0.0.1:5000/" in message
    assert "    http://192.168.1.20:5000/\n    http://10.0.0.7:5000/\n" in message
    # What plain http on the network can't do, and where to read how (issue 23).
    assert "offline reloads need HTTPS, see docs/DEPLOY.md" in message
    qr = message.split("Scan with a phone's camera:\n", 1)[1]
    # The code of the first address, as segno draws it: what a phone's camera reads.
    expected = segno.make("http://192.168.1.20:5000/", error="l")
    assert qr.count("\n") == (expected.symbol_size()[1] + 1) // 2
    assert qr == serve._qr("http://192.168.1.20:5000/")
    assert qr != serve._qr("http://10.0.0.7:5000/")


def test_the_start_message_says_when_phones_cant_reach_the_app(app):
    only_here = serve.start_message(app, "127.0.0.1", 5000, ["192.168.1.20"])
    assert "Open on this machine only: http://127.0.0.1:5000/" in only_here
    assert "192.168.1.20" not in only_here
    assert "Scan with" not in only_here
    assert "HTTPS" not in only_here  # this machine itself runs service workers
    no_network = serve.start_message(app, "0.0.0.0", 5000, [])
    assert "No network found" in no_network
    assert "Scan with" not in no_network


def test_the_start_message_shows_the_setup_code_only_before_the_first_administrator(app):
    with app.app_context():
        code = user_service.setup_code()
    assert "Setup code" not in serve.start_message(app, "0.0.0.0", 5000, [])  # admin exists
    with app.app_context():
        db.session.execute(db.delete(User))
        db.session.commit()
    message = serve.start_message(app, "0.0.0.0", 5000, [])
    assert f"Setup code for the first administrator: {code}" in message


def test_a_terminal_that_cant_draw_the_qr_code_still_gets_the_addresses(app):
    message = serve.start_message(app, "0.0.0.0", 5000, ["192.168.1.20"])
    plain = serve._printable(message, "ascii")
    assert "http://192.168.1.20:5000/" in plain
    assert "Scan with" not in plain
    assert serve._printable(message, "utf-8") == message


def test_lan_addresses_are_ipv4_addresses_another_machine_can_use():
    for address in serve.lan_addresses():
        ip = ipaddress.IPv4Address(address)
        assert not ip.is_loopback
        assert not ip.is_link_local
        assert not ip.is_unspecified


def test_the_command_serves_every_interface_by_default(monkeypatch, tmp_path, capsys):
    served, apps = {}, []
    monkeypatch.setattr(serve, "serve", lambda app, **options: served.update(options))
    monkeypatch.setattr(serve, "create_app", lambda: apps.append(create_app()) or apps[-1])
    monkeypatch.setattr(serve, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/fresh.sqlite")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-the-environment")
    monkeypatch.setattr(sys, "argv", ["mille-scorekeeper"])
    serve.main()
    assert served["host"] == "0.0.0.0"
    out = capsys.readouterr().out
    assert "http://192.168.1.20:5000/" in out
    assert "Setup code for the first administrator: " in out  # a fresh install
    monkeypatch.setattr(sys, "argv", ["mille-scorekeeper", "--host", "127.0.0.1"])
    serve.main()
    assert served["host"] == "127.0.0.1"
    for app in apps:
        with app.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("typed", ["{code}", "{digits}", " {spaced} "])
def test_the_setup_code_reads_with_or_without_its_dashes(app, typed):
    with app.app_context():
        code = user_service.setup_code()
        digits = code.replace("-", "")
        spaced = code.replace("-", " ")
        assert user_service.is_setup_code(typed.format(code=code, digits=digits, spaced=spaced))
        assert not user_service.is_setup_code(digits[:-1])
        assert not user_service.is_setup_code(digits[:-1] + str((int(digits[-1]) + 1) % 10))
        assert not user_service.is_setup_code("")
        assert not user_service.is_setup_code("１" * 12)  # full-width digits are not the code


def test_every_process_of_one_install_has_the_same_setup_code(make_app):
    """Two apps on one secret key stand for two gunicorn workers: one code for both;
    another install (another key) has another code."""
    codes = []
    for key in ("one", "one", "two"):
        with make_app(SECRET_KEY=key).app_context():
            codes.append(user_service.setup_code())
    assert codes[0] == codes[1] != codes[2]
    assert all(len(code) == 14 and code.count("-") == 2 for code in codes)


def test_behind_a_proxy_waitress_trusts_as_many_hops_as_the_app(make_app):
    """Waitress trusts no proxy unless told, and drops X-Forwarded-* before the app sees
    them: with PROXY_FIX set, it is told to pass them on (issue 21)."""
    from waitress.adjustments import Adjustments

    alone = serve.waitress_options(make_app())
    assert "trusted_proxy" not in alone
    behind = serve.waitress_options(make_app(PROXY_FIX=2))
    assert behind["trusted_proxy"] == "*"
    assert behind["trusted_proxy_count"] == 2
    adjusted = Adjustments(**behind)  # waitress's own reading of them
    assert adjusted.trusted_proxy_headers == {
        "x-forwarded-for",
        "x-forwarded-proto",
        "x-forwarded-host",
        "x-forwarded-port",
    }
    assert adjusted.max_request_body_size == alone["max_request_body_size"]
