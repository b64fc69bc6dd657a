"""English and French: every string translated, the language chosen and switched, and
numbers and money written the French way (issue 6).

The catalog checks read the same sources as ``pybabel extract -F babel.cfg`` (README,
"Translations"), so a string marked in the code or a template but missing from the
French catalog fails here, and so does a template sentence that isn't marked at all.
"""

import ast
import html
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from jinja2 import Environment

from scorekeeper.engine import Stakes, counted_cards, counting, games, tally
from scorekeeper.models import Game, db
from scorekeeper.web.messages import PROBLEMS

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations" / "fr" / "LC_MESSAGES"
#: The keywords of the README's ``pybabel extract`` command (Babel's defaults, and ours).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "lazy_ngettext": (1, 2),
}
NBSP = "\u00a0"


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """babel.cfg's sections as Babel's extraction API takes them."""
    from configparser import ConfigParser

    parser = ConfigParser()
    parser.read(ROOT / "babel.cfg")
    method_map, options = [], {}
    for section in parser.sections():
        method, pattern = (part.strip() for part in section.split(":", 1))
        method_map.append((pattern, method))
        options[pattern] = dict(parser.items(section))
    return method_map, options


def extracted_ids() -> set[object]:
    """Every message the code and the templates mark for translation."""
    method_map, options = _method_map()
    found: set[object] = set()
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options, keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def french_catalog():
    with open(TRANSLATIONS / "messages.po", "rb") as po:
        return read_po(po, locale="fr")


def key(message_id: object) -> object:
    return message_id if isinstance(message_id, str) else tuple(message_id)


# --- The catalog ------------------------------------------------------------------


def test_every_marked_string_has_a_french_translation() -> None:
    catalog = french_catalog()
    translated = {
        key(m.id): m
        for m in catalog
        if m.id and not m.fuzzy and all(isinstance(s, str) and s.strip() for s in _strings(m))
    }
    missing = sorted(map(str, extracted_ids() - set(translated)))
    assert not missing, "not translated in messages.po (pybabel update, then translate):\n" + (
        "\n".join(missing)
    )


def test_the_catalog_holds_no_message_the_sources_no_longer_use() -> None:
    stale = {key(m.id) for m in french_catalog() if m.id} - extracted_ids()
    assert not stale, (
        f"obsolete in messages.po (pybabel update drops them): {sorted(map(str, stale))}"
    )


def test_the_translations_keep_every_placeholder_of_their_english() -> None:
    problems = [
        f"{message.id!r}: {error}"
        for message, errors in french_catalog().check()
        for error in errors
    ]
    assert not problems, "\n".join(problems)


def test_the_compiled_catalog_is_the_po_file_compiled() -> None:
    """messages.mo ships with the package: it must say what messages.po says."""
    compiled = io.BytesIO()
    write_mo(compiled, french_catalog())
    compiled.seek(0)
    with open(TRANSLATIONS / "messages.mo", "rb") as shipped:
        expected, actual = read_mo(compiled), read_mo(shipped)
    as_dict = lambda catalog: {key(m.id): m.string for m in catalog if m.id}  # noqa: E731
    assert as_dict(actual) == as_dict(expected), "run pybabel compile -d scorekeeper/translations"


