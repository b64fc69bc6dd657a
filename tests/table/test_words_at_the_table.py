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


#: What a page's words are: its text (a screen reader's words too) and the words of its
#: labels, without its scripts, styles, code and the values typed in its fields.
HIDDEN_FROM_WORDS = re.compile(r"<(script|style|pre|code|textarea)\b.*?</\1>", re.S)
SAID_IN_ATTRIBUTES = re.compile(r'\s(?:aria-label|title|alt|placeholder)="([^"]*)"')


def words_of(page: str) -> list[str]:
    page = HIDDEN_FROM_WORDS.sub(" ", page)
    said = [html.unescape(found) for found in SAID_IN_ATTRIBUTES.findall(page)]
    return [html.unescape(re.sub(r"<[^>]+>", "", page)), *said]


def badly_spaced(text: str) -> list[str]:
    """Each ; : ! ? in French text without a no-break space before it (a URL's, a time's
    and a query's excepted), with the words around it."""
    wrong = []
    for found in re.finditer(r"(.)([;:!?])(.?.?)", text, re.S):
        before, mark, after = found.groups()
        if mark == ":" and (after.startswith("//") or before.isdigit()):
            continue
        if mark in "?!" and after[:1].isalnum():
            continue
        if before != NBSP:
            wrong.append(" ".join(text[max(0, found.start() - 30) : found.end() + 10].split()))
    return wrong


def test_every_page_s_french_words_put_a_no_break_space_before_each_mark(table, app):
    """Every page a French reader reaches from the home page (a game in progress, one
    finished, another game's, their Fix pages, the league's pages), as rendered: its words
    and its screen-reader text put U+00A0 before ; : ! ?, as the catalog does (issue 38,
    point 18: the catalog's test missed "; total", a message that starts with its mark)."""
    from tests.table.kind_helpers import post_deal, start

    in_progress = table.start_game()
    assert table.record(in_progress, 0, (290, 160)).status_code == 302
    finished = skunked_game(table)
    other = start(app, "knock-rummy")
    fields = {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14", "counts_3": "2"}
    assert post_deal(table.client, other, fields).status_code == 302
    table.client.set_cookie("lang", "fr")
    to_read = ["/", *(f"/games/{game}" for game in (in_progress, finished, other))]
    read: set[str] = set()
    wrong: dict[str, list[str]] = {}
    while to_read and len(read) < 120:
        path = to_read.pop(0)
        if path in read:
            continue
        read.add(path)
        response = table.client.get(path)
        page = response.get_data(as_text=True)  # read whole: a streamed export ends too
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        for text in words_of(page[page.index("<body") :]):
            if found := badly_spaced(text):
                wrong.setdefault(path, []).extend(found)
        for link in re.findall(r'href="(/[^"#]*)', page):
            link = html.unescape(link)
            leaves = link.startswith(("/static/", "/language/", "/logout"))
            if not leaves and link not in read:
                to_read.append(link)
    assert f"/games/{in_progress}" in read
    assert len(read) > 20
    assert wrong == {}, "\n".join(f"{path}: {found}" for path, found in wrong.items())
