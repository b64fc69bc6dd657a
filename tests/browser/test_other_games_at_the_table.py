"""The other games at the table, on a phone (issue 36): each game's deal form, up to six
players, whole and uncovered on the screen before and after a save at 390×844, 360×640
and 320×568 (``elementFromPoint``); a Knock Rummy sitting counted with the counting help,
asked about an unusual count, ended after its question and settled as the engine says;
and a Continental deal without a script."""

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.engine.games import kind_named
from scorekeeper.models import Game, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import kind_service, starting
from scorekeeper.web.formatting import money

from .conftest import PHONES, Screen

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
#: Every target of a deal form a thumb taps: the choices by their label, the typed numbers,
#: the lists, the buttons (Save, the counting help's).
TARGETS = (
    "form.deal-form label.choice, form.deal-form label.check, form.deal-form input.count-input,"
    " form.deal-form select, form.deal-form button"
)
#: Each game for six players (Gambler's is for four): its setup, and a deal as it is
#: tapped and typed: ("tap", selector) or ("type", selector, text).
DEALS: dict[str, tuple[int, dict[str, Any], dict[str, int], list[tuple[str, ...]]]] = {
    "knock-rummy": (6, {}, {"point": 10}, [
        ("tap", "label:has(#knocker-2)"),
        *[("type", f"#counts_{seat}", str(n)) for seat, n in enumerate([9, 4, 3, 20, 7, 11])],
    ]),
    "rummy": (6, {}, {"point": 5}, [
        ("tap", "label:has(#out-1)"),
        *[("type", f"#counts_{seat}", str(seat * 3)) for seat in (0, 2, 3, 4, 5)],
        ("tap", "label.check.rummy"),
    ]),
    "boathouse-rummy": (6, {}, {"point": 5}, [
        ("tap", "label:has(#out-0)"),
        *[("type", f"#counts_{seat}", str(seat * 4)) for seat in (1, 2, 3, 4, 5)],
    ]),
    "gamblers-rummy": (4, {}, {"point": 10}, [
        ("tap", "label:has(#out-4)"),  # nobody: a dead deal
        *[("type", f"#counts_{seat}", str(seat + 5)) for seat in range(4)],
    ]),
    "continental-rummy": (6, {}, {"unit": 25}, [
        ("tap", "label:has(#out-3)"),
        ("tap", "label:has(#jokers-1)"),
    ]),
    "spoil-five": (6, {}, {"ante": 100}, [
        ("tap", "label:has(#winner-4)"),
        ("tap", "label:has(#jink-1)"),
    ]),
    "scotch-whist": (6, {"partnerships": True}, {"game": 500}, [
        *[("tap", f"label:has(#honours_{name}-{side})")
          for name, side in (("jack", 0), ("ace", 1), ("king", 2), ("queen", 0), ("ten", 1))],
        ("type", "#cards_0", "18"), ("type", "#cards_1", "12"), ("type", "#cards_2", "6"),
    ]),
    "scotch-whist, one a side": (6, {}, {"game": 500}, [
        *[("select", f"#honours_{name}", str(side))
          for name, side in (("jack", 0), ("ace", 1), ("king", 2), ("queen", 3), ("ten", 4))],
        *[("type", f"#cards_{side}", "6") for side in range(6)],
    ]),
}  # fmt: skip


@pytest.fixture
def league_app(tmp_path: Path) -> Iterator[Any]:
    """The live server's database, through an app of its own: games are started as the
    API starts them (the new-game page of the other games is another issue's)."""
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db"}
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def start(app: Any, kind: str, players: int, rules: Any, stakes: Any) -> int:
    with app.app_context():
        league = league_by_slug("our-table")
        names = NAMES[:players]
        game = starting.start_game_of(kind_named(kind), league.id, names, rules, stakes, 0)
        db.session.remove()
    return game.id


def phone(browser: Any, base: str, size: str, **options: Any) -> Screen:
    context = browser.new_context(viewport=PHONES[size], is_mobile=True, has_touch=True, **options)
    screen = Screen(context.new_page(), base, size)
    screen.sign_in()
    return screen


def enter(screen: Screen, actions: list[tuple[str, ...]]) -> None:
    for action, selector, *text in actions:
        if action == "tap":
            screen.tap(selector)
        elif action == "select":
            screen.page.select_option(selector, text[0])
        else:
            screen.type(selector, text[0])


@pytest.mark.parametrize("size", list(PHONES))
def test_every_target_of_each_games_deal_form_is_uncovered_before_and_after_a_save(
    browser, live_server, league_app, size
):
    screen = phone(browser, live_server, size)
    for game, (players, rules, stakes, actions) in DEALS.items():
        kind = game.split(",")[0]
        game_id = start(league_app, kind, players, rules, stakes)
        screen.go(f"/games/{game_id}")
        assert screen.unreachable(TARGETS) == [], (game, "first load")
        enter(screen, actions)
        screen.save()
        assert "Deal 1 saved." in screen.text(".flashes"), game
        assert screen.unreachable(TARGETS) == [], (game, "after a save")
        screen.shot(f"other-game-{kind}-{players}")
    assert screen.unexpected_errors() == []
    screen.page.context.close()


