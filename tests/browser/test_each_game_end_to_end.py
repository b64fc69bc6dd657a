"""Four sittings recorded end to end on a phone (issue 36, "Done when"): Knock Rummy for
four, Continental for nine, Spoil Five for five (a spoil and a jink among its deals) and a
Scotch Whist game in partnerships to its end; each with JavaScript and without, each at
two of the three phone sizes. Every deal is tapped and typed into the page, a sitting is
ended by its one button, and what the page says (each deal's sentence, the running
balances, the pool, the sides' totals, the fewest payments) is read from it and compared
with what the API answers for the same game."""

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.accounts.tokens import create_token
from scorekeeper.engine.games import kind_named
from scorekeeper.models import User, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import starting

from .conftest import PHONES, Screen

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@dataclass(frozen=True)
class Sitting:
    """A game as the scorekeeper plays it: its start, each deal as tapped and typed
    (``("tap", selector)``, ``("type", selector, text)``), and a sentence of the card that
    each deal must show."""

    kind: str
    players: int
    rules: dict[str, Any]
    stakes: dict[str, Any]
    deals: list[tuple[list[tuple[str, ...]], str]]
    ends_itself: bool = False
    sides: list[str] = field(default_factory=list)


def counts(*numbers: int) -> list[tuple[str, ...]]:
    return [("type", f"#counts_{seat}", str(n)) for seat, n in enumerate(numbers)]


def honours(**sides: int) -> list[tuple[str, ...]]:
    return [("tap", f"label:has(#honours_{name}-{side})") for name, side in sides.items()]


SITTINGS = {
    "knock-rummy for 4": Sitting("knock-rummy", 4, {}, {"point": 10}, [
        ([("tap", "label:has(#knocker-0)"), *counts(6, 16, 14, 9)],
         "Ana knocked. Counts: Ana 6, Ben 16, Cy 14, Dan 9."),
        ([("tap", "label:has(#knocker-1)"), *counts(12, 0, 30, 8)],
         "Ben knocked. Counts: Ana 12, Ben 0, Cy 30, Dan 8."),
        ([("tap", "label:has(#knocker-2)"), *counts(3, 11, 7, 25)],
         "Cy knocked; Ana won. Counts: Ana 3, Ben 11, Cy 7, Dan 25."),
    ]),
    "continental-rummy for 9": Sitting("continental-rummy", 9, {}, {"unit": 25}, [
        ([("tap", "label:has(#out-8)")], "Everyone else paid Ivy $0.25 each (for the win)."),
        ([("tap", "label:has(#out-3)"), ("tap", "label:has(#jokers-2)")], "Dan went out"),
        ([("tap", "label:has(#out-3)"), ("tap", "label:has(#jokers-1)")], "Dan went out"),
    ]),
    "spoil-five for 5": Sitting("spoil-five", 5, {}, {"ante": 20}, [
        ([("tap", "label:has(input[name=winner][value=spoilt])")],
         "Spoilt: nobody won three tricks, so the pool stays."),
        ([("tap", "label:has(#winner-2)"), ("tap", "label:has(input[name=jink][value=won])")],
         "Cy jinked and took all five tricks: the pool, and the jink from everyone else."),
        ([("tap", "label:has(#winner-4)"), ("tap", "label:has(input[name=jink][value=failed])")],
         "Eve won three tricks but failed the jink, so the pool stays."),
        ([("tap", "label:has(#winner-1)")], "Ben won three tricks and took the pool."),
        ([("tap", "label:has(#winner-0)")], "Ana won three tricks and took the pool."),
    ]),
    # Sides: Ana and Cy (0), Ben and Dan (1); nine cards each, a side is dealt 18 of 36.
    "scotch-whist in partnerships": Sitting(
        "scotch-whist", 4, {"partnerships": True}, {"game": 500}, [
            ([*honours(jack=0, ace=1, king=1, queen=1, ten=0),
              ("type", "#cards_0", "24"), ("type", "#cards_1", "12")], ""),
            ([*honours(jack=1, ace=0, king=0, queen=0, ten=1),
              ("type", "#cards_0", "16"), ("type", "#cards_1", "20")], ""),
            ([*honours(jack=0, ace=0, king=1, queen=0, ten=0),
              ("type", "#cards_0", "28"), ("type", "#cards_1", "8")], ""),
        ], ends_itself=True),
}  # fmt: skip

#: Each sitting at two sizes, once with the script and once without: every size and both
#: ways are met by each game of the four between them.
CASES = [
    ("knock-rummy for 4", "390x844", True),
    ("knock-rummy for 4", "320x568", False),
    ("continental-rummy for 9", "360x640", True),
    ("continental-rummy for 9", "390x844", False),
    ("spoil-five for 5", "320x568", True),
    ("spoil-five for 5", "360x640", False),
    ("scotch-whist in partnerships", "360x640", True),
    ("scotch-whist in partnerships", "320x568", False),
]


