"""Issue 38's league evening on the three phones, with JavaScript and without, in English
and in French: the games in progress first on the home page, Tonight beside New game,
Copy on an invitation, the standings' phone layout, and how I am paid on my account."""

import re

import pytest

from scorekeeper.models import Role

from .conftest import Screen, ana_signs_in_as_her_player, phone_resized_to_each_size

pytestmark = pytest.mark.browser

phone = phone_resized_to_each_size()


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
    for _size in phone.each_size():
        for language, heading in (("en", "Games in progress"), ("fr", "Parties en cours")):
            phone.go(f"/language/{language}")
            phone.go("/")
            assert phone.text("#in-progress") == heading
            # Above the introduction, the game's row whole on the first screen.
            assert top(phone, "#in-progress") < top(phone, "section.intro > p")
            assert whole_on_screen(phone, "#in-progress ~ ul.games a"), phone.name
            assert phone.overflow() == 0
            phone.shot(f"home-in-progress-{language}")


def test_tonight_is_beside_new_game_in_the_header_and_on_the_home_page(phone):
    phone.sign_in()
    for _size in phone.each_size():
        for language, words in (("en", "Tonight"), ("fr", "Ce soir")):
            phone.go(f"/language/{language}")
            phone.go("/")
            # One line still, nothing wider than the screen.
            header = phone.page.locator("header.site").bounding_box()
            assert header is not None
            assert header["height"] <= 56, phone.name
            assert phone.overflow() == 0, phone.name
            shown = phone.page.locator("header.site nav > a").evaluate_all(
                "links => links.filter((a) => a.checkVisibility()).map((a) => a.textContent.trim())"
            )
            if phone.name.startswith("320") or (language == "fr" and phone.name.startswith("360")):
                # No room beside New game: the menu's first item.
                assert shown == [phone.text("header.site nav > a")], shown
                phone.page.click("header.site .site-menu summary")
                tonight = "header.site .menu-items a.nav-tonight"
                first = phone.page.locator("header.site .menu-items a").evaluate_all(
                    "links => links.filter((a) => a.checkVisibility())[0].textContent.trim()"
                )
                assert first == words
            else:
                tonight = "header.site nav > a.nav-tonight"
                assert shown[1] == words, shown
            assert phone.unreachable(tonight) == [], phone.name
            assert phone.page.locator("section.intro a.button", has_text=words).is_visible()
            phone.shot(f"home-tonight-{language}")
            phone.page.click(tonight)
            phone.page.wait_for_url(phone.base + "/leagues/our-table/tonight")
            assert words in phone.text("h1")


#: A share sheet where the phone has one (headless Chromium has none): it keeps what it got.
SHARE_SHEET = "navigator.share = async (data) => { window.shared = data; };"


def test_an_invitation_link_is_copied_in_one_tap_or_selected_without_a_script(phone):
    script = phone.script
    if script:
        phone.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.sign_in()
    words = (("en", "Copy", "Copied."), ("fr", "Copier", "Copié."))
    for share_sheet in (False, True) if script else (False,):
        if share_sheet:
            phone.page.add_init_script(SHARE_SHEET)
        for _size in phone.each_size():
            for language, copy, copied in words:
                phone.go(f"/language/{language}")
                phone.go("/leagues/our-table/members")
                phone.page.locator("#invitations .actions button").click()
                phone.page.wait_for_load_state()
                link = phone.text("#invitations .share-text")
                assert "/invitations/" in link
                # The page opens where the link is shown, this once.
                assert whole_on_screen(phone, "#invitations .share-text"), phone.name
                assert phone.overflow() == 0, phone.name
                if not script:
                    # One tap selects the whole link, for the phone's own Copy.
                    selected = phone.page.locator("#invitations .share-text").evaluate(
                        "(text) => getComputedStyle(text).userSelect"
                    )
                    assert selected == "all"
                    phone.shot(f"invitation-{language}")
                    continue
                button = phone.page.locator("#invitations .share button", has_text=copy)
                assert phone.unreachable("#invitations .share button") == [], phone.name
                button.click()
                phone.page.wait_for_selector(f"#invitations .copy-status:has-text('{copied}')")
                assert phone.page.evaluate("navigator.clipboard.readText()") == link
                if share_sheet:
                    phone.page.locator("#invitations .share-button").click()
                    assert phone.page.evaluate("window.shared.text") == link
                    phone.shot(f"invitation-{language}")


