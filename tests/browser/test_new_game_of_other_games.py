"""Starting a game other than Mille on a phone (issue 36; issue 38, point 16): Knock Rummy
picked below Start, four players typed in seat order, who deals first named as they are
typed, "Did you mean Ben?" asked as "Benn" is typed (with the script), the stake, Start;
the game is stored with its kind, seats, first dealer and stake. With the script and
without, at 390×844."""

import json
import re
import sqlite3
from pathlib import Path

from tests.browser.conftest import ARTIFACTS, phone_at_each_size

phone = phone_at_each_size("390x844")

START = ".actions button[name=submit]"


def stored_game(database: Path) -> tuple[str, int, dict, list[str]]:
    """The newest game's kind, first dealer, setup and players in seat order."""
    with sqlite3.connect(database) as db:
        game_id, kind, dealer, setup = db.execute(
            "SELECT id, kind, first_dealer, setup FROM game ORDER BY id DESC LIMIT 1"
        ).fetchone()
        names = db.execute(
            "SELECT player.name FROM game_seat JOIN player ON player.id = game_seat.player_id"
            " WHERE game_seat.game_id = ? ORDER BY game_seat.seat",
            (game_id,),
        ).fetchall()
    return kind, dealer, json.loads(setup), [name for (name,) in names]


def pick_knock_rummy(phone) -> None:
    phone.tap(".game-choice label:has(input[value='knock-rummy'])")
    if not phone.script:
        phone.tap("button[name=show_game]")  # the page again, with Knock Rummy's fields
        phone.page.wait_for_load_state()
    assert phone.page.locator("#knock-rummy-stake_point").is_visible()
    assert phone.page.locator(".rules-choice").is_visible() is False  # Mille's rules
    assert phone.text(".game-line:visible").startswith("Knock Rummy · 2 to 6 players")


def add_player(phone, row: int, name: str) -> None:
    phone.tap(".add-player")
    if not phone.script:
        phone.page.wait_for_load_state()
    phone.type(f"#player{row}", name)


def test_knock_rummy_for_four_is_picked_typed_and_started(phone, tmp_path):
    phone.sign_in()
    phone.start_game("Ana", "Ben")  # Ana and Ben are players of the league now
    phone.go("/games/new")
    assert phone.unreachable(".game-choice label.choice", scroll=True) == []
    pick_knock_rummy(phone)
    phone.type("#player0", "Ana")
    if phone.script:
        # "Benn" is asked about as it is typed; "Use Ben" fills in the row.
        phone.type("#player1", "Benn")
        question = phone.page.locator("#player1-question")
        question.wait_for()
        assert "Did you mean Ben?" in question.inner_text()
        assert "player1-question" in phone.page.get_attribute("#player1", "aria-describedby")
        phone.tap("#player1-question button[name=use_player1]")
        assert phone.page.input_value("#player1") == "Ben"
        assert question.count() == 0
    else:
        phone.type("#player1", "Ben")
    add_player(phone, 2, "Cy")
    add_player(phone, 3, "Dee")
    assert phone.page.locator(".add-player").is_visible()  # up to six
    # Who deals first names each player typed before the page was last drawn (every one
    # of them, as they are typed, with the script).
    dealers = phone.page.locator(".first-dealer label.choice:visible")
    if phone.script:
        assert dealers.all_inner_texts()[1:] == [
            f"{name} deals first" for name in ("Ana", "Ben", "Cy", "Dee")
        ]
    assert "Cy deals first" in dealers.all_inner_texts()
    phone.tap(".first-dealer label:has(#first_dealer-3)")  # the third row: Cy
    phone.type("#knock-rummy-stake_point", "0.05")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(
        path=str(ARTIFACTS / f"new-game-knock-rummy-{phone.name}.png"), full_page=True
    )
    if phone.script:
        assert phone.accessibility_violations() == []
    assert phone.unreachable(START, scroll=True) == []
    assert phone.overflow() == 0
    phone.expected_errors.append("500")  # the game page of other games is not built yet
    phone.tap(START)
    phone.page.wait_for_url(re.compile(r".*/games/\d+$"), wait_until="commit")
    kind, dealer, setup, names = stored_game(tmp_path / "live.db")
    assert (kind, dealer, names) == ("knock-rummy", 2, ["Ana", "Ben", "Cy", "Dee"])
    assert setup == {"rules": {}, "stakes": {"point": 5}}


def test_a_refused_stake_is_said_beside_it_and_starts_nothing(phone, tmp_path):
    phone.sign_in()
    phone.go("/games/new")
    pick_knock_rummy(phone)
    phone.type("#player0", "Ana")
    phone.type("#player1", "Ben")
    phone.type("#knock-rummy-stake_point", "five")
    phone.tap(START)
    phone.page.wait_for_load_state()
    message = phone.page.locator("#knock-rummy-stake_point-error")
    assert message.inner_text() == "Enter an amount like 1 or 0.25."
    assert phone.page.get_attribute("#knock-rummy-stake_point", "aria-invalid") == "true"
    assert phone.page.locator("#knock-rummy-stake_point").is_visible()
    with sqlite3.connect(tmp_path / "live.db") as db:
        assert db.execute("SELECT count(*) FROM game").fetchone() == (0,)
