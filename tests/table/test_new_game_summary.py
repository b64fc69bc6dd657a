"""The new-game page (issue 24, point 3): the league's rules and stakes in one line that
opens every option, so a game between two players with the league's defaults is the two
names and Start. The browser test (tests/browser/test_new_game_in_a_browser.py) counts the
taps and checks that Start is on the first screen."""

import html
import re

from scorekeeper.league import service as league_service
from scorekeeper.models import Game, db
from scorekeeper.records.leagues import league_by_slug

NBSP = "\u00a0"


def rules_choice(page: str) -> str:
    start = page.index('<details class="rules-choice"')
    return page[start : page.index("</details>", start)]


def summary_of(page: str) -> str:
    choice = rules_choice(page)
    summary = choice[choice.index("<summary>") : choice.index("</summary>")]
    words = html.unescape(re.sub(r"<[^>]+>", " ", summary))
    return re.sub(r"[ \t\n]+", " ", words).strip()  # no-break spaces kept


def test_the_defaults_show_in_one_line_that_opens_every_option(table):
    page = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    choice = rules_choice(page)
    assert '<details class="rules-choice">' in choice  # closed
    assert summary_of(page) == (
        "Standard: to 1,200, skunk ×2, ×3 below zero · $1.00–$3.00 · Change Rules and stakes"
    )
    # Every option is inside, and Start comes after it: the options are never skipped.
    for name in ("preset", "target", "progressive", "natural_needed", "skunk", "small", "big"):
        assert f'name="{name}"' in choice, name
    assert page.index("</details>", page.index("rules-choice")) < page.rindex("Start the game")
    # The two names and Start: the game has the league's defaults.
    game_id = table.start_game("Ana", "Ben", first_dealer="random")
    with table.client.application.app_context():
        game = db.session.get(Game, game_id)
        assert (game.preset, game.target, game.small_stake, game.big_stake) == (
            "standard",
            1200,
            100,
            300,
        )


def test_the_line_says_the_leagues_own_defaults(app, table):
    with app.app_context():
        league = league_by_slug("our-table")
        rules = {
            "target": 1500,
            "progressive": True,
            "natural_needed": True,
            "skunk": "mark",
            "difference": "ceil",
        }
        league_service.update_league(
            league.id,
            name=league.name,
            public=league.public,
            defaults={"rules": rules, "stakes": {"small": 25, "big": 100}},
        )
        db.session.remove()
    page = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert summary_of(page).startswith(
        "Custom rules: to 1,500, skunk: one more big stake, every started 100, progressive, "
        "a natural needed · $0.25–$1.00 · Change"
    )


def test_the_options_are_open_when_one_needs_a_look(table):
    page = table.post_new_game(target="1203").get_data(as_text=True)
    assert '<details class="rules-choice" open>' in page
    assert "The target must be a multiple of 5." in page
    # A preset picked without a script: its options are filled in, shown open to check.
    filled = table.post_new_game(preset="marks", submit="")
    assert '<details class="rules-choice" open>' in filled.get_data(as_text=True)


def test_the_line_in_french(table):
    table.client.set_cookie("lang", "fr")
    page = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert summary_of(page).startswith(
        f"Standard{NBSP}: en 1{NBSP}200 points, capot ×2, ×3 sous zéro · 1,00{NBSP}$–3,00{NBSP}$"
        " · Modifier"
    )
    assert re.search(r'placeholder="Choisir ou taper un nom"', page)