def test_the_standings_fit_a_phone_with_the_rating_in_view_and_the_rest_a_tap_away(phone):
    phone.sign_in()
    for first, second in (("Ana", "Benoît-Alexandre"), ("Cleo", "Ana")):
        phone.start_game(first, second)
        phone.record(0, (700, 300))
        phone.record(0, (600, 300))
    for _size in phone.each_size():
        for language, more, conservative in (
            ("en", "more", "Conservative"),
            ("fr", "plus", "Prudente"),
        ):
            phone.go(f"/language/{language}")
            phone.go("/leagues/our-table")
            assert phone.page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
            # Nor inside the table's own scrolling box.
            wrap = phone.page.locator("div.table-wrap:has(table.standings)")
            assert wrap.evaluate("(box) => box.scrollWidth <= box.clientWidth"), phone.name
            rows = phone.page.locator("table.standings tbody tr:not(.row-more)")
            assert rows.count() == 3
            for index in range(3):
                row = rows.nth(index)
                # The name, the record and the rating's ± (and the mark) drawn where they are,
                # uncovered and inside the screen: no sideways swipe.
                for cell in ("th.name a", "td.phone-only", "td.rating .spread", "td.rating"):
                    assert whole_on_screen_in(phone, row.locator(cell)), (phone.name, index, cell)
            assert phone.page.locator("td.rating .provisional").first.is_visible()
            # The rest a tap away: the conservative rating and what it is made from.
            details = phone.page.locator("tr.row-more details").first
            assert more in details.locator("summary").inner_text()
            details.locator("summary").click()
            shown = " ".join(details.inner_text().split())
            assert conservative in shown, shown
            assert phone.overflow() == 0
            phone.shot(f"standings-{language}")
            number, made_of = phone.page.evaluate(
                """() => { const dd = document.querySelector('tr.row-more details .whole dd');
                           return [dd.firstChild.textContent.trim(),
                                   dd.querySelector('.made-of').textContent.trim()]; }"""
            )
            found = re.fullmatch(r"=\s*([\d\s,]+?)\s*−\s*(\d)\s*×\s*([\d\s,]+)", made_of)
            assert found, made_of
            estimate, times, spread = found.groups()
            assert int(re.sub(r"\D", "", estimate)) - int(times) * int(spread) == int(
                re.sub(r"\D", "", number)
            )


def whole_on_screen_in(screen: Screen, locator) -> bool:
    return bool(
        locator.evaluate(
            """(element) => {
                // Scrolled to the middle of the screen, up or down only.
                const top = element.getBoundingClientRect().top + scrollY;
                window.scrollTo(0, top - innerHeight / 2);
                const box = element.getBoundingClientRect();
                const hit = document.elementFromPoint(box.left + box.width / 2,
                                                      box.top + box.height / 2);
                return box.width > 0 && box.left >= 0 && box.right <= innerWidth
                    && (hit === element || element.contains(hit) || hit?.contains(element));
            }"""
        )
    )


def test_a_player_says_how_they_are_paid_on_their_account_page(phone):
    ana_signs_in_as_her_player(phone, Role.VIEWER)
    for _size in phone.each_size():
        for language, title, saved in (
            ("en", "How I am paid in Our table", "Saved how you are paid."),
            (
                "fr",
                "Comment je suis payé·e dans Our table",
                "Enregistré : comment vous êtes payé·e.",
            ),
        ):
            phone.go(f"/language/{language}")
            phone.go("/account")
            assert phone.text("section.how-paid h2") == title
            assert whole_on_screen(phone, "section.how-paid h2"), phone.name  # first on the page
            phone.page.check("section.how-paid input[value=paypal]")
            phone.page.fill("section.how-paid input[type=text]", "Ana" + language)
            phone.page.locator("section.how-paid button[type=submit]").click()
            phone.page.wait_for_load_state()
            assert saved in phone.text(".flashes")
            value = phone.page.locator("section.how-paid input[type=text]").input_value()
            assert value == "Ana" + language
            assert phone.overflow() == 0
            phone.shot(f"account-how-paid-{language}")
