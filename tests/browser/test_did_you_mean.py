"""Short names one edit from a player's ask "Did you mean …?" before a player is made, on
the three phone sizes, with and without a script: "Anna" beside Ana, "Benn" beside Ben and
Ben2 (Ben offered first). One tap on "Use Ana" starts the game with Ana."""

import pytest

from .conftest import phone_at_each_size

pytestmark = pytest.mark.browser


#: "" when the element is wholly on screen and is what a thumb at its centre would hit
#: (``elementFromPoint``); otherwise what is wrong.
UNCOVERED = """(element) => {
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    return `off screen (top ${Math.round(box.top)}, bottom ${Math.round(box.bottom)})`;
  }
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit === element || element.contains(hit) ? "" : `covered by ${hit?.outerHTML}`;
}"""


phone = phone_at_each_size()


def test_anna_and_benn_are_asked_about_before_becoming_players(phone):
    phone.sign_in()
    phone.start_game("Ana", "Ben")
    # Ben2 is added on the players page (a new game would ask whether Ben was meant).
    phone.go("/leagues/our-table/players")
    phone.page.fill("#name", "Ben2")
    phone.page.click("button[type=submit].primary")
    phone.page.wait_for_load_state()
    phone.go("/games/new")
    phone.page.fill("#player0", "Anna")
    phone.page.fill("#player1", "Benn")
    phone.page.click("button[name=submit].primary")
    phone.page.wait_for_load_state()
    first = phone.page.locator("#player0-question")
    second = phone.page.locator("#player1-question")
    assert "Did you mean Ana?" in first.inner_text()
    assert "Did you mean one of these players?" in second.inner_text()
    offered = [b.inner_text() for b in second.locator("button[name=use_player1]").all()]
    assert offered == ["Use Ben", "Use Ben2"]
    use_ana = first.get_by_role("button", name="Use Ana")
    if phone.script:  # the script brings the first question to the screen
        assert phone.page.evaluate(UNCOVERED, first.element_handle()) == ""
    use_ana.scroll_into_view_if_needed()
    assert phone.page.evaluate(UNCOVERED, use_ana.element_handle()) == ""
    assert phone.overflow() == 0
    use_ana.click()
    phone.page.wait_for_load_state()
    # Benn is still asked about; Ana is now the first player.
    assert phone.page.locator("#player0").input_value() == "Ana"
    use_ben = phone.page.locator("#player1-question").get_by_role(
        "button", name="Use Ben", exact=True
    )
    use_ben.scroll_into_view_if_needed()
    assert phone.page.evaluate(UNCOVERED, use_ben.element_handle()) == ""
    use_ben.click()
    phone.page.wait_for_url(lambda url: "/games/" in url and "/new" not in url)
    assert "Ana vs Ben" in phone.text("h1")
