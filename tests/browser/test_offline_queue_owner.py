"""Whose deals the offline queue sends, and what an ended session says (issue 21, points 6
and 8).

A deal kept on a phone carries an opaque key of the scorekeeper who kept it (the page's
``<body data-owner>``) and is sent on its own only in a session of that same user;
anything else in the storage (another scorekeeper's deals, entries planted there) is shown
with a choice and never sent unasked. Signing out asks about unsent deals, then empties the
queue and the service worker's copies of pages. When the session has ended, the page says
"Sign in again" and stops trying; a 403 shows its reason.
"""

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.accounts import members as member_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import Role, db
from scorekeeper.records.leagues import default_league

from .conftest import PASSWORD, PHONE, ROUND_MS, Screen, quick_rounds

pytestmark = pytest.mark.browser


@pytest.fixture
def league_members(live_server: str, tmp_path: Path) -> Callable[[str, Role], None]:
    """Give ``name`` (made with the tests' password if new) a role in the first league,
    on the running app's own database."""
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )

    def member(name: str, role: Role) -> None:
        with app.app_context():
            user = user_service.user_by_name(name) or user_service.create_user(name, PASSWORD)
            league = default_league()
            assert league is not None
            member_service.set_membership(league.id, user.id, role)
            db.session.remove()

    return member


def _saved_deals(base: str, screen: Screen, url: str) -> list[str]:
    """The deals the server has, read on a fresh tab of the same phone (online)."""
    page = screen.context.new_page()  # type: ignore[attr-defined]
    page.goto(base + url)
    rows = page.evaluate(
        """[...document.querySelectorAll('.scorecard tbody tr[id^="deal-"]')].map((row) =>
            [...row.querySelectorAll('.deal-score')].map((s) => s.firstChild.textContent.trim())
            .join(' '))"""
    )
    page.close()
    return list(rows)


def _keys(screen: Screen) -> list[str]:
    return list(
        screen.page.evaluate(
            "Object.keys(localStorage).filter((name) => name.startsWith('mille-unsaved-'))"
        )
    )


def _sign_out(screen: Screen) -> None:
    """Open the header's menu and tap Sign out."""
    screen.page.locator("header.site details.site-menu summary").click()
    screen.page.locator("header.site form.sign-out button").click()


def _sign_in_as(screen: Screen, name: str, then: str) -> None:
    screen.go("/login?next=" + then)
    screen.page.fill("#username", name)
    screen.page.fill("#password", PASSWORD)
    with screen.page.expect_navigation():
        screen.page.click("button[type=submit].primary")


def test_a_deal_kept_by_one_scorekeeper_is_not_sent_in_anothers_session(phones, league_members):
    from playwright.sync_api import expect

    league_members("bea", Role.SCOREKEEPER)
    phone = phones("phone")
    quick_rounds(phone.context)  # type: ignore[attr-defined]
    phone.sign_in()  # admin
    phone.start_game()
    url = phone.page.url.removeprefix(phone.base)
    phone.record(0, (290, 160))
    phone.go_offline()
    phone.record_offline(1, (140, 350))  # kept by admin, on admin's page

    # Admin's session ends without a sign-out on this phone (its cookie is gone), and bea
    # signs in on the same browser, online: admin's deal is shown to her, not sent.
    phone.context.clear_cookies()  # type: ignore[attr-defined]
    phone.expected_errors.append("404 (NOT FOUND)")  # the card's version, asked signed out
    phone.context.set_offline(False)  # type: ignore[attr-defined]
    expect(phone.page.locator("#offline-stopped")).to_contain_text("Sign in again")
    _sign_in_as(phone, "bea", url)
    foreign = phone.page.locator("#unsaved .foreign")
    expect(foreign).to_contain_text("140 / 350")
    expect(foreign).to_contain_text("kept by another account")
    phone.page.wait_for_timeout(3 * ROUND_MS)  # more than two of offline.js's rounds of sending
    assert _saved_deals(phone.base, phone, url) == ["290 160"]
    # On the card it is not provisional for her either: the form still says deal 2.
    expect(phone.page.locator("#deal-form h2")).to_have_text("Deal 2")
    phone.shot("offline-foreign")

    # Her choice: she records it as hers, and it is saved once.
    foreign.locator("button", has_text="Send it as mine").click()
    expect(phone.page.locator("#deal-2")).to_be_visible(timeout=10000)
    assert _saved_deals(phone.base, phone, url) == ["290 160", "140 350"]
    assert _keys(phone) == []
    expect(phone.page.locator(".history .events li").first).to_contain_text("bea:")