@pytest.fixture
def league_app(tmp_path: Path) -> Iterator[Any]:
    """The live server's database, through an app of its own: the game is started there,
    and the API is asked about it there, with a token of the administrator's."""
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db"}
    )
    yield app
    with app.app_context():
        db.engine.dispose()


def start(app: Any, sitting: Sitting) -> tuple[int, str]:
    with app.app_context():
        league = league_by_slug("our-table")
        names = NAMES[: sitting.players]
        game = starting.start_game_of(
            kind_named(sitting.kind), league.id, names, sitting.rules, sitting.stakes, 0
        )
        game_id = game.id
        admin = db.session.scalars(select(User).where(User.username == "admin")).one()
        token = create_token(admin.id, "end to end")
        db.session.remove()
    return game_id, token


def from_the_api(app: Any, game_id: int, token: str) -> dict[str, Any]:
    answer = app.test_client().get(
        f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    game: dict[str, Any] = answer.get_json()
    return game


def said_money(amount: str) -> str:
    """The API's "-1.80" as the page says it: "−$1.80"."""
    return f"−${amount[1:]}" if amount.startswith("-") else f"${amount}"


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("game", "size", "script"), CASES, ids=[f"{g}-{s}-{'js' if j else 'nojs'}" for g, s, j in CASES]
)
def test_a_sitting_recorded_on_a_phone_says_what_the_api_says(
    browser, live_server, league_app, game, size, script
):
    from playwright.sync_api import expect

    sitting = SITTINGS[game]
    game_id, token = start(league_app, sitting)
    context = browser.new_context(
        viewport=PHONES[size], is_mobile=True, has_touch=True, java_script_enabled=script
    )
    screen = Screen(context.new_page(), live_server, size)
    screen.sign_in()
    screen.go(f"/games/{game_id}")
    names = NAMES[: sitting.players]

    for number, (actions, sentence) in enumerate(sitting.deals, start=1):
        for action, selector, *text in actions:
            if action == "tap":
                screen.tap(selector)
            else:
                screen.type(selector, text[0])
        screen.save()
        assert f"Deal {number} saved." in screen.text(".flashes"), (number, screen.text())
        card = words(screen.text(".sitting-card"))
        assert sentence in card, (number, card)
        answer = from_the_api(league_app, game_id, token)
        assert len(answer["deals"]) == number
        shown = [words(text) for text in screen.page.locator(".standing").all_inner_texts()]
        if answer["totals"] is None:
            # Each player's running balance, in money, as the API has it.
            for name, balance, line in zip(names, answer["balances"], shown, strict=True):
                assert line.startswith(name), (name, line)
                assert line.endswith(said_money(balance)), (balance, line)
        else:
            # Each side's total, in points, as the API has it.
            for total, line in zip(answer["totals"], shown, strict=True):
                assert line.endswith(f"{total:,}"), (total, line)
        if answer["pool"] is not None:
            assert f"In the pool: ${answer['pool']}" in words(screen.text(".summary .pool"))

    if not sitting.ends_itself:
        # One button, asked first.
        screen.tap("details.end-sitting summary")
        screen.tap("details.end-sitting button.primary")
        screen.page.wait_for_load_state()

    answer = from_the_api(league_app, game_id, token)
    assert answer["status"] == "finished"
    assert answer["settlement"]["payments"], answer
    settlement = words(screen.text(".kind-settlement"))
    for payment in answer["settlement"]["payments"]:
        said = f"{names[payment['from']]} pays {names[payment['to']]} ${payment['amount']}"
        assert said in settlement, (said, settlement)
    if sitting.ends_itself:
        for seat in answer["winner"]:
            assert words(screen.text(".standing.winner")).count(names[seat]) >= 1
    if answer["pool"] is not None:
        assert answer["pool"] == "0.00"  # what was left went back to its givers
    expect(screen.page.locator("form.deal-form")).to_have_count(0)
    screen.shot(f"end-to-end-{sitting.kind}-{'js' if script else 'nojs'}")
    # The same card in French: each payment said in its words.
    screen.go("/language/fr")
    screen.go(f"/games/{game_id}")
    settlement = words(screen.text(".kind-settlement"))
    if sitting.players <= 4 and size == "390x844":  # every column in view, no sideways swipe
        wrap = screen.page.locator(".sitting-card .table-wrap")
        assert wrap.evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth"), size
    assert settlement.count(" paie ") == len(answer["settlement"]["payments"]), settlement
    screen.shot(f"end-to-end-{sitting.kind}-{'js' if script else 'nojs'}-fr")
    assert screen.unexpected_errors() == []
    context.close()
