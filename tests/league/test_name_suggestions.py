"""A new name close to a player's asks "Did you mean Alice?" before a player is made."""

import re

import pytest
from sqlalchemy import func, select

from scorekeeper.models import Game, Player, db
from scorekeeper.records.similar_names import close_names
from tests.conftest import text_of


@pytest.mark.parametrize(
    ("typed", "players", "asked"),
    [
        ("Alcie", ["Alice", "Ben"], ["Alice"]),  # two letters swapped
        ("Alic", ["Alice"], ["Alice"]),  # one dropped
        ("Alixe", ["Alice"], ["Alice"]),  # one changed
        ("alice", ["Alice"], []),  # the same player: case is not a new name
        ("Zoe", ["Zoé"], ["Zoé"]),  # accents
        ("ZOË", ["Zoé"], ["Zoé"]),
        ("Bob", ["Rob"], ["Rob"]),  # short names too: one edit is asked about
        ("Ana", ["Anna"], ["Anna"]),
        ("Anna", ["Ana"], ["Ana"]),
        ("Benn", ["Ben2", "Ben"], ["Ben", "Ben2"]),  # as close: A–Z, so Ben first
        ("Al", ["Ali", "Bo"], ["Ali"]),
        ("Bob", ["Rox", "Al"], []),  # two edits away, however short
        ("ANNA", ["Änna"], ["Änna"]),  # equal once case and accents are folded
        ("Christohpe", ["Christophe"], ["Christophe"]),  # long names: two edits
        ("Cristohpe", ["Christophe"], ["Christophe"]),
        ("Alicia", ["Alice"], []),  # two edits on a short name: someone else
        (
            "Marc",
            ["Mark", "Marco", "Mara", "Marcel"],
            ["Mara", "Marco", "Mark"],
        ),  # closest first, then A–Z
    ],
)
def test_what_counts_as_close(typed, players, asked):
    assert close_names(typed, players) == asked


def post(table, player0="Alcie", player1="Ben", **fields):
    """The new-game form as typed, with no name confirmed as new unless ``fields`` say so."""
    return table.post_new_game(player0, player1, **{"new_player0": "", "new_player1": "", **fields})


def counts(app):
    with app.app_context():
        found = (
            db.session.scalar(select(func.count(Game.id))),
            sorted(db.session.scalars(select(Player.name))),
        )
        db.session.remove()
    return found


@pytest.fixture
def alice_played(table):
    """Alice and Ben are players of the league."""
    table.start_game("Alice", "Ben")
    return table


def question(page: str, seat: int) -> str | None:
    found = re.search(
        rf'<div class="did-you-mean" id="player{seat}-question".*?</div>\s*</div>', page, re.S
    )
    return " ".join(text_of(found.group(0)).split()) if found else None


def test_a_mistyped_name_asks_before_making_a_player(alice_played, app):
    before = counts(app)
    response = post(alice_played)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert question(page, 0) == (
        "Did you mean Alice? Alcie is not a player of this league yet. "
        "Use Alice Yes, a new player Alcie"
    )
    assert question(page, 1) is None
    # The question is tied to the field for a screen reader, and the form kept what was typed.
    assert re.search(r'aria-describedby="player0-question"[^>]*id="player0"', page) or re.search(
        r'id="player0"[^>]*aria-describedby="player0-question"', page
    )
    assert 'value="Alcie"' in page
    assert counts(app) == before  # no game, no player Alcie


def test_use_alice_starts_the_game_with_alice_in_one_tap(alice_played, app):
    games, players = counts(app)
    response = post(alice_played, use_player0="Alice")
    assert response.status_code == 302
    assert counts(app) == (games + 1, players)
    with app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert (game.player0.name, game.player1.name) == ("Alice", "Ben")
        db.session.remove()


def test_yes_a_new_player_starts_the_game_with_the_new_name(alice_played, app):
    games, players = counts(app)
    response = post(alice_played, new_player0="Alcie")
    assert response.status_code == 302
    assert counts(app) == (games + 1, sorted([*players, "Alcie"]))


