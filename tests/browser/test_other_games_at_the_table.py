"""The other games at the table, on a phone (issue 36): each game's deal form, up to six
players, whole and uncovered on the screen before and after a save at 390×844, 360×640
and 320×568 (``elementFromPoint``); a Knock Rummy sitting counted with the counting help,
asked about an unusual count, ended after its question and settled as the engine says;
and a Continental deal without a script."""

import contextlib
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.engine.games import KINDS, Refused, kind_named
from scorekeeper.models import MILLE, Game, db
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
#: A deal of each game at a table of six (Gambler's Rummy takes four) as the API's body, by
#: the game and its number of sides: Scotch Whist's partnerships make three of six players.
#: The test enters it through the form's own word of where each field goes (data-json-*).
DEALS: dict[tuple[str, int], dict[str, Any]] = {
    ("knock-rummy", 6): {"knocker": 2, "counts": [9, 4, 3, 20, 7, 11]},
    ("rummy", 6): {"out": 1, "counts": [0, 0, 6, 9, 12, 15], "rummy": True},
    ("boathouse-rummy", 6): {"out": 0, "counts": [0, 4, 8, 12, 16, 20]},
    ("gamblers-rummy", 4): {"out": None, "counts": [5, 6, 7, 8]},  # a dead deal
    ("continental-rummy", 6): {"out": 3, "jokers": 1},
    ("spoil-five", 6): {"winner": 4, "jink": "won"},
    ("scotch-whist", 3): {
        "honours": {"jack": 0, "ace": 1, "king": 2, "queen": 0, "ten": 1},
        "cards": [18, 12, 6],
    },
    ("scotch-whist", 6): {
        "honours": {"jack": 0, "ace": 1, "king": 2, "queen": 3, "ten": 4},
        "cards": [6, 6, 6, 6, 6, 6],
    },
}


def tables() -> list[tuple[str, int, dict[str, bool], dict[str, int]]]:
    """Each game of the engine's registry but Mille, at its largest table up to six, with
    each way its yes-or-no rules can be set (Scotch Whist's partnerships): its name,
    players, rules and stakes (every stake it needs, 25 cents)."""
    found = []
    for name, kind in KINDS.items():
        if name == MILLE:
            continue
        players = min(6, kind.max_players)
        schema = dict(kind.rules_schema.get("properties", {}))  # type: ignore[call-overload]
        switches = [rule for rule, said in schema.items() if said.get("type") == "boolean"]
        stakes = {stake: 25 for stake, needed in kind.stakes_taken.items() if needed}
        for values in itertools.product((False, True), repeat=len(switches)):
            rules = dict(zip(switches, values, strict=True))
            with contextlib.suppress(Refused):
                kind.setup(players, rules, stakes)
                found.append((name, players, rules, stakes))
    return found


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


def enter_body(screen: Screen, body: object, path: str = "") -> None:
    """Tap and type the deal ``body`` (the API's) into the form, each value where the form
    says it goes: a choice by the JSON it puts there, a number typed, a box ticked."""
    items = body.items() if isinstance(body, dict) else enumerate(body)  # type: ignore[attr-defined]
    for key, value in items:
        here = f"{path}.{key}" if path else str(key)
        if isinstance(value, dict | list):
            enter_body(screen, value, here)
            continue
        at = f'[data-json-path="{here}"]'
        field = f"form.deal-form {at}"
        kind = screen.page.locator(field).first.evaluate(
            "(field) => field.tagName === 'SELECT' ? 'select' : field.type"
        )
        literal = json.dumps(value)
        if kind == "radio":
            screen.tap(f"form.deal-form label:has({at}[data-json-value='{literal}'])")
        elif kind == "select":
            option = screen.page.locator(f"{field} option[data-json-value='{literal}']")
            screen.page.select_option(field, option.get_attribute("value"))
        elif kind == "checkbox":
            if value:
                screen.tap(f"form.deal-form label:has({at})")
        else:
            screen.type(field, str(value))


@pytest.mark.parametrize("size", list(PHONES))
def test_every_target_of_each_games_deal_form_is_uncovered_before_and_after_a_save(
    browser, live_server, league_app, size
):
    screen = phone(browser, live_server, size)
    played = tables()
    assert {name for name, *_ in played} == set(KINDS) - {MILLE}
    for name, players, rules, stakes in played:
        game_id = start(league_app, name, players, rules, stakes)
        kind = kind_named(name)
        sides = len(kind.replay(kind.setup(players, rules, stakes), 0, (), ended=False).sides)
        assert (name, sides) in DEALS, f"a deal of {name} for {sides} sides"
        screen.go(f"/games/{game_id}")
        assert screen.unreachable(TARGETS) == [], (name, rules, "first load")
        enter_body(screen, DEALS[name, sides])
        screen.save()
        assert "Deal 1 saved." in screen.text(".flashes"), (name, rules)
        assert screen.unreachable(TARGETS) == [], (name, rules, "after a save")
        screen.go("/")
        screen.go(f"/games/{game_id}#play")  # opened afresh at its form, as after a rematch
        screen.page.wait_for_timeout(300)
        assert screen.unreachable(TARGETS) == [], (name, rules, "first load at #play")
        screen.shot(f"other-game-{name}-{players}-{sides}")
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
