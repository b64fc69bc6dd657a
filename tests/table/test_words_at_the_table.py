"""Words an evening at the table tripped over (issue 24, point 10), in English and French:
a negative total after a minus, the winner's badge, French spaces before ; : ! ?, and the
Fix page of a locked game."""

import html
import re

import pytest
from babel.messages.pofile import read_po

from scorekeeper.models import Game, db
from tests.conftest import section

NBSP = "\u00a0"
CATALOG = "scorekeeper/translations/fr/LC_MESSAGES/messages.po"


def visible(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def skunked_game(table) -> int:
    """Ana wins 1,300 to −90: Ben's total rounds to −100."""
    game_id = table.start_game()
    assert table.record(game_id, 0, (600, -90)).status_code == 302
    assert table.record(game_id, 0, (700, 0), confirm=True).status_code == 302
    return game_id


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "rounded 1,300 − (−100): 14 × $1.00"), ("fr", "arrondi 1 300 − (−100) : 14 × 1,00 $")],
)
def test_a_negative_total_after_a_minus_is_in_brackets(table, language, expected):
    game_id = skunked_game(table)
    table.client.set_cookie("lang", language)
    settlement = " ".join(visible(section(table.page(game_id), "settlement")).split())
    assert expected in settlement.replace(NBSP, " ")
    assert "− −" not in settlement.replace(NBSP, " ")


def test_the_winner_s_badge_reads_as_a_sentence_in_french(table):
    game_id = skunked_game(table)
    table.client.set_cookie("lang", "fr")
    page = table.page(game_id)
    heading = re.search(r"<h2>Ana <span class=\"badge\">(.*?)</span></h2>", page)
    assert heading, "Ana's total has her badge"
    assert heading.group(1) == "a gagné"  # "Ana a gagné", not "Ana victoire"


def test_french_puts_a_no_break_space_before_each_of_semicolon_colon_and_marks():
    """Québec French as the catalog writes it: U+00A0 before ; : ! ? every time (never a
    plain space, never a narrow one, never none). URLs and times keep their colons."""
    with open(CATALOG, "rb") as file:
        catalog = read_po(file)
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            for found in re.finditer(r"(.)([;:!?])(.?.?)", text):
                before, mark, after = found.groups()
                if mark == ":" and (after.startswith("//") or before.isdigit()):
                    continue
                if mark in "?!" and after[:1].isalnum():
                    continue
                if before != NBSP:
                    wrong.append(text)
    assert wrong == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_locked_game_s_fix_page_says_so_and_offers_no_form(table, app, language):
    game_id = skunked_game(table)
    assert table.client.post(f"/games/{game_id}/paid").status_code == 302
    table.client.set_cookie("lang", language)
    response = table.client.get(f"/games/{game_id}/deals/1")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    main = page[page.index('<main id="main">') :]
    said = {
        "en": "This game is settled: its payment is marked paid, so it is locked.",
        "fr": f"Cette partie est réglée{NBSP}: son paiement est marqué comme payé",
    }
    assert said[language] in html.unescape(main)
    assert "<form" not in main
    posted = table.client.post(
        f"/games/{game_id}/deals/1", data={"out": "0", "score0": "650", "score1": "−90"}
    )
    assert posted.status_code == 409
    assert "<form" not in posted.get_data(as_text=True).split('<main id="main">')[1]
    with app.app_context():
        assert db.session.get(Game, game_id).deals[0].score0 == 600
