"""The table in a real browser: a whole game by tapping and typing, at phone and desktop size."""

import re

import pytest

pytestmark = pytest.mark.browser


def test_the_wikipedia_score_card_by_tapping_and_typing(screen, wikipedia_card):
    screen.sign_in()
    screen.go("/games/new")
    screen.shot("new-game")
    screen.start_game()
    screen.shot("game-started")
    first, *rest = wikipedia_card
    assert screen.record(*first) == 4  # one tap, two numbers, one tap to save
    # Deal 2 is mistyped (280 instead of 290) and fixed after deal 4.
    out, scores, stars = rest[0]
    screen.record(out, (280, scores[1]), stars)
    for deal in rest[1:3]:
        screen.record(*deal)
    assert "Deal 5: Ana deals next." in screen.text(".next-dealer")
    screen.shot("game-in-progress")
    screen.tap("a:has-text('Fix deal 2')")
    screen.type("#score0", "290")
    screen.save()
    assert "Deal 2 corrected" in screen.text(".flashes")
    for deal in rest[3:]:
        screen.record(*deal)

    card = screen.page.locator(".scorecard")
    assert card.locator(".circled").inner_text() == "540"
    assert "(chapeau)" in card.locator("#deal-4").inner_text()
    assert card.locator("#deal-3 .stars").inner_text() == "★"
    assert card.locator("#deal-5 .stars").inner_text() == "★"
    assert screen.page.locator(".progress").count() == 2
    assert screen.page.locator(".progress").first.get_attribute("aria-valuetext") == (
        "1,275 of 1,200"
    )
    settlement = screen.text(".settlement")
    assert "Total $10.00" in settlement
    assert "Ben pays Ana $10.00" in settlement
    screen.shot("game-settled")


def test_pages_pass_the_accessibility_check(screen, wikipedia_card):
    for path in ("/login",):
        screen.go(path)
        assert screen.accessibility_violations() == [], path
        assert screen.overflow() == 0, path
    screen.sign_in()
    screen.start_game()
    game_url = screen.page.url
    for deal in wikipedia_card:
        screen.record(*deal)
    for url in (
        screen.base + "/",
        screen.base + "/games/new",
        game_url,
        game_url + "/deals/2",
        game_url + "/deals/2/count",
        screen.base + "/account",
        screen.base + "/leagues/our-table/players",
        screen.base + "/leagues/our-table/payments",
        screen.base + "/leagues/our-table/seasons",
        screen.base + "/leagues/our-table/settings",
        screen.base + "/leagues/our-table/members",
        screen.base + "/leagues/our-table/import",
    ):
        assert screen.page.goto(url).ok, url
        assert screen.accessibility_violations() == [], url
        assert screen.duplicate_ids() == [], url
        assert screen.overflow() == 0, url  # nothing scrolls sideways on a phone


def tab_to(page, selector, limit=40):
    """Press Tab until the element matching ``selector`` has the focus; return the presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            return presses
    raise AssertionError(f"{selector} can't be reached with Tab")


def test_a_deal_by_keyboard_alone(screen):
    screen.sign_in()
    screen.start_game()
    page = screen.page
    tab_to(page, "input[name=out]")
    page.keyboard.press("ArrowRight")  # radios: arrows choose, here the second player
    page.keyboard.press("Space")
    assert tab_to(page, "#score0") == 1  # straight on to the scores
    page.keyboard.type("140")
    assert tab_to(page, "#score1") <= 2  # past the ± button
    page.keyboard.type("350")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert "Deal 1 saved." in screen.text(".flashes")
    assert screen.page.locator("#deal-1 td.seat1.went-out").count() == 1  # Ben went out


def test_signing_out_and_in(screen):
    screen.sign_in()
    screen.from_menu("button:has-text('Sign out')")
    assert "You are signed out." in screen.text(".flashes")
    assert screen.page.locator("header.site a:has-text('Sign in')").count() == 1


def test_a_save_without_network_says_so_and_the_same_tap_retries_once(screen, browser):
    screen.sign_in()
    screen.start_game()
    page = screen.page
    screen.tap("label.choice.big:has(input[value='0'])")
    screen.type("#score0", "140")
    screen.type("#score1", "350")
    page.context.set_offline(True)
    screen.expected_errors.append("ERR_INTERNET_DISCONNECTED")
    screen.tap("button.save")
    # With no network the deal is kept on the phone (static/offline.js), not lost.
    said = page.locator(".offline-said")
    said.wait_for(state="visible")
    assert "Kept on this phone" in said.inner_text()
    assert page.locator("tr.unsaved-row").count() == 1
    page.context.set_offline(False)  # sent by itself when the network is back, once
    page.locator(".scorecard tbody tr#deal-1").wait_for(timeout=15000)
    assert "Deal 1 saved." in screen.text(".flashes")
    assert page.locator(".scorecard tbody tr").count() == 1


@pytest.mark.without_service_worker  # once static/sw.js controls the page, it does the fetch
def test_a_reply_lost_on_the_way_back_is_not_recorded_twice(screen):
    """The deal reached the server but the answer didn't: the retry is recognised."""
    screen.sign_in()
    screen.start_game()
    page = screen.page
    dropped = []

    def drop_first_answer(route):
        if not dropped:
            dropped.append(route.request.url)
            route.fetch()  # the server records the deal…
            route.abort("connectionreset")  # …but the phone never hears back
        else:
            route.continue_()

    page.route("**/deals", drop_first_answer)
    screen.expected_errors.append("ERR_CONNECTION_RESET")
    screen.tap("label.choice.big:has(input[value='1'])")
    screen.type("#score0", "140")
    screen.type("#score1", "350")
    screen.tap("button.save")
    page.locator(".connection-status").wait_for(state="visible")
    screen.tap("button.save")
    page.wait_for_url(re.compile(r".*/games/\d+#play$"))
    page.wait_for_load_state()
    assert "already saved" in screen.text(".flashes")
    assert page.locator(".scorecard tbody tr").count() == 1


