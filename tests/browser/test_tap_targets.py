"""Every tap target of the game pages is a thumb's 44 × 44 px at least, at the three phone
sizes, with and without a script: each link, button, summary, field and choice of a game in
progress (as it opens, with a deal refused and with one questioned), its Fix and Count
pages, the finished game with its settlement, and the card a player follows by their link.

Each target is brought to the middle of the screen and must be the element found at its
centre (``elementFromPoint``): whole, and under nothing.
"""

import re

import pytest

from .conftest import Screen, phone_resized_to_each_size

pytestmark = pytest.mark.browser


#: What a thumb taps. A radio button or a checkbox is tapped through its label, which is the
#: target to measure; the skip link shows only to the keyboard; the site's menu has its own
#: test (test_phone_header.py).
TARGETS = (
    "a[href]:not(.skip), button, summary, select, textarea, "
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), "
    "label:has(input[type=radio]), label:has(input[type=checkbox])"
)


def small_targets(screen: Screen) -> list[str]:
    """The page's targets under 44 × 44 px or covered, with every ``<details>`` opened (the
    history, "More sets") except the site's menu."""
    screen.page.evaluate(
        "document.querySelectorAll('main details').forEach((d) => { d.open = true; })"
    )
    return screen.unreachable(TARGETS, scroll=True, skip=".menu-items")


Deal = tuple[int, tuple[int, int], tuple[int, int]]


def record(phone: Screen, game: str, deal: Deal) -> None:
    """A deal typed in from the top of the game page (stars typed: no steppers without a
    script)."""
    out, scores, stars = deal
    phone.go(game)
    phone.page.check(f"input[name=out][value='{out}']")
    for seat in (0, 1):
        phone.page.fill(f"#score{seat}", str(scores[seat]))
        phone.page.fill(f"#stars{seat}", str(stars[seat]))
    phone.save()


phone = phone_resized_to_each_size()


def test_every_target_of_the_game_pages_takes_a_thumb(phone, wikipedia_card):
    """Set up once with the script and once without; each page looked at on each phone,
    loaded afresh at its size (a refused or questioned deal: sent again, as neither is
    saved)."""
    phone.expected_errors.append("status of 422")  # the refused deal, sent by the script
    phone.sign_in()
    phone.start_game("Ana", "Benoît-Alexandre")
    game = phone.page.url.split("#")[0].removeprefix(phone.base)
    seen: dict[str, list[str]] = {}

    def look(where: str, path: str = "", deal: Deal | None = None) -> None:
        for size in phone.each_size():
            if deal:
                record(phone, game, deal)
            else:
                phone.go(path or game)
            seen[f"{where} at {size}"] = small_targets(phone)

    look("a game, as it opens")
    for deal in wikipedia_card[:3]:
        record(phone, game, deal)
    look("after three deals")
    look("a deal refused", deal=(0, (102, 50), (0, 0)))
    look("a deal questioned", deal=(0, (1500, 50), (0, 0)))
    look("Fix deal 2", game + "/deals/2")
    look("Count", game + "/count")
    for size in phone.each_size():
        phone.go(game)
        phone.page.click("button:has-text('Show the card to Ana')")
        phone.page.wait_for_load_state()
        seen[f"the card shown to Ana at {size}"] = small_targets(phone)
    link = phone.page.locator("a.share-link").inner_text()
    for deal in wikipedia_card[3:]:
        record(phone, game, deal)
    assert phone.page.locator(".settlement").count() == 1
    look("the game over")
    look("Ana's own card", re.sub(r"^https?://[^/]+", "", link))
    assert len(seen) == 9 * len(phone.sizes)
    assert {where: found for where, found in seen.items() if found} == {}


OVERLAPS = """(selector) => {
  const form = document.querySelector('.deal-form').getBoundingClientRect();
  const boxes = [...document.querySelectorAll(selector)]
    // The Save bar is pinned to the screen's foot: the form scrolls under it by design.
    .filter((e) => e.closest('.deal-form') && !e.closest('.actions') && e.getClientRects().length)
    .map((e) => [e.getAttribute('aria-label') || e.id || e.textContent.trim(),
                 e.getBoundingClientRect()]);
  const found = [];
  boxes.forEach(([name, box], i) => {
    if (box.left < form.left || box.right > form.right) found.push(`${name} leaves the form`);
    boxes.slice(i + 1).forEach(([other, next]) => {
      const apart = box.right <= next.left || next.right <= box.left
        || box.bottom <= next.top || next.bottom <= box.top;
      if (!apart) found.push(`${name} overlaps ${other}`);
    });
  });
  return found;
}"""


def test_the_deal_forms_targets_lie_side_by_side_inside_it(phone):
    """At 320 px the two players' star steppers once overlapped by 10 px, and the second
    one's "+" stuck out of the form: each target is whole at its centre, so the check
    above did not see it."""
    phone.sign_in()
    phone.start_game("Ana", "Benoît-Alexandre")
    game = phone.page.url.split("#")[0]
    found = {}
    for size in phone.each_size():
        phone.page.goto(game)
        found[size] = phone.page.evaluate(OVERLAPS, TARGETS)
    assert found == {size: [] for size in phone.sizes}
