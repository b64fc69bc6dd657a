"""A real browser: Debian's Chromium driven by Playwright, against the app on a loopback port.

The app runs under waitress in a thread, on an SQLite file of its own. On a
laptop without Chromium these tests skip; under CI=true they fail instead.
"""

import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from waitress import wasyncore
from waitress.server import create_server

from scorekeeper import create_app
from scorekeeper.accounts import users as user_service
from scorekeeper.models import Role, db
from scorekeeper.ops import serve

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The phone screens the pages are checked at: the two the brief names, and the smallest.
PHONES = {
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
    "320x568": {"width": 320, "height": 568},
}
PHONE = PHONES["390x844"]
DESKTOP = {"width": 1280, "height": 900}
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS", "test-artifacts")) / "screenshots"
PASSWORD = "browser-password"

#: The smallest target a thumb hits reliably, in CSS pixels.
THUMB = 44

#: What keeps a thumb from each shown element matching ``selector`` (and not inside ``skip``):
#: smaller than ``least`` px either way, or not the element drawn at its own centre
#: (``elementFromPoint``: itself, inside it, or the label it is in). With ``scroll``, each is
#: first scrolled to the middle of the screen; without, it must be wholly on screen as it is.
UNREACHABLE = """([selector, least, scroll, skip]) => [...document.querySelectorAll(selector)]
  .filter((element) => element.checkVisibility() && !(skip && element.closest(skip)))
  .map((element) => {
    if (scroll) element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const box = element.getBoundingClientRect();
    const name = element.outerHTML.slice(0, 80).replace(/\\s+/g, " ");
    const whole = box.top >= 0 && box.left >= 0
      && box.bottom <= innerHeight && box.right <= innerWidth;
    if (!scroll && !whole) {
      return `${name}: off screen (${Math.round(box.left)}, ${Math.round(box.top)})`;
    }
    if (box.width < least || box.height < least) {
      return `${name}: ${Math.round(box.width)} × ${Math.round(box.height)} px`;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit !== element && !element.contains(hit) && !hit?.closest("label")?.contains(element)) {
      return `${name}: covered by ${hit && hit.outerHTML.slice(0, 60)}`;
    }
    return "";
  })
  .filter((found) => found)"""