def test_a_knock_rummy_sitting_counted_asked_ended_and_settled(browser, live_server, league_app):
    from playwright.sync_api import expect

    screen = phone(browser, live_server, "390x844")
    game_id = start(league_app, "knock-rummy", 4, {}, {"point": 10})
    screen.go(f"/games/{game_id}")
    # The counting help: Ben's hand added up from its cards (a King, a 5 and an Ace: 16).
    screen.tap("label:has(#knocker-0)")
    screen.tap("button.count-open")
    screen.tap("#counts_0")  # the knocker's hand first: two 3s
    screen.tap(".count-keys button.key:text-is('3')")
    screen.tap(".count-keys button.key:text-is('3')")
    screen.tap("#counts_1")
    for card in ("K", "5", "A"):
        screen.tap(f".count-keys button.key:has-text('{card}')")
    expect(screen.page.locator("#counts_1")).to_have_value("16")
    expect(screen.page.locator(".count-said")).to_contain_text("Ben's hand: K + 5 + A = 16")
    screen.tap(".count-keys button.count-done")
    screen.type("#counts_2", "14")
    screen.type("#counts_3", "65")  # unusual: asked about first
    screen.save()
    expect(screen.page.locator(".confirm")).to_contain_text("65 is an unusually high count")
    screen.save("button[name=confirm]")
    assert "Deal 1 saved." in screen.text(".flashes")
    expect(screen.page.locator(".sitting-card")).to_contain_text(
        "Ana knocked. Counts: Ana 6, Ben 16, Cy 14, Dan 65."
    )
    screen.tap("label:has(#knocker-1)")
    for seat, count in enumerate([12, 0, 30, 8]):
        screen.type(f"#counts_{seat}", str(count))
    screen.save()
    # One button, asked first.
    screen.tap("details.end-sitting summary")
    screen.tap("details.end-sitting button.primary")
    screen.page.wait_for_url(re.compile(r".*#play$"))
    with league_app.test_request_context():
        game = db.session.get(Game, game_id)
        sitting = kind_service.sitting_of(game)
        said = [
            f"{NAMES[t.payer]} pays {NAMES[t.payee]} {money(t.amount)}" for t in sitting.settlement
        ]
        balances = [money(balance).replace("−", "-") for balance in sitting.balances]
        db.session.remove()
    settlement = screen.text(".kind-settlement")
    for payment in said:
        assert payment in settlement
    amounts = screen.page.locator(".standing .amount").all_inner_texts()
    shown = [" ".join(amount.split()) for amount in amounts]
    assert [a.split()[-1].replace("+", "").replace("−", "-") for a in shown] == balances
    screen.shot("knock-rummy-settled")
    assert screen.unexpected_errors() == []
    screen.page.context.close()


def test_a_continental_deal_without_a_script(browser, live_server, league_app):
    screen = phone(browser, live_server, "320x568", java_script_enabled=False)
    game_id = start(league_app, "continental-rummy", 9, {}, {"unit": 25})
    screen.go(f"/games/{game_id}")
    screen.tap("label:has(#out-8)")
    screen.save()
    assert screen.page.url.endswith(f"/games/{game_id}#play")
    assert "Deal 1 saved." in screen.text(".flashes")
    assert "Everyone else paid Ivy $0.25 each (for the win)." in screen.text(".sitting-card")
    # Opened at #play: the message and the whole form on the screen, nothing covering it.
    assert screen.unreachable(TARGETS.replace(", form.deal-form button", "")) == []
    screen.tap("label:has(#jokers-2)")
    screen.save()  # nobody chosen: refused beside the choice, nothing saved
    assert "Choose who went out." in screen.text("#out-error")
    assert "Deal 2" in screen.text("form.deal-form h2")
    screen.shot("continental-no-script")
    screen.page.context.close()


def test_a_second_phone_follows_a_spoil_five_sitting_live(browser, live_server, league_app):
    """live.js follows any game by its version: a deal saved on one phone shows on the
    other within seconds, and the other's new form (a jink of "none" chosen for it) is
    not taken for a deal being typed."""
    from playwright.sync_api import expect

    game_id = start(league_app, "spoil-five", 5, {}, {"ante": 100})
    keeper, follower = (phone(browser, live_server, "390x844") for _ in range(2))
    for screen in (keeper, follower):
        screen.go(f"/games/{game_id}")
    keeper.tap("label:has(#winner-2)")
    keeper.save()
    expect(follower.page.locator(".sitting-card")).to_contain_text(
        "Cy won three tricks and took the pool.", timeout=10000
    )
    expect(follower.page.locator("#live-status")).to_contain_text("updated from another phone")
    assert follower.page.locator(".live-notice").count() == 0  # nothing was being typed
    expect(follower.page.locator("form.deal-form h2")).to_have_text("Deal 2")
    # What the follower types is kept when the card changes under it, not saved.
    follower.tap("label:has(#winner-1)")
    keeper.tap("label:has(#winner-0)")
    keeper.save()
    expect(follower.page.locator(".live-notice")).to_be_visible(timeout=10000)
    expect(follower.page.locator("#winner-1")).to_be_checked()
    for screen in (keeper, follower):
        assert screen.unexpected_errors() == []
        screen.page.context.close()