def _strings(message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


def test_each_code_the_engine_reports_has_one_sentence_in_the_catalog() -> None:
    """The engine words nothing; every code it can report is worded once, in PROBLEMS,
    and the catalog words nothing the engine can't report."""
    engine = {*tally.CODES, *counting.CODES, *counted_cards.CODES, *games.CODES}
    assert engine == set(PROBLEMS)
    engine_source = "".join(
        path.read_text() for path in (ROOT / "scorekeeper" / "engine").rglob("*.py")
    )
    for code, sentence in PROBLEMS.items():
        assert str(sentence) not in engine_source, code  # not written twice


# --- Templates: no sentence left unmarked ----------------------------------------------

#: Calls whose string arguments are translated.
GETTEXT_CALLS = {"_", "gettext", "ngettext"}
#: Words a template may show as they are, in any language.
UNTRANSLATED = {"Q♠", "J♦"}


def _unmarked(source: str) -> list[str]:
    """Template text outside ``{{ _() }}`` and ``{% trans %}``: visible words (between
    tags, or in a label attribute) and prose string literals outside a gettext call."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    found, pieces, calls = [], [], []
    in_trans = block_start = False
    previous_name = None
    for _line, kind, value in env.lex(source):
        if kind == "whitespace":
            continue
        if kind == "string":
            value = ast.literal_eval(value)
        if kind == "block_begin":
            block_start = True
            continue
        if kind == "name" and block_start:
            in_trans = value == "trans" or (in_trans and value != "endtrans")
        block_start = False
        if kind == "data":
            pieces.append("\x00" if in_trans else value)
        elif kind in ("variable_begin", "block_begin"):
            pieces.append("\x00")
        elif kind == "name":
            previous_name = value
            continue
        elif kind == "operator" and value == "(":
            calls.append(previous_name)
        elif kind == "operator" and value == ")" and calls:
            calls.pop()
        elif kind == "string" and not in_trans:
            prose = re.search(r"[A-Za-z]", value) and (" " in value or re.search(r"[A-Z]", value))
            if prose and not (calls and calls[-1] in GETTEXT_CALLS):
                found.append(f"string {value!r}")
        previous_name = None
    text = "".join(pieces)
    for attribute in re.finditer(r'(?:aria-label|title|alt|placeholder)="([^"\x00]*)"', text):
        if re.search(r"[A-Za-z]", attribute[1]):
            found.append(f"attribute {attribute[0]!r}")
    text = re.sub(r"<!--.*?-->|<[^>]*>", " ", text, flags=re.S)
    for word in re.findall(r"[^\s\x00]*[A-Za-z][^\s\x00]*", html.unescape(text)):
        if word.strip(".,;:()") not in UNTRANSLATED:
            found.append(f"text {word!r}")
    return found


TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_every_template_sentence_is_marked_for_translation(path: Path) -> None:
    assert _unmarked(path.read_text()) == []


def test_the_template_check_finds_unmarked_text() -> None:
    assert _unmarked("<p>Score card</p>") == ["text 'Score'", "text 'card'"]
    assert _unmarked('<nav aria-label="Main">') == ["attribute 'aria-label=\"Main\"'"]
    assert _unmarked("{{ field(f, hint='Leave it empty') }}") == ["string 'Leave it empty'"]
    assert _unmarked("<p>{{ _('Score card') }} {% trans %}Who went out?{% endtrans %}</p>") == []
    assert _unmarked("{{ url_for('table.game', game_id=1) }} {{ x|join(' / ') }}") == []


# --- Choosing the language ------------------------------------------------------------


def test_english_is_the_default(client) -> None:
    page = client.get("/leagues").get_data(as_text=True)
    assert '<html lang="en-CA">' in page
    assert ">Leagues</h1>" in page
    assert 'href="/language/fr?next=/leagues" hreflang="fr" lang="fr">Français</a>' in page


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("fr-CA,fr;q=0.9,en;q=0.5", "fr"),
        ("fr", "fr"),
        ("fr-FR, en;q=0.1", "fr"),
        ("de-DE, fr;q=0.5", "fr"),
        ("en-US,en;q=0.9,fr;q=0.8", "en"),
        ("de-DE", "en"),
        ("*", "en"),
    ],
)
def test_the_browser_language_is_used_when_none_was_chosen(client, header, language) -> None:
    page = client.get("/leagues", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'<html lang="{language}-CA">' in page
    assert (">Ligues</h1>" if language == "fr" else ">Leagues</h1>") in page


def test_the_switch_keeps_the_choice_in_a_cookie_and_goes_back(client) -> None:
    response = client.get("/language/fr?next=/leagues/our-table/games?status=paid")
    assert response.status_code == 302
    assert response.headers["Location"] == "/leagues/our-table/games?status=paid"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=fr;")
    assert "SameSite=Lax" in cookie
    assert "HttpOnly" in cookie
    page = client.get("/leagues", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ">Ligues</h1>" in page  # the choice wins over the browser
    assert 'href="/language/en?next=/leagues" hreflang="en" lang="en">English</a>' in page
    client.get("/language/en?next=/leagues")
    assert ">Leagues</h1>" in client.get("/leagues").get_data(as_text=True)


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "", "leagues"]
)
def test_the_switch_never_leads_off_the_site(client, target) -> None:
    response = client.get("/language/fr", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_not_kept(client) -> None:
    response = client.get("/language/de?next=/leagues")
    assert response.headers["Location"] == "/leagues"
    assert "Set-Cookie" not in response.headers
    client.set_cookie("lang", "xx")
    assert ">Leagues</h1>" in client.get("/leagues").get_data(as_text=True)


def test_the_switch_is_on_every_page(client) -> None:
    for path in ("/", "/login", "/leagues/our-table", "/games/999", "/leagues/our-table/owes"):
        page = client.get(path, follow_redirects=True).get_data(as_text=True)
        assert 'hreflang="fr" lang="fr">Français</a>' in page, path
    response = client.get("/language/fr?next=/login")
    assert response.headers["Location"] == "/login"


def test_the_api_answers_in_english_whatever_the_browser_asks(api) -> None:
    api.add_players("Ana")
    response = api.post(
        "/api/v1/leagues/our-table/players", {"name": "ana"}, headers={"Accept-Language": "fr"}
    )
    assert "already a player" in response.get_data(as_text=True)


# --- French pages -------------------------------------------------------------------


def visible_text(page: str) -> str:
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    # Collapse spaces, not the no-break spaces French puts in "1 275" and "38,00 $".
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def english_sentences() -> set[str]:
    """The catalog's English sentences that French says otherwise (a few words, no values)."""
    sentences = set()
    for message in french_catalog():
        if isinstance(message.id, str) and message.id and "%" not in message.id:
            english = re.sub(r"<[^>]+>", "", message.id)
            # "; total" is in its own French, " ; total" (a no-break space before the ;).
            if len(english.split()) >= 2 and english not in message.string:
                sentences.add(english)
    return sentences


def assert_french(page: str) -> str:
    text = visible_text(page)
    left = sorted(sentence for sentence in english_sentences() if sentence in text)
    assert not left, f"English on a French page: {left}"
    for word in ("Score card", "Who went out", "Save deal", " pays ", " deals next", "Skunk"):
        assert word not in text
    return text


@pytest.fixture
def french(table):
    table.client.set_cookie("lang", "fr")
    return table


def test_a_finished_game_in_french(french, wikipedia_card) -> None:
    game_id = french.start_game()
    for out, scores, stars in wikipedia_card:
        assert french.record(game_id, out, scores, stars).status_code == 302
    text = assert_french(french.page(game_id))
    assert f"Ben paie 10,00{NBSP}$ à Ana" in text
    assert f"arrondi 1{NBSP}300 − 1{NBSP}200{NBSP}: 1 × 1,00{NBSP}$" in text
    assert f"Total 1{NBSP}275" in text
    assert "Feuille de pointage" in text
    assert "Règlement" in text
    assert "Partie terminée après 7 donnes." in text
    assert "Donne 7 enregistrée." in text  # the history, worded again in French


def test_a_game_in_progress_and_its_refusals_in_french(french) -> None:
    game_id = french.start_game()
    text = assert_french(french.page(game_id))
    assert "Qui a fermé\u00a0?" in text
    assert "Enregistrer la donne" in text
    response = french.record(game_id, 0, (7, 1500))
    assert response.status_code == 422
    text = assert_french(response.get_data(as_text=True))
    assert "Les points sont des multiples de 5" in text
    response = french.record(game_id, 0, (1500, 20))
    text = visible_text(response.get_data(as_text=True))
    assert f"1{NBSP}500, c'est beaucoup pour une donne." in text
    assert "Oui, enregistrer tel quel" in text


def test_counting_cards_in_french(french) -> None:
    game_id = french.start_game()
    data = {
        "went_out": "0",
        "player0-sets-0-rank": "10",
        "player0-sets-0-naturals": "9",
        "player1-threes_to_nines": "1",
    }
    response = french.client.post(f"/games/{game_id}/count", data=data)
    assert response.status_code == 422
    text = assert_french(response.get_data(as_text=True))
    assert f"Combinaison 1 d'Ana (dix){NBSP}: 9 dix, mais deux paquets n'en ont que 8." in text
    data["player0-sets-0-naturals"] = "8"
    text = assert_french(french.client.post(f"/games/{game_id}/count", data=data).get_data(True))
    assert f"8 dix, combinaison naturelle, fermeture au naturel{NBSP}: 8 × 10 × 4 = 320" in text


@pytest.mark.slow  # every page, in French
@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/leagues",
        "/leagues/our-table",
        "/leagues/our-table/games",
        "/leagues/our-table/owes",
        "/leagues/our-table/payments",
        "/leagues/our-table/head-to-head?a=1&b=2",
        "/leagues/our-table/players/1",
        "/leagues/our-table/owes/1/2",
        "/leagues/our-table/players",
        "/leagues/our-table/seasons",
        "/leagues/our-table/import",
        "/leagues/our-table/settings",
        "/leagues/our-table/members",
        "/leagues/our-table/games/new",
        "/games/1/count",
        "/games/1/deals/1",
        "/account",
        "/leagues/new",
        "/games/999",
    ],
)
def test_the_league_and_account_pages_in_french(french, wikipedia_card, path) -> None:
    game_id = french.start_game()
    for out, scores, stars in wikipedia_card[:-1]:
        french.record(game_id, out, scores, stars)
    other = french.start_game("Ana", "Cy")
    for out, scores, stars in wikipedia_card:
        french.record(other, out, scores, stars)
    response = french.client.get(path)
    assert response.status_code in (200, 404)
    assert '<html lang="fr-CA">' in response.get_data(as_text=True)
    assert_french(response.get_data(as_text=True))


