"""Offline, the game page shows the game as it would be with the deals kept on the phone
(issue 24, point 2): the totals, stars and chapeaux, progress, who deals next, the deal
number, the card's rows and Total, each marked "not yet saved" in words, in English and in
French; nothing stale (an old "Deal 1 saved.") stays on screen. Once the deals are sent,
the page is the server's again."""

from typing import Any

import pytest

from .conftest import ARTIFACTS, Screen

pytestmark = pytest.mark.browser


def _keep(screen: Screen, out: int, scores: tuple[int, int], stars: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    before = screen.page.locator("tr.unsaved-row").count()
    screen.page.locator(f"label.choice.big:has(input[value='{out}'])").click()
    screen.page.fill("#score0", str(scores[0]))
    screen.page.fill("#score1", str(scores[1]))
    for seat, count in enumerate(stars):
        screen.page.fill(f"#stars{seat}", str(count))
    screen.page.locator("button.save").click()
    expect(screen.page.locator("tr.unsaved-row")).to_have_count(before + 1)


def _state(screen: Screen) -> dict[str, Any]:
    """What the page shows as the game's state, as a reader sees and hears it."""
    return dict(
        screen.page.evaluate(
            """() => {
            const words = (selector) => [...document.querySelectorAll(selector)]
                .map((found) => found.textContent.replace(/[\\s\\u00a0\\u202f]+/g, " ").trim());
            return {
                totals: words("main .summary .total"),
                marks: words("main .summary .marks"),
                dealer: words("main .summary .next-dealer")[0],
                form: words("#deal-form h2")[0],
                foot: words("main .scorecard tfoot td .total"),
                progress: [...document.querySelectorAll("main .summary .progress")]
                    .map((bar) => [bar.getAttribute("aria-valuenow"),
                                   bar.getAttribute("aria-valuetext"),
                                   bar.querySelector(".bar").className]),
                flashes: [...document.querySelectorAll("main .flashes")]
                    .filter((shown) => shown.checkVisibility()).length,
            };
        }"""
        )
    )


def test_offline_the_page_shows_the_provisional_game_marked_not_yet_saved(phone):
    from playwright.sync_api import expect

    phone.sign_in()
    phone.start_game()  # Ana deals first
    phone.record(0, (290, 160))
    assert "Deal 1 saved." in phone.text(".flashes")
    phone.go_offline()
    expect(phone.page.locator("#offline-banner")).to_be_visible()
    _keep(phone, 1, (-50, 350), (0, 1))  # Ana's chapeau, Ben's star
    _keep(phone, 0, (220, 80), (1, 0))
    state = _state(phone)
    assert state["totals"] == ["Total 460 not yet saved", "Total 590 not yet saved"]
    assert state["marks"] == [
        "1 star ★ · 1 chapeau not yet saved",
        "1 star ★ · 0 chapeaux not yet saved",
    ]
    assert state["dealer"] == "Deal 4: Ben deals next. not yet saved"
    assert state["form"] == "Deal 4"
    assert state["foot"] == ["460 not yet saved", "590 not yet saved"]
    assert state["progress"] == [
        ["460", "460 of 1,200 (not yet saved)", "bar w35"],
        ["590", "590 of 1,200 (not yet saved)", "bar w45"],
    ]
    assert state["flashes"] == 0  # no "Deal 1 saved." left from before
    phone.shot("offline-state")
    phone.page.locator("main .summary").screenshot(path=str(ARTIFACTS / "offline-totals.png"))
    phone.page.locator("main .scorecard").screenshot(path=str(ARTIFACTS / "offline-card.png"))

    # Opened again from the phone, still offline: the same state, not the cached one.
    phone.page.reload()
    assert _state(phone)["totals"] == ["Total 460 not yet saved", "Total 590 not yet saved"]
    assert _state(phone)["flashes"] == 0

    # Back online: the deals are sent and every figure is the server's, unmarked.
    phone.context.set_offline(False)  # type: ignore[attr-defined]
    expect(phone.page.locator("#deal-3")).to_be_visible(timeout=15000)
    state = _state(phone)
    assert state["totals"] == ["Total 460", "Total 590"]
    assert state["dealer"] == "Deal 4: Ben deals next."
    assert state["foot"] == ["460", "590"]
    assert "not yet saved" not in phone.text("main .summary")


def test_the_provisional_state_speaks_french_from_the_page(phone):
    from playwright.sync_api import expect

    phone.sign_in()
    phone.start_game()
    phone.from_menu("a.language[lang=fr]")
    phone.page.wait_for_load_state()
    phone.go_offline()
    expect(phone.page.locator("#offline-banner")).to_be_visible()
    _keep(phone, 0, (1200, 0), (2, 0))
    state = _state(phone)
    assert state["totals"][0] == "Total 1 200 pas encore enregistrée"
    assert state["marks"][0] == "2 étoiles ★★ · 0 chapeau pas encore enregistrée"
    assert state["dealer"].startswith("Donne 2")
    assert state["dealer"].endswith("pas encore enregistrée")
    assert "Ben" in state["dealer"]
    assert state["foot"] == []  # no deal saved yet: the kept one has its own rows
    assert phone.page.locator("main .scorecard > p.muted").is_hidden()  # "no deal yet"
    # The list of kept deals in French words and typography: a no-break space before ":".
    kept = phone.page.locator(".unsaved-list li").all_text_contents()
    assert len(kept) == 1
    assert kept[0].startswith("Donne 1\u00a0: "), repr(kept[0])
    assert kept[0].endswith(" — pas encore enregistrée"), repr(kept[0])
    phone.shot("offline-state-fr")
