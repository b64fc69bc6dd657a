"""The deal form, whole on a phone's screen (issue 24, point 1).

On first load, after every save, with the offline banner and with a message shown, at
390×844, 360×640 and 320×568: who went out, both scores, every star control and Save are
on screen, and the centre of each is the control itself (``elementFromPoint``), not the
Save bar pinned over it. Where an on-screen keyboard shrinks the visual viewport, Save
follows it. Without JavaScript nothing scrolls the page to the form, so the same holds as
the page opens, at its top or at #play.
"""

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, Screen

pytestmark = pytest.mark.browser

SIZES = {
    "390x844": {"width": 390, "height": 844},
    "360x640": {"width": 360, "height": 640},
    "320x568": {"width": 320, "height": 568},
}

#: Every control of a deal, as a thumb finds it: the choices by their label.
CONTROLS = {
    "Ana went out": "label.choice.big:has(input[value='0'])",
    "Ben went out": "label.choice.big:has(input[value='1'])",
    "Ana's score": "#score0",
    "Ben's score": "#score1",
    "Ana's stars": "#stars0",
    "Ben's stars": "#stars1",
    "one star fewer for Ana": ".stepper:has(#stars0) button.step >> nth=0",
    "one more star for Ana": ".stepper:has(#stars0) button.step >> nth=1",
    "one star fewer for Ben": ".stepper:has(#stars1) button.step >> nth=0",
    "one more star for Ben": ".stepper:has(#stars1) button.step >> nth=1",
    "Save": "button.save",
}

#: "" when the element is wholly on screen (the visual viewport) and its centre is the
#: element itself or inside it; otherwise what is wrong.
UNCOVERED = """(element) => {
  const box = element.getBoundingClientRect();
  const height = window.visualViewport ? visualViewport.height : innerHeight;
  if (box.top < 0 || box.left < 0 || box.bottom > height || box.right > innerWidth) {
    const where = [box.top, box.bottom, height].map(Math.round);
    return `off screen (top ${where[0]}, bottom ${where[1]} of ${where[2]})`;
  }
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (hit === element || element.contains(hit)) return "";
  return `covered by ${hit && hit.outerHTML.slice(0, 70)}`;
}"""


#: Without the script a star count is a field of its own, with no − and + beside it.
NO_SCRIPT_CONTROLS = {name: found for name, found in CONTROLS.items() if "step" not in found}


def problems(screen: Screen, controls: dict[str, str] = CONTROLS) -> dict[str, str]:
    found = {}
    for name, selector in controls.items():
        locator = screen.page.locator(selector if ">>" in selector else f"{selector} >> nth=0")
        if locator.count() == 0:
            found[name] = "missing"
            continue
        found[name] = locator.evaluate(UNCOVERED)
    return {name: problem for name, problem in found.items() if problem}