def test_stakes_are_shown_and_typed_with_a_decimal_comma_in_french(french, table, app) -> None:
    page = french.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert re.search(r'id="small"[^>]*value="1,00"', page), "the default stake, the French way"
    game_id = french.start_game(small="0,25", big="")
    with app.app_context():
        assert db.session.get(Game, game_id).stakes == Stakes(small=25, big=75)
    # The same client back in English, where a comma stays a thousands separator.
    table.client.delete_cookie("lang")
    page = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert re.search(r'id="small"[^>]*value="1\.00"', page)
    game_id = table.start_game(small="1,000")
    with app.app_context():
        assert db.session.get(Game, game_id).stakes.small == 100_000


def test_money_and_numbers_in_each_language(app) -> None:
    from scorekeeper.web import formatting

    expected = {
        "en": ("$38.00", "−$3.00", "1,275", "−50", "66.7%", "+$10.00", "2025-03-14"),
        "fr": (
            f"38,00{NBSP}$",
            f"−3,00{NBSP}$",
            f"1{NBSP}275",
            "−50",
            f"66,7{NBSP}%",
            f"+10,00{NBSP}$",
            "14 mars 2025",
        ),
    }
    from datetime import date

    for language, values in expected.items():
        with app.test_request_context(headers={"Cookie": f"lang={language}"}):
            assert (
                formatting.money(3800),
                formatting.money(-300),
                formatting.number(1275),
                formatting.number(-50),
                formatting.percent(667),
                formatting.signed_money(1000),
                formatting.day(date(2025, 3, 14)),
            ) == values


