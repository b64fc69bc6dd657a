"""Fixing a deal on a phone, with and without a script, at the three phone sizes: a value
confirmed when the deal was saved is not asked about again, a new one is (and the question
keeps the Fix page's own address), and once corrected the address is the game page's own,
one to keep: opened again, it shows the correction."""

import re

import pytest

from .conftest import Screen, phone_at_each_size

pytestmark = pytest.mark.browser


phone = phone_at_each_size()


def deal_1(phone: Screen) -> list[str]:
    """The two deal scores on the card's row of deal 1."""
    cells = phone.page.locator("#deal-1 .deal-score").all()
    return [re.match(r"[−\d,]+", cell.inner_text().strip()).group(0) for cell in cells]


def save_and_wait(phone: Screen, button: str) -> None:
    """Tap ``button`` and wait for what the server answers (a new page or, with the
    script, a new main part or a new address)."""
    phone.page.locator("main").evaluate("main => { main.dataset.answered = 'no'; }")
    phone.page.click(button)
    phone.page.wait_for_selector("main:not([data-answered])")
    phone.page.wait_for_load_state()


def test_a_fix_keeps_its_confirmations_and_ends_at_the_game_page(phone):
    phone.sign_in()
    phone.start_game()
    game = phone.page.url.split("#")[0]
    # Deal 1: 1,005, asked about and confirmed.
    phone.page.check("input[name=out][value='0']")
    phone.page.fill("#score0", "1005")
    phone.page.fill("#score1", "50")
    save_and_wait(phone, "button.save")
    save_and_wait(phone, "button:has-text('Yes, save it as typed')")
    assert "Deal 1 saved." in phone.text(".flashes")

    # Fix deal 1, changing only Ben's score: no question about the 1,005 kept as it was.
    phone.go(game.removeprefix(phone.base) + "/deals/1")
    assert phone.page.locator("#score0").input_value() == "1005"
    phone.page.fill("#score1", "60")
    save_and_wait(phone, "button.save")
    assert phone.page.url == game  # the game page's own address, not #play
    assert "Deal 1 corrected" in phone.text(".flashes")
    assert deal_1(phone) == ["1,005", "60"]
    phone.page.reload()
    assert phone.page.url == game
    assert deal_1(phone) == ["1,005", "60"]

    # A new unusual value is asked about, and the question keeps the Fix page's address.
    phone.go(game.removeprefix(phone.base) + "/deals/1")
    phone.page.fill("#score0", "1010")
    save_and_wait(phone, "button.save")
    assert "1,010 is an unusually high deal score." in phone.text("main")
    assert re.fullmatch(re.escape(game) + r"/deals/1", phone.page.url)
    save_and_wait(phone, "button:has-text('Yes, save it as typed')")
    assert phone.page.url == game
    assert deal_1(phone) == ["1,010", "60"]
