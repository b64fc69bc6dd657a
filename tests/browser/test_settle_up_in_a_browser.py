"""A night settled up on a phone (issue 37): two games of Mille and a Knock Rummy sitting
for five, finished and unpaid; Settle up shows each player's net and the fewest payments
(the engine's, as the service says them), each ticked as paid until the last one marks
every game paid and locked; with JavaScript and without, at 390×844 and 360×640, and in
French."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.engine import PRESETS, Preset, Seat, Stakes, Tally
from scorekeeper.engine.games import kind_named
from scorekeeper.league import settle_up
from scorekeeper.models import Game, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import kind_service, starting
from scorekeeper.table import service as game_service

from .conftest import PHONES, Screen

pytestmark = pytest.mark.browser

KNOCK = ["Ana", "Ben", "Cy", "Dan", "Eve"]


@pytest.fixture
def night(tmp_path: Path, live_server: str) -> Iterator[tuple[str, list[int], int]]:
    """The live server's league with tonight's three unpaid games; their ids, and how many
    payments settle them (the service's plan)."""
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db"}
    )
    with app.app_context():
        league = league_by_slug("our-table")
        ids = []
        for first, second in (("Ana", "Ben"), ("Cy", "Ana")):
            game = starting.start_game(
                league.id,
                (first, second),
                PRESETS[Preset.STANDARD],
                Stakes.from_small(100),
                Seat(0),
            )
            game_service.record_deal(game.id, Tally(Seat(0), (1300, 100)))
            ids.append(game.id)
        knock = starting.start_game_of(
            kind_named("knock-rummy"), league.id, KNOCK, {}, {"point": 10}, 0
        )
        for body in (
            {"knocker": 0, "counts": [6, 6, 14, 3, 22]},
            {"knocker": 3, "counts": [9, 0, 4, 12, 30]},
        ):
            kind_service.record(knock.id, body)
        kind_service.finish(knock.id)
        ids.append(knock.id)
        plan = settle_up.night_of(league, settle_up.chosen_games(league, ids))
        count = len(plan.payments)
        db.session.remove()
    yield live_server, ids, count
    with app.app_context():
        db.engine.dispose()


def paid(tmp_path: Path) -> set[int]:
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/live.db"}
    )
    with app.app_context():
        found = set(db.session.scalars(select(Game.id).where(Game.paid_at.is_not(None))))
        db.engine.dispose()
    return found


def phone(browser: Any, base: str, size: str, script: bool) -> Screen:
    context = browser.new_context(
        viewport=PHONES[size], is_mobile=True, has_touch=True, java_script_enabled=script
    )
    screen = Screen(context.new_page(), base, size)
    screen.sign_in()
    return screen


@pytest.mark.parametrize("size", ["390x844", "360x640"])
@pytest.mark.parametrize("script", [True, False], ids=["js", "nojs"])
def test_a_night_settled_in_the_fewest_payments(browser, night, tmp_path, size, script):
    base, ids, count = night
    screen = phone(browser, base, size, script)
    screen.go("/leagues/our-table/owes")
    screen.tap("a[href$='/settle-up']")
    assert "Each player's net" in screen.text()
    buttons = screen.page.locator("ul.night-payments form button")
    assert buttons.count() == count
    assert screen.overflow() == 0
    for _ in range(count):
        screen.page.locator("ul.night-payments form button").first.click()
        screen.page.wait_for_load_state()
    assert paid(tmp_path) == set(ids)
    assert "marked paid" in screen.text()
    screen.shot(f"settle-up-done-{'js' if script else 'nojs'}")
    screen.page.context.close()


def test_the_night_in_french_settled_at_once(browser, night, tmp_path):
    base, ids, count = night
    screen = phone(browser, base, "390x844", True)
    screen.go("/language/fr")
    screen.go("/leagues/our-table/settle-up")
    text = screen.text()
    assert "Régler les comptes" in text
    assert f"{count} paiements règlent tout" in text
    screen.tap("form:has(button:text('Marquer la soirée réglée')) button")
    screen.page.wait_for_load_state()
    assert "Marquer les 3 parties payées et verrouillées ?" in screen.text()  # (split: a space)
    screen.shot("settle-up-asked-fr")
    screen.tap("button:text('Oui, la soirée est réglée')")
    screen.page.wait_for_load_state()
    assert paid(tmp_path) == set(ids)
    screen.page.context.close()