def view_shot(screen: Screen, label: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screen.page.screenshot(path=str(ARTIFACTS / f"{label}-{screen.name}.png"))


@pytest.fixture(params=list(SIZES))
def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    context = browser.new_context(viewport=SIZES[request.param], is_mobile=True, has_touch=True)
    screen = Screen(context.new_page(), live_server, request.param)
    screen.context = context  # type: ignore[attr-defined]
    yield screen
    context.close()
    unexpected = screen.unexpected_errors()
    assert unexpected == [], unexpected


def test_every_control_of_a_deal_is_in_view_and_uncovered(phone):
    from playwright.sync_api import expect

    phone.sign_in()
    phone.start_game()
    url = phone.page.url.removeprefix(phone.base)
    phone.go(url)  # opened afresh, as from the list of games
    assert problems(phone) == {}, "first load"
    view_shot(phone, "form-first-load")
    for number, (out, scores, stars) in enumerate(
        [(1, (140, 350), (0, 1)), (0, (290, 160), (0, 0)), (0, (220, 80), (1, 0))], start=1
    ):
        phone.record(out, scores, stars)
        assert f"Deal {number} saved." in phone.text(".flashes")  # the message is shown
        assert problems(phone) == {}, f"after deal {number}"
    view_shot(phone, "form-after-a-save")

    # Offline: the banner goes above the totals, and the form stays whole on screen.
    phone.wait_until_kept_offline()
    phone.expected_errors.append("ERR_INTERNET_DISCONNECTED")
    phone.context.set_offline(True)  # type: ignore[attr-defined]
    expect(phone.page.locator("#offline-banner")).to_be_visible()
    assert problems(phone) == {}, "the banner shown"
    view_shot(phone, "form-offline-banner")
    phone.page.reload()  # opened from the phone, banner and all
    expect(phone.page.locator("#offline-banner")).to_be_visible()
    assert problems(phone) == {}, "opened offline"
    # A deal kept on the phone: its message, and the form ready for the next.
    phone.page.locator("label.choice.big:has(input[value='1'])").click()
    phone.page.fill("#score0", "100")
    phone.page.fill("#score1", "300")
    phone.page.locator("button.save").click()
    expect(phone.page.locator(".offline-said")).to_be_visible()
    assert problems(phone) == {}, "a deal kept offline"
    view_shot(phone, "form-kept-offline")


@pytest.mark.parametrize("size", list(SIZES))
def test_without_a_script_the_page_opens_with_the_whole_form_in_view(browser, live_server, size):
    """No script scrolls the page: opened at its top, and after each save at #play (where
    the redirect leads), the form fits between the totals and the bottom of the screen,
    and the Save bar pinned there covers none of it."""
    context = browser.new_context(
        viewport=SIZES[size], is_mobile=True, has_touch=True, java_script_enabled=False
    )
    phone = Screen(context.new_page(), live_server, size)
    phone.sign_in()
    phone.start_game()
    url = phone.page.url.removeprefix(phone.base)
    phone.go(url)  # opened afresh, as from the list of games
    assert phone.page.evaluate("scrollY") == 0
    assert phone.page.locator(".stepper button").count() == 0  # no script: plain fields
    assert problems(phone, NO_SCRIPT_CONTROLS) == {}, "first load"
    view_shot(phone, "form-no-script-first-load")
    for number, (out, scores, stars) in enumerate(
        [(1, (140, 350), (0, 1)), (0, (290, 160), (0, 0)), (0, (220, 80), (2, 0))], start=1
    ):
        phone.tap(f"label.choice.big:has(input[value='{out}'])")
        for seat in (0, 1):
            phone.type(f"#score{seat}", str(scores[seat]))
            phone.type(f"#stars{seat}", str(stars[seat]))
        phone.save()
        assert phone.page.url == f"{phone.base}{url}#play"
        assert phone.page.evaluate("scrollY") > 0  # the browser went to #play, past the head
        assert f"Deal {number} saved." in phone.text(".flashes")  # the message is shown
        assert problems(phone, NO_SCRIPT_CONTROLS) == {}, f"after deal {number}"
    assert phone.text(".summary .star-count") == "2 stars ★★"  # the stars typed were kept
    view_shot(phone, "form-no-script-after-a-save")
    context.close()
    assert phone.unexpected_errors() == []


def test_save_follows_a_keyboard_that_shrinks_the_visual_viewport(phone):
    phone.sign_in()
    phone.start_game()
    phone.page.locator("#score0").focus()
    # Chromium here has no on-screen keyboard: the visual viewport is made to shrink as
    # Safari's does for one (the page keeps its size), and says so with its resize event.
    height = phone.page.viewport_size["height"] * 0.55
    phone.page.evaluate(
        """(height) => {
            const shrunk = { get: () => height, configurable: true };
            Object.defineProperty(visualViewport, "height", shrunk);
            visualViewport.dispatchEvent(new Event("resize"));
        }""",
        height,
    )
    save = phone.page.locator("button.save")
    box = save.bounding_box()
    assert box["y"] + box["height"] <= height + 1  # above the keyboard
    assert box["y"] + box["height"] >= height - 20  # at its edge, under the thumb
    assert save.evaluate(UNCOVERED) == ""
    view_shot(phone, "form-keyboard")
    # The keyboard closes: Save goes back to the bottom of the page's own viewport.
    phone.page.evaluate(
        """() => {
            delete visualViewport.height;
            visualViewport.dispatchEvent(new Event("resize"));
        }"""
    )
    assert (
        phone.page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--keyboard')"
        )
        == "0px"
    )