def test_a_confirmation_counts_only_for_the_name_it_confirmed(alice_played, app):
    before = counts(app)
    page = post(alice_played, "Alixe", new_player0="Alcie").get_data(as_text=True)
    assert question(page, 0).startswith("Did you mean Alice? Alixe is not")
    assert counts(app) == before


def test_both_seats_asked_answered_one_at_a_time(alice_played, app):
    alice_played.start_game("Chloé", "Dimitri")
    before = counts(app)
    page = post(alice_played, "Alcie", "Chloe").get_data(as_text=True)
    assert question(page, 0).startswith("Did you mean Alice?")
    assert question(page, 1).startswith("Did you mean Chloé?")
    # Enter in a field submits with the form's first button: "Start the game", hidden, first.
    form = page[page.index('<form method="post" class="new-game"') :]
    buttons = re.findall(r"<button [^>]*>", form)
    assert 'name="submit"' in buttons[0]
    assert 'aria-hidden="true"' in buttons[0]
    # "Yes, a new player Alcie" for the first seat; the second is still asked, the first
    # seat's answer kept in the form.
    page = post(alice_played, "Alcie", "Chloe", new_player0="Alcie").get_data(as_text=True)
    assert question(page, 0) is None
    assert question(page, 1).startswith("Did you mean Chloé?")
    assert '<input type="hidden" name="new_player0" value="Alcie">' in page
    assert counts(app) == before
    response = post(alice_played, "Alcie", "Chloe", new_player0="Alcie", use_player1="Chloé")
    assert response.status_code == 302
    games, players = counts(app)
    assert games == before[0] + 1
    assert "Alcie" in players
    assert "Chloe" not in players


def test_an_exact_player_or_a_name_unlike_any_starts_at_once(alice_played, app):
    assert post(alice_played, "alice", "Ben").status_code == 302
    assert post(alice_played, "Gaston", "Ben").status_code == 302
    assert "Gaston" in counts(app)[1]


def test_the_question_in_french(alice_played):
    alice_played.client.set_cookie("lang", "fr")
    page = post(alice_played).get_data(as_text=True)
    assert question(page, 0) == (
        "Vouliez-vous dire Alice ? Alcie n'est pas encore joueur de cette ligue. "
        "Choisir Alice Oui, un nouveau joueur : Alcie"
    )


def test_the_api_is_not_asked(app, api):
    """The API's contract is unchanged: a name it doesn't know is refused as before."""
    api.add_players("Alice", "Ben")
    response = api.post(
        "/api/v1/games", {"league": "our-table", "players": ["Alcie", "Ben"], "first_dealer": 0}
    )
    assert response.status_code == 422
    assert response.get_json()["error"] == "Alcie is not a player in this league."


def test_names_in_the_question_are_escaped(table):
    table.start_game("<i>Alice</i>", "Ben")
    page = post(table, "<i>Alcie</i>").get_data(as_text=True)
    assert "<i>" not in page.partition('class="did-you-mean"')[2]
    assert "Did you mean &lt;i&gt;Alice&lt;/i&gt;?" in page
    assert 'value="&lt;i&gt;Alice&lt;/i&gt;"' in page


def test_short_names_one_edit_away_ask_first(table, app):
    """Issue 24: "Anna" became a new player beside Ana without a word, and "Benn" was offered
    Ben2, never Ben. Both now ask, with Ben first."""
    table.start_game("Ana", "Ben")
    table.start_game("Ben2", "Cy")
    before = counts(app)
    page = post(table, "Anna", "Benn").get_data(as_text=True)
    assert question(page, 0) == (
        "Did you mean Ana? Anna is not a player of this league yet. Use Ana Yes, a new player Anna"
    )
    assert question(page, 1) == (
        "Did you mean one of these players? Benn is not a player of this league yet. "
        "Use Ben Use Ben2 Yes, a new player Benn"
    )
    assert counts(app) == before
    assert post(table, "Anna", "Benn", use_player0="Ana", use_player1="Ben").status_code == 302
    assert counts(app) == (before[0] + 1, before[1])