def test_importing_paper_score_cards_in_french(french) -> None:
    csv = "game,date,player_a,player_b,out,score_a,score_b\n1,2025-03-14,Ana,Ben,a,7,20\n"
    data = {"format": "csv", "file": (io.BytesIO(csv.encode()), "cards.csv")}
    response = french.client.post("/leagues/our-table/import", data=data)
    assert response.status_code == 422
    text = assert_french(response.get_data(as_text=True))
    assert "Rien n'a été importé" in text
    assert f"ligne 2{NBSP}: score_a{NBSP}: Les points sont des multiples de 5" in text
    data = {"format": "csv", "file": (io.BytesIO(csv.replace(",7,", ",70,").encode()), "c.csv")}
    response = french.client.post("/leagues/our-table/import", data=data)
    assert "1 partie importée (1 donnes)." in assert_french(response.get_data(as_text=True))


def test_french_elides_de_before_a_name_that_starts_with_a_vowel_sound(french, wikipedia_card):
    """ "Points d'Erin", "Naturels d'Alice", but "Points de Ben" (issue 13)."""
    game_id = french.start_game("Erin", "Ben")
    text = visible_text(french.page(game_id))
    assert "Points d'Erin" in text
    assert "Points de Ben" in text
    assert "de Erin" not in text
    done = french.start_game("Alice", "Hugo")
    for out, scores, stars in wikipedia_card:
        french.record(done, out, scores, stars)
    text = visible_text(french.page(done))
    assert "Naturels d'Alice" in text
    assert "de Alice" not in text
    assert "de Hugo" not in text
    french.client.set_cookie("lang", "en")
    assert "Alice's naturals" in visible_text(french.page(done))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Erin", "Points d'Erin"),
        ("Élodie", "Points d'Élodie"),
        ("Hugo", "Points d'Hugo"),
        ("Yves", "Points d'Yves"),
        ("œil", "Points d'œil"),
        ("Ben", "Points de Ben"),
        ("<Ana>", "Points de &lt;Ana&gt;"),
        ("Ève & Co", "Points d'Ève &amp; Co"),
    ],
)
def test_the_elision_reads_the_first_letter_and_keeps_escaping(app, name, expected) -> None:
    from markupsafe import Markup

    from scorekeeper.web.translation import elided

    assert elided(Markup("Points de %(name)s"), {"name": name}) % {"name": name} == expected
    assert elided("De %(name)s à %(other)s", {"name": name}).startswith(
        "D'" if expected.startswith("Points d'") else "De "
    )
    assert elided("Combien que %(n)s", {"n": "1 200"}) == "Combien que %(n)s"  # a number
