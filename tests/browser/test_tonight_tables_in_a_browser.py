"""Tonight for another game on a phone (issue 37), with JavaScript and without: nine players
ticked for Knock Rummy sit at a table of five and one of four, the round opening in view
(issue 38, point 9); its stakes asked for once, then both tables started in one tap; and
the next look at the page has the same nine ticked (issue 38, point 10)."""

import re

import pytest

from tests.browser.conftest import THUMB, UNREACHABLE, Screen, phone_at_each_size

pytestmark = pytest.mark.browser

NINE = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]

phone = phone_at_each_size("390x844", "360x640")


def round_in_view(phone: Screen) -> bool:
    """The round's heading is on the screen as the page opens."""
    return bool(
        phone.page.evaluate(
            """() => {
              const box = document.getElementById("round-title").getBoundingClientRect();
              return box.top >= 0 && box.bottom <= innerHeight;
            }"""
        )
    )


def seat_them(phone: Screen) -> None:
    """Pick Knock Rummy and ask for the round (the ticks as they are)."""
    phone.page.select_option("#game", "knock-rummy")
    if phone.script:  # type: ignore[attr-defined]
        assert phone.page.locator("button[name=pair]").inner_text() == "Seat them"
    phone.tap("button[name=pair]")
    phone.page.wait_for_url(re.compile(r".*/tonight\?.*#round$"))


def test_nine_players_at_two_tables_of_knock_rummy(phone: Screen):
    phone.sign_in()
    for name in NINE:
        phone.go("/leagues/our-table/players")
        phone.type("#name", name)
        phone.tap("form button.primary")
    phone.go("/leagues/our-table/tonight")
    assert phone.page.locator("#game").input_value() == "mille"  # Mille first and picked
    for name in NINE:
        phone.page.get_by_label(name, exact=True).check()
    seat_them(phone)
    assert round_in_view(phone)
    tables = phone.page.locator("ol.tables li").all_inner_texts()
    assert [re.search(r"\((\d) players\)", table).group(1) for table in tables] == ["5", "4"]
    seated = [name for table in tables for name in table.split(")")[1].strip().split(", ")]
    assert sorted(seated) == NINE
    assert "has not played Knock Rummy yet" in phone.text("#round")
    phone.shot("tonight-knock-rummy-stakes")
    phone.type("#knock-rummy-stake_point", "0.05")
    found = phone.page.evaluate(UNREACHABLE, ["#round button.primary", THUMB, True, None])
    assert found == []
    phone.tap("text=Start these 2 games")
    phone.page.wait_for_url(re.compile(r".*/tonight\?.*game=knock-rummy.*"))
    assert "2 games started." in phone.text()
    rows = phone.page.locator("#in-progress ~ ul.games li").all_inner_texts()
    assert len(rows) == 2
    assert all("Knock Rummy" in row for row in rows)
    # Round two: the page remembers who is here; the stakes are the last game's.
    phone.go("/leagues/our-table/tonight")
    assert phone.page.locator("input[name=here]:checked").count() == 9
    seat_them(phone)
    assert round_in_view(phone)
    assert "last game of Knock Rummy: Per point: $0.05" in phone.text("#round")
    phone.shot("tonight-knock-rummy-round-two")
    assert phone.overflow() == 0
    assert phone.duplicate_ids() == []
