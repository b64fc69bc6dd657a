"""Issue 38's league evening on the three phones, with JavaScript and without, in English
and in French: the games in progress first on the home page, Tonight beside New game,
Copy on an invitation, the standings' phone layout, and how I am paid on my account."""

import pytest

from .conftest import Screen, phone_at_each_size

pytestmark = pytest.mark.browser

phone = phone_at_each_size()


def top(screen: Screen, selector: str) -> float:
    box = screen.page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"])


def whole_on_screen(screen: Screen, selector: str) -> bool:
    """Whether the first ``selector`` is drawn whole on the first screen, uncovered."""
    return bool(
        screen.page.locator(selector).first.evaluate(
            """(element) => {
                const box = element.getBoundingClientRect();
                const hit = document.elementFromPoint(box.left + box.width / 2,
                                                      box.top + box.height / 2);
                return box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth
                    && (hit === element || element.contains(hit));
            }"""
        )
    )


def test_the_games_in_progress_come_first_on_the_home_page(phone):
    phone.sign_in()
    phone.start_game("Ana", "Ben")
    for language, heading in (("en", "Games in progress"), ("fr", "Parties en cours")):
        phone.go(f"/language/{language}")
        phone.go("/")
        assert phone.text("#in-progress") == heading
        # Above the introduction, the game's row whole on the first screen.
        assert top(phone, "#in-progress") < top(phone, "section.intro > p")
        assert whole_on_screen(phone, "#in-progress ~ ul.games a"), phone.name
        assert phone.overflow() == 0
        phone.shot(f"home-in-progress-{language}")
