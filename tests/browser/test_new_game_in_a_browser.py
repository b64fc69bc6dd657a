"""A new game on a phone (issue 24, point 3): with the league's default rules it takes the
two names and at most 5 taps, Start is on the first screen as the page opens, and the
rules line opens every option — with and without JavaScript, in English and French."""

import re

from tests.browser.conftest import ARTIFACTS, phone_at_each_size

START = ".actions button[name=submit]"

#: The element's box is on screen and it is what is drawn at its centre and corners.
IN_VIEW = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return "missing";
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    return `off screen (top ${Math.round(box.top)}, bottom ${Math.round(box.bottom)})`;
  }
  const points = [[box.left + box.width / 2, box.top + box.height / 2],
                  [box.left + 10, box.top + 10], [box.right - 10, box.bottom - 10]];
  for (const [x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (hit !== element && !element.contains(hit)) {
      return `covered by ${hit && hit.outerHTML.slice(0, 60)}`;
    }
  }
  return "";
}"""


phone = phone_at_each_size("390x844", "360x640")


def test_the_names_and_start_are_a_new_game_start_in_view(phone):
    phone.sign_in()
    for language in ("fr", "en"):
        phone.page.context.add_cookies([{"name": "lang", "value": language, "url": phone.base}])
        phone.go("/games/new")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        phone.page.screenshot(path=str(ARTIFACTS / f"new-game-{language}-{phone.name}.png"))
        assert phone.page.evaluate(IN_VIEW, START) == "", language  # as the page opens
        assert phone.overflow() == 0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(ARTIFACTS / f"new-game-first-screen-{phone.name}.png"))
    summary = phone.text(".rules-choice > summary")
    assert summary == "Standard: to 1,200, skunk ×2, ×3 below zero · $1.00–$3.00 · Change"
    assert phone.page.locator("#target").is_visible() is False  # folded away

    phone.taps = 0
    phone.type("#player0", "Ana")
    phone.type("#player1", "Ben")
    phone.tap(START)
    phone.page.wait_for_url(re.compile(r".*/games/\d+(#play)?$"))
    assert phone.taps <= 5
    assert "Ana vs Ben" in phone.text("h1")
    assert "Standard · to 1,200" in phone.text(".rules-line")


def test_change_opens_every_option_and_start_uses_them(phone):
    phone.sign_in()
    phone.go("/games/new")
    phone.type("#player0", "Cleo")
    phone.type("#player1", "Dan")
    phone.tap(".rules-choice > summary")
    assert phone.page.locator("#target").is_visible()
    assert phone.text(".rules-choice > summary") == "Rules and stakes"
    phone.page.fill("#target", "1500")
    phone.page.fill("#small", "0.25")
    phone.page.locator(START).scroll_into_view_if_needed()
    phone.tap(START)
    phone.page.wait_for_url(re.compile(r".*/games/\d+(#play)?$"))
    line = phone.text(".rules-line")
    assert "to 1,500" in line
    assert "$0.25–$0.75" in line