def _require(condition: bool, reason: str) -> None:
    if condition:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: it must be there)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _require(Path(CHROMIUM).exists() or bool(shutil.which(CHROMIUM)), f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite database at the newest migration, made once a worker: each test's
    server starts on a copy of it (migrating a new file from the first revision costs a
    test about two seconds, a copy a tenth of that)."""
    path = tmp_path_factory.mktemp("migrated") / "live.db"
    app = create_app(
        {"SECRET_KEY": "browser-tests", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    with app.app_context():
        db.engine.dispose()
    return path


@pytest.fixture
def live_server(tmp_path: Path, migrated_database: Path) -> Iterator[str]:
    """The app on 127.0.0.1 at a free port, with an administrator ``admin``."""
    shutil.copyfile(migrated_database, tmp_path / "live.db")
    with serving(tmp_path) as base:
        yield base


@contextmanager
def serving(tmp_path: Path, **config: Any) -> Iterator[str]:
    """The app (with ``config`` on top) served by waitress on 127.0.0.1 at a free port,
    with an administrator ``admin``; its address. ``waitress`` in ``config``: the options
    ``mille-scorekeeper`` gives waitress, and tells the app (``ops/serve.py``)."""
    as_served = config.pop("waitress", False)
    app = create_app(
        {
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            **config,
        }
    )
    options: dict[str, Any] = {}
    if as_served:
        options = serve.waitress_options(app)
        serve.served_by_waitress(app, options)
    with app.app_context():
        user_service.create_first_admin("admin", PASSWORD)
        db.session.remove()
    sockets: dict[int, Any] = {}  # waitress's socket map: the server and its connections
    server = create_server(app, map=sockets, host="127.0.0.1", port=0, threads=4, **options)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    # Close every socket from inside the server's own loop (its trigger runs the call
    # there), so the loop ends with an empty map. Closing them from this thread raced
    # its select(): now and then an "[Errno 9] Bad file descriptor" in the server thread
    # failed the test at teardown.
    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
    except OSError:
        # The trigger was closed already: the loop ended on its own (seen now and then as
        # an "[Errno 9] Bad file descriptor" here). What matters is that it has stopped.
        wasyncore.close_all(sockets)
    thread.join(timeout=5)
    assert not thread.is_alive(), "the test server did not stop"
    server.task_dispatcher.shutdown()
    with app.app_context():
        db.engine.dispose()


#: offline.js tries the network again every 5 s (its one interval of that length); a test
#: that waits for those rounds has them every half second, the page's own timer shortened
#: before any of its scripts runs (:func:`quick_rounds`).
ROUND_MS = 500
_QUICK_ROUNDS = f"""(() => {{
  const every = window.setInterval;
  window.setInterval = (work, ms, ...rest) =>
    every(work, ms === 5000 ? {ROUND_MS} : ms, ...rest);
}})();"""


def quick_rounds(context: Any) -> None:
    """Every page of ``context`` retries its kept deals every :data:`ROUND_MS`."""
    context.add_init_script(_QUICK_ROUNDS)


class Screen:
    """One browser tab at a viewport, with the helpers the tests share."""

    def __init__(self, page: Any, base: str, name: str) -> None:
        self.page, self.base, self.name = page, base, name
        #: Whether the page runs its scripts, and the sizes :meth:`each_size` goes through.
        self.script = True
        self.sizes: tuple[str, ...] = ()
        self.taps = 0  # clicks and typed fields, as a person would count them
        self.errors: list[str] = []  # the page's script errors and console errors, in order
        self.expected_errors: list[str] = []  # console errors a test provokes on purpose
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def unexpected_errors(self) -> list[str]:
        """The errors the page showed (see :attr:`errors`) that the test did not provoke on
        purpose: none of :attr:`expected_errors` is part of them."""
        return [e for e in self.errors if not any(x in e for x in self.expected_errors)]

    def each_size(self) -> Iterator[str]:
        """The phone resized to each of its :attr:`sizes` in turn, its :attr:`name` saying
        which: what a test looks at in the loop, it looks at on each screen (open the page
        afresh in the loop: it was laid out for the size before)."""
        for size in self.sizes:
            self.page.set_viewport_size(PHONES[size])
            self.name = f"{size}-{'js' if self.script else 'nojs'}"
            yield size

    def go(self, path: str) -> None:
        self.page.goto(self.base + path)

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.taps += 1

    def type(self, selector: str, text: str) -> None:
        self.page.locator(selector).first.fill(text)
        self.taps += 1

    def from_menu(self, selector: str) -> None:
        """Tap ``selector`` in the header's menu (a ``<details>``), opening the menu first."""
        if self.page.locator("header.site details.site-menu[open]").count() == 0:
            self.page.click("header.site details.site-menu summary")
        self.page.locator(f"header.site .menu-items {selector}").first.click()

    def sign_in(self, username: str = "admin", password: str = PASSWORD) -> None:
        self.go("/login")
        self.page.fill("#username", username)
        self.page.fill("#password", password)
        self.page.click("button[type=submit].primary")
        self.page.wait_for_url(self.base + "/")

    def start_game(self, player0: str = "Ana", player1: str = "Ben", league: str = "") -> None:
        """Start a Standard $1–$3 game (in ``league``, a slug, when there are several);
        the first player deals first."""
        self.go(f"/leagues/{league}/games/new" if league else "/games/new")
        self.page.fill("#player0", player0)
        self.page.fill("#player1", player1)
        self.page.check("#first_dealer-1")
        self.page.click("button[name=submit].primary")
        self.page.wait_for_url(re.compile(r".*/games/\d+$"))

    def record(self, out: int, scores: tuple[int, int], stars: tuple[int, int] = (0, 0)) -> int:
        """One deal as a scorekeeper enters it; returns the taps it took."""
        before = self.taps
        self.tap(f"label.choice.big:has(input[value='{out}'])")
        self.type("#score0", str(scores[0]))
        self.type("#score1", str(scores[1]))
        for seat, count in enumerate(stars):
            for _ in range(count):
                self.tap(f"#stars{seat} + button.step")
        self.save()
        return self.taps - before

    def save(self, button: str = "button.save") -> None:
        """Tap Save and wait for the answer on screen: the script sends the deal in the
        background and puts the game page it gets back in place of the page's main part
        (without the script: the page the save leads to)."""
        self.page.locator("main").evaluate("main => { main.dataset.answered = 'no'; }")
        self.tap(button)
        # A new main part: put in place by the script, or a new page (no script).
        self.page.wait_for_selector("main:not([data-answered])")
        self.page.wait_for_load_state()

    def shot(self, label: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{label}-{self.name}.png"
        # A full-page shot is one tall viewport, so the sticky Save bar would be drawn
        # part-way down the form, over the star steppers: show it where it sits in the form.
        bars = self.page.locator(".deal-form .actions")
        bars.evaluate_all("bars => bars.forEach(bar => { bar.style.position = 'static'; })")
        self.page.screenshot(path=str(path), full_page=True)
        bars.evaluate_all("bars => bars.forEach(bar => { bar.style.position = ''; })")
        return path

    def text(self, selector: str = "main") -> str:
        return " ".join(self.page.locator(selector).first.inner_text().split())

    def overflow(self) -> int:
        """How many pixels the page is wider than the screen (0: no sideways scrolling)."""
        page = "document.documentElement"
        return int(self.page.evaluate(f"{page}.scrollWidth - {page}.clientWidth"))

    def duplicate_ids(self) -> list[str]:
        """Ids used more than once on the current page (a label or an error message
        tied to one of them could name the wrong field)."""
        ids: list[str] = self.page.evaluate(
            "[...document.querySelectorAll('[id]')].map((element) => element.id)"
        )
        return sorted({name for name in ids if ids.count(name) > 1})

    def wait_until_kept_offline(self) -> None:
        """Wait until the service worker keeps this page, so it opens with no network."""
        self.page.wait_for_function(
            """async () => {
                await navigator.serviceWorker.ready;
                const cache = await caches.open("mille-v2");
                return Boolean(await cache.match(location.origin + location.pathname));
            }""",
            timeout=10000,
        )

    def offline_in_a_game(self) -> str:
        """Sign in, start a game, save its first deal (Ana out, 290 to 160), wait until the
        page is kept for offline use, then cut the network; the game page's address."""
        self.sign_in()
        self.start_game()
        address = self.page.url.removeprefix(self.base)
        self.record(0, (290, 160))
        self.go_offline()
        return str(address)

    def go_offline(self) -> None:
        """Wait until this page is kept for offline use, then cut the network (the browser
        logs the failed requests that follow: expected)."""
        self.wait_until_kept_offline()
        self.page.context.set_offline(True)
        self.expected_errors.append("ERR_INTERNET_DISCONNECTED")

    def record_offline(self, out: int, scores: tuple[int, int]) -> None:
        """Record a deal with no network: Save keeps it on the phone (no page is loaded),
        one more row on the card marked not yet saved."""
        from playwright.sync_api import expect

        unsaved = self.page.locator("tr.unsaved-row")
        before = unsaved.count()
        self.page.locator(f"label.choice.big:has(input[value='{out}'])").click()
        self.page.fill("#score0", str(scores[0]))
        self.page.fill("#score1", str(scores[1]))
        self.page.locator("button.save").click()
        expect(unsaved).to_have_count(before + 1)

    def unreachable(self, selector: str, *, scroll: bool = False, skip: str = "") -> list[str]:
        """What keeps a thumb from the shown targets matching ``selector``, none inside
        ``skip`` (see :data:`UNREACHABLE`): an empty list when each is a whole, uncovered
        target of at least 44 × 44 px."""
        found: list[str] = self.page.evaluate(UNREACHABLE, [selector, THUMB, scroll, skip])
        return found

    def accessibility_violations(self) -> list[dict[str, Any]]:
        """axe-core's serious and critical violations on the current page."""
        from axe_playwright_python.base import AXE_SCRIPT

        self.page.evaluate(AXE_SCRIPT)
        results = self.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        return [
            {"id": v["id"], "impact": v["impact"], "nodes": [n["html"] for n in v["nodes"]][:3]}
            for v in results["violations"]
            if v["impact"] in ("serious", "critical")
        ]


#: The password of the member "ana" whom :func:`ana_signs_in_as_her_player` makes.
ANA_PASSPHRASE = "a long passphrase for ana"


def ana_signs_in_as_her_player(phone: "Screen", role: Role) -> None:
    """The league admin adds the player Ana and the member account "ana" with ``role``,
    and links the account to the player (issue 38, point 13); then Ana signs in on the
    phone."""
    phone.sign_in()
    phone.go("/leagues/our-table/players")
    phone.type("#name", "Ana")
    phone.tap("form button.primary")
    phone.go("/leagues/our-table/members")
    phone.type("#username", "ana")
    phone.page.check(f"input[name=role][value='{int(role)}']")
    phone.type("#password", ANA_PASSPHRASE)
    phone.tap("form.card button.primary")
    phone.go("/leagues/our-table/players")
    phone.page.locator("ul.players a", has_text="Ana").first.click()
    phone.page.select_option("#account-user", label="ana")
    phone.page.locator("#account button[type=submit]").click()
    phone.page.wait_for_load_state()
    phone.page.context.clear_cookies()
    phone.sign_in("ana", ANA_PASSPHRASE)


@pytest.fixture(params=["phone", "desktop"])
def screen(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    viewport = PHONE if request.param == "phone" else DESKTOP
    context = browser.new_context(
        viewport=viewport,
        is_mobile=request.param == "phone",
        has_touch=request.param == "phone",
        bypass_csp=False,
        # Playwright's page.route() does not see what a service worker fetches; a test that
        # cuts the network under the page itself asks for the page without one.
        service_workers="block"
        if request.node.get_closest_marker("without_service_worker")
        else "allow",
    )
    screen = Screen(context.new_page(), live_server, request.param)
    yield screen
    context.close()
    unexpected = screen.unexpected_errors()
    assert unexpected == [], unexpected  # no script error and no CSP violation on any page


@pytest.fixture
def phones(browser: Any, live_server: str) -> Iterator[Callable[[str], Screen]]:
    """Phones at the table, each its own browser (cookies, storage, service worker), at
    390×844: ``phones("phone-a")`` opens one. None may end with a script error."""
    opened: list[tuple[Any, Screen]] = []

    def phone(name: str) -> Screen:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        screen = Screen(context.new_page(), live_server, name)
        screen.context = context  # type: ignore[attr-defined]
        opened.append((context, screen))
        return screen

    yield phone
    for context, screen in opened:
        context.close()
        unexpected = screen.unexpected_errors()
        assert unexpected == [], (screen.name, unexpected)


@pytest.fixture
def phone(phones: Callable[[str], Screen]) -> Screen:
    """One phone at 390×844."""
    return phones("phone")


def phone_at_each_size(*sizes: str) -> Any:
    """A module's ``phone`` fixture: each of its tests on a phone of each size (every one
    of :data:`PHONES` unless named), with JavaScript and without (``screen.script``); no
    page it showed may have had a script error."""

    def named(case: tuple[str, bool]) -> str:
        return f"{case[0]}-{'js' if case[1] else 'nojs'}"

    cases = [(size, script) for size in sizes or PHONES for script in (True, False)]

    @pytest.fixture(params=cases, ids=named)
    def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
        size, script = request.param
        context = browser.new_context(
            viewport=PHONES[size], is_mobile=True, has_touch=True, java_script_enabled=script
        )
        screen = Screen(context.new_page(), live_server, named(request.param))
        screen.script, screen.sizes = script, (size,)
        yield screen
        context.close()
        assert screen.unexpected_errors() == []

    return phone


def phone_resized_to_each_size(*sizes: str) -> Any:
    """A module's ``phone`` fixture for tests that set up more than they look at: each test
    twice, with JavaScript and without (``screen.script``), set up at the first of
    ``sizes`` (every one of :data:`PHONES` unless named); ``phone.each_size()`` then
    resizes it to each in turn. The same checks at each size as :func:`phone_at_each_size`
    makes, for one setting-up (a server, a sign-in, the games) instead of three. No page it
    showed may have had a script error."""
    chosen = sizes or tuple(PHONES)

    @pytest.fixture(params=[True, False], ids=["js", "nojs"])
    def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
        script = request.param
        context = browser.new_context(
            viewport=PHONES[chosen[0]], is_mobile=True, has_touch=True, java_script_enabled=script
        )
        screen = Screen(
            context.new_page(), live_server, f"{chosen[0]}-{'js' if script else 'nojs'}"
        )
        screen.script, screen.sizes = script, chosen
        yield screen
        context.close()
        assert screen.unexpected_errors() == []

    return phone
