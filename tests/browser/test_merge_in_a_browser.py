"""Merging "Benn" into "Ben" on a phone (issue 37), with and without JavaScript, in English
and in French: from Benn's page, the page of what will move, one question, then Ben's page
with the game, the standings and the history."""

import re

import pytest

from tests.browser.conftest import ARTIFACTS, Screen, phone_at_each_size

phone = phone_at_each_size("390x844", "360x640")

WORDS = {
    "en": {
        "rename": "Rename or merge Benn…",
        "see": "See what will move",
        "moves": "Mille: 1",
        "yes": "Yes, merge Benn into Ben",
        "done": "Benn merged into Ben.",
        "history": "Benn merged into Ben: 1 game moved, with its records and payments.",
    },
    "fr": {
        "rename": "Renommer ou fusionner Benn…",
        "see": "Voir ce qui sera déplacé",
        "moves": "Mille : 1",
        "yes": "Oui, fusionner Benn avec Ben",
        "done": "Benn fusionné avec Ben.",
        "history": "Benn fusionné avec Ben : 1 partie déplacée, avec son bilan et ses paiements.",
    },
}


def add_players(screen: Screen, *names: str) -> None:
    for name in names:
        screen.go("/leagues/our-table/players")
        screen.type("#name", name)
        screen.tap("form button.primary")


def thumbable(screen: Screen, selector: str) -> None:
    """Each of the page's targets matching ``selector`` is a whole target for a thumb."""
    assert screen.unreachable(selector, scroll=True) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_benn_is_merged_into_ben(phone, language):
    words = WORDS[language]
    phone.sign_in()
    add_players(phone, "Ana", "Ben", "Benn")
    phone.start_game("Benn", "Ana")
    phone.record(0, (700, 300))
    phone.record(0, (600, 300))
    if language == "fr":
        phone.go("/language/fr")
    phone.go("/leagues/our-table/players")
    phone.page.get_by_role("link", name="Benn", exact=True).click()
    phone.tap(f"text={words['rename']}")
    phone.page.select_option("#into", label="Ben")
    phone.tap(f"button:has-text('{words['see']}')")
    phone.page.wait_for_url(re.compile(r".*/players/\d+/merge\?into=\d+$"))
    assert words["moves"] in phone.text()
    assert phone.overflow() == 0
    thumbable(phone, "main form button")
    if phone.script:  # axe-core runs as a script
        assert phone.accessibility_violations() == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(
        path=str(ARTIFACTS / f"merge-{language}-{phone.name}.png"), full_page=True
    )

    phone.tap(f"button:has-text('{words['yes']}')")
    phone.page.wait_for_url(re.compile(r".*/leagues/our-table/players/\d+$"))
    text = phone.text()
    assert words["done"] in text
    assert words["history"] in text
    assert phone.page.locator("h1").inner_text() == "Ben"
    assert phone.overflow() == 0
    phone.page.screenshot(
        path=str(ARTIFACTS / f"merged-{language}-{phone.name}.png"), full_page=True
    )

    phone.go("/leagues/our-table")
    # A row of its own under each player holds the rest on a phone (issue 38, point 14).
    rows = phone.page.locator("table.standings tbody tr:not(.row-more)").all_inner_texts()
    assert len(rows) == 2
    assert any(row.split()[0] == "Ben" for row in rows)
    assert not any("Benn" in row for row in rows)