def test_a_game_in_french_down_to_the_script_s_buttons(screen, wikipedia_card):
    screen.sign_in()
    screen.from_menu("a.language[lang=fr]")
    screen.page.wait_for_load_state()
    screen.start_game()
    page = screen.page
    assert page.locator("html").get_attribute("lang").startswith("fr")
    # The buttons app.js adds take their names from the page, in French.
    assert page.get_by_role("button", name="Une étoile de plus (Étoiles d'Ana)").count() == 1
    # Each ± names whose score it changes (issue 38, point 17).
    for sign in ("Changer le signe des points d'Ana", "Changer le signe des points de Ben"):
        assert page.get_by_role("button", name=sign, exact=True).count() == 1
    for deal in wikipedia_card:
        screen.record(*deal)
    progress = page.locator(".progress").first.get_attribute("aria-valuetext")
    assert progress == "1\xa0275 sur 1\xa0200"  # French groups with a no-break space
    assert "Ben paie 10,00 $ à Ana" in screen.text(".settlement")
    screen.shot("game-settled-fr")


def test_save_is_in_thumb_reach_without_scrolling(screen, wikipedia_card):
    screen.sign_in()
    screen.start_game()
    for deal in wikipedia_card[:4]:
        screen.record(*deal)
    viewport = screen.page.viewport_size
    save = screen.page.locator("button.save").bounding_box()
    assert save["y"] >= 0
    assert save["y"] + save["height"] <= viewport["height"]  # on screen as the page opens
    assert save["width"] >= min(300, viewport["width"] * 0.6)  # wide: easy to hit


def test_a_refused_deal_puts_its_first_problem_in_view_and_focus(screen, wikipedia_card):
    screen.sign_in()
    screen.start_game()
    for deal in wikipedia_card[:4]:  # a score card long enough to push the form down
        screen.record(*deal)
    screen.expected_errors.append("status of 422")  # the refusal, as the browser logs it
    screen.record(0, (17, 5000))
    assert "multiples of 5" in screen.text("#score0-error")
    assert screen.page.evaluate("document.activeElement.id") == "score0"
    viewport = screen.page.viewport_size
    save = screen.page.locator("button.save").bounding_box()
    for message in ("#score0-error", "#score1-error"):
        box = screen.page.locator(message).bounding_box()
        assert box["y"] >= 0, message
        assert box["y"] + box["height"] <= viewport["height"], message
        assert box["y"] + box["height"] <= save["y"], f"{message} is under the Save bar"
    assert "Deal 5" in screen.text(".deal-form h2")  # nothing was saved


def test_a_field_reached_with_the_keyboard_is_not_under_the_save_bar(screen, wikipedia_card):
    """With the on-screen keyboard up the view is short: tabbing from a score to the stars
    brings each field above the sticky Save bar, not behind it."""
    screen.sign_in()
    screen.start_game()
    for deal in wikipedia_card[:2]:
        screen.record(*deal)
    width = screen.page.viewport_size["width"]
    screen.page.set_viewport_size({"width": width, "height": 460})  # a keyboard's worth less
    screen.page.focus("#score0")
    for field in ("score1", "stars0", "stars1"):
        tab_to(screen.page, f"#{field}")
        box = screen.page.locator(f"#{field}").bounding_box()
        bar = screen.page.locator(".deal-form .actions").bounding_box()
        assert box["y"] >= 0, field
        assert box["y"] + box["height"] <= bar["y"], f"{field} is under the Save bar"


def test_an_import_shows_its_progress_in_the_browser(screen):
    """The progress page comes gzip-compressed part by part (web/streaming.py): Chromium
    reads it to its last line."""
    screen.sign_in()
    rows = ["game,date,player_a,player_b,out,score_a,score_b"] + [
        f"{n},2024-01-{n % 28 + 1:02d},Ana,Ben,{'ab'[n % 2]},1200,100" for n in range(300)
    ]
    page = screen.page
    page.goto(screen.base + "/leagues/our-table/import")
    page.check("input[name=format][value=csv]")
    csv = "\n".join(rows).encode()
    page.set_input_files(
        "input[name=file]", {"name": "cards.csv", "mimeType": "text/csv", "buffer": csv}
    )
    with page.expect_navigation():
        page.click("main button[type=submit]")
    page.wait_for_load_state()
    lines = page.locator("ol.progress-lines li").all_inner_texts()
    assert lines[0] == "Saved 250 of 300 games…"
    assert lines[-1] == "Imported 300 games (300 deals)."
