"""Abandoning a game and restoring it on a phone (issue 24, point 4), with and without
JavaScript: the question opens, the second button does it, the page says so, and the
league's games in progress no longer list it."""

import re

from tests.browser.conftest import ARTIFACTS, Screen, phone_at_each_size

phone = phone_at_each_size("390x844", "360x640")


def in_view(screen: Screen, selector: str) -> bool:
    """The element's centre is on screen and the element itself is what is drawn there."""
    return bool(
        screen.page.locator(selector).first.evaluate(
            """element => {
                const box = element.getBoundingClientRect();
                const x = box.left + box.width / 2, y = box.top + box.height / 2;
                if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
                const found = document.elementFromPoint(x, y);
                return found === element || element.contains(found);
            }"""
        )
    )


def test_a_game_is_abandoned_after_one_question_and_restored(phone):
    phone.sign_in()
    phone.start_game("Ana", "Ben")
    game_url = phone.page.url
    phone.record(0, (290, 160))
    question = phone.page.locator("details.abandon")
    question.scroll_into_view_if_needed()
    assert phone.page.locator("details.abandon button.danger").is_visible() is False
    phone.page.locator("details.abandon summary").click()
    yes = phone.page.locator("details.abandon button.danger")
    yes.scroll_into_view_if_needed()
    assert in_view(phone, "details.abandon button.danger")
    box = yes.bounding_box()
    assert box["height"] >= 44
    assert box["width"] >= 44
    summary = phone.page.locator("details.abandon summary").bounding_box()
    assert summary["height"] >= 44
    yes.click()
    phone.page.wait_for_url(re.compile(r".*/games/\d+#play$"))
    text = phone.text()
    assert "Game abandoned. It no longer counts anywhere" in text
    assert re.search(r"admin abandoned this game on ", text)
    assert phone.page.locator("#deal-form").count() == 0
    assert phone.overflow() == 0
    if phone.script:  # axe-core runs as a script
        assert phone.accessibility_violations() == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(ARTIFACTS / f"game-abandoned-{phone.name}.png"))

    phone.go("/leagues/our-table")
    assert game_url.rsplit("/", 1)[1] not in [
        href.rsplit("/", 1)[-1]
        for href in phone.page.locator("main a").evaluate_all("links => links.map(a => a.href)")
    ]

    phone.go(game_url.replace(phone.base, ""))
    phone.page.locator("form[action$='/restore'] button").click()
    phone.page.wait_for_url(re.compile(r".*/games/\d+#play$"))
    assert "Game restored. It counts again." in phone.text()
    assert phone.page.locator("#deal-form").count() == 1