def test_entries_planted_in_the_storage_are_never_sent_unasked(phones):
    from playwright.sync_api import expect

    phone = phones("phone")
    quick_rounds(phone.context)  # type: ignore[attr-defined]
    phone.sign_in()
    phone.start_game()
    url = phone.page.url.removeprefix(phone.base)
    game = url.rsplit("/", 1)[1]
    planted = [
        # No owner at all, and an owner key someone made up (or copied from another user).
        {"token": "a" * 32, "out": "0", "score0": 500, "score1": 0, "stars0": 0, "stars1": 0,
         "reason": "", "version": 1},
        {"token": "b" * 32, "out": "1", "score0": 0, "score1": 900, "stars0": 0, "stars1": 0,
         "reason": "", "version": 2, "owner": "0" * 32},
    ]  # fmt: skip
    phone.page.evaluate(
        "([name, value]) => localStorage.setItem(name, value)",
        [f"mille-unsaved-{game}", json.dumps(planted)],
    )
    phone.page.reload()
    expect(phone.page.locator("#unsaved .foreign")).to_have_count(2)
    phone.page.wait_for_timeout(3 * ROUND_MS)
    assert _saved_deals(phone.base, phone, url) == []
    # Nothing planted counts on the card: no provisional row, no provisional totals.
    expect(phone.page.locator("tr.unsaved-row")).to_have_count(0)
    for _ in range(2):
        phone.page.locator("#unsaved .foreign button", has_text="Discard it").first.click()
    expect(phone.page.locator("#unsaved")).to_have_count(0)
    assert _keys(phone) == []
    assert _saved_deals(phone.base, phone, url) == []


def test_signing_out_asks_about_unsent_deals_then_forgets_them_and_the_cached_pages(phones):
    from playwright.sync_api import Error, expect

    phone = phones("phone")
    url = phone.offline_in_a_game()
    phone.record_offline(1, (140, 350))

    # Offline, Sign out asks first, and "Stay signed in" keeps everything.
    _sign_out(phone)
    question = phone.page.locator("dialog.sign-out-question")
    expect(question).to_be_visible()
    expect(question).to_contain_text("not saved yet")
    expect(question.locator("a")).to_have_text("Open the game to send them: 1 not yet saved")
    assert question.locator("a").get_attribute("href") == url
    phone.shot("offline-sign-out-question")
    question.locator("button", has_text="Stay signed in").click()
    expect(question).to_have_count(0)
    assert len(_keys(phone)) == 1

    # Online, a deal that stays unsent (marked here as someone else's, so that it is not
    # sent on its own): Sign out asks again, and discards it when told to.
    phone.page.evaluate(
        """(name) => { const list = JSON.parse(localStorage.getItem(name));
             list.forEach((deal) => { deal.owner = 'someone-else'; });
             localStorage.setItem(name, JSON.stringify(list)); }""",
        _keys(phone)[0],
    )
    phone.context.set_offline(False)  # type: ignore[attr-defined]
    phone.page.reload()
    _sign_out(phone)
    expect(question).to_be_visible()
    with phone.page.expect_navigation():
        question.locator("button", has_text="Discard them and sign out").click()
    expect(phone.page.locator("main")).to_contain_text("You are signed out.")
    assert _keys(phone) == []
    cached = phone.page.evaluate(
        "async () => (await caches.keys()).filter((name) => name.startsWith('mille-'))"
    )
    assert cached == []

    # The private game page no longer opens offline from the phone.
    phone.context.set_offline(True)  # type: ignore[attr-defined]
    with pytest.raises(Error, match="ERR_INTERNET_DISCONNECTED"):
        phone.go(url)
    assert phone.page.locator("#live").count() == 0
    assert "Ana" not in phone.page.content()


def test_without_a_script_signing_out_just_signs_out(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    screen = Screen(context.new_page(), live_server, "no-js")
    screen.sign_in()
    screen.start_game()
    with screen.page.expect_navigation():
        _sign_out(screen)
    assert "You are signed out." in screen.text()
    assert screen.page.locator("header.site form.sign-out").count() == 0
    context.close()


def test_an_ended_session_says_sign_in_again_and_stops_trying(phones):
    from playwright.sync_api import expect

    phone = phones("phone")
    quick_rounds(phone.context)  # type: ignore[attr-defined]
    url = phone.offline_in_a_game()
    phone.record_offline(1, (140, 350))

    # The session ends while the phone is offline (signed out everywhere from elsewhere).
    phone.context.clear_cookies()  # type: ignore[attr-defined]
    phone.expected_errors.append("404 (NOT FOUND)")  # the card's version, asked signed out
    asked: list[str] = []
    phone.page.on(
        "request",
        lambda request: (
            asked.append(request.method)
            if re.search(rf"{re.escape(url)}(/deals)?$", request.url)
            else None
        ),
    )
    phone.context.set_offline(False)  # type: ignore[attr-defined]
    stopped = phone.page.locator("#offline-stopped")
    expect(stopped).to_contain_text("You are signed out", timeout=10000)
    expect(stopped.locator("a", has_text="Sign in again")).to_have_attribute(
        "href", re.compile(r"/login\?next=.*games")
    )
    expect(phone.page.locator("#offline-banner")).to_have_count(0)  # not "You are offline"
    expect(phone.page.locator("tr.unsaved-row")).to_have_count(1)  # still kept
    phone.shot("offline-session-ended")
    tries = len(asked)
    phone.page.wait_for_timeout(3 * ROUND_MS)  # more rounds of the retry
    assert len(asked) == tries, asked  # it stopped trying
    assert "POST" not in asked  # nothing was sent without a session

    # Signing in again (the same scorekeeper) sends the kept deal, once.
    phone.page.locator("#offline-stopped a").click()
    phone.page.fill("#username", "admin")
    phone.page.fill("#password", PASSWORD)
    with phone.page.expect_navigation():
        phone.page.click("button[type=submit].primary")
    expect(phone.page.locator("#deal-2")).to_be_visible(timeout=10000)
    assert _saved_deals(phone.base, phone, url) == ["290 160", "140 350"]


def test_a_403_refusal_shows_its_reason(phones, league_members):
    from playwright.sync_api import expect

    league_members("bea", Role.SCOREKEEPER)
    phone = phones("phone")
    phone.sign_in("bea")
    phone.start_game()
    url = phone.page.url.removeprefix(phone.base)
    phone.go_offline()
    phone.record_offline(0, (290, 160))
    league_members("bea", Role.VIEWER)  # a league admin makes her a viewer meanwhile
    phone.expected_errors.append("403 (FORBIDDEN)")
    phone.context.set_offline(False)  # type: ignore[attr-defined]
    refused = phone.page.locator("#unsaved .refused")
    expect(refused).to_contain_text("290 / 160", timeout=15000)
    expect(refused).to_contain_text("Not allowed: Your role in this league doesn't allow that.")
    phone.shot("offline-403")
    assert _saved_deals(phone.base, phone, url) == []


def test_the_worker_keeps_each_file_under_its_fingerprint(phones):
    phone = phones("phone")
    phone.sign_in()
    phone.start_game()
    phone.wait_until_kept_offline()
    scripts = phone.page.evaluate(
        "[...document.querySelectorAll('script[src]')].map((script) => script.src)"
    )
    assert all("?v=" in script for script in scripts)
    kept: list[str] = []
    for _ in range(50):  # the worker fetches them after the page asked it to keep them
        kept = phone.page.evaluate(
            """async () => {
                const cache = await caches.open("mille-v2");
                return (await cache.keys()).map((request) => request.url);
            }"""
        )
        if set(scripts) <= set(kept):
            break
        phone.page.wait_for_timeout(200)
    files = [url for url in kept if "/static/" in url]
    assert files, kept
    # Every file is kept under its whole address: an old script and a new one never
    # share a slot, and a page never gets a script other than the one it names.
    assert [url for url in files if "?v=" not in url] == [], files
    assert sorted(set(scripts) & set(files)) == sorted(set(scripts)), files
