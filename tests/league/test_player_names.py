"""A player's name put right on the pages (issue 37): renaming, and merging two players who
are one person after a page shows what will move; who may; what the history says, in
English and in French."""

import html
import re

import pytest
from sqlalchemy import select

from scorekeeper.models import AuditAction, AuditEvent, Game, Player, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.records.payment_handles import handle_of, read_handle, set_handle
from tests.conftest import Api, make_public, text_of

FRENCH = {"Accept-Language": "fr-CA"}


def ids(app, *names):
    with app.app_context():
        league = league_by_slug("our-table").id
        found = [player_service.find_player(league, name) for name in names]
        db.session.remove()
    return [player.id if player else None for player in found]


def finished(table, first, second):
    """A game of ``first`` against ``second``, which ``first`` wins; its id."""
    game_id = table.start_game(first, second)
    assert table.record(game_id, 0, (1250, 50), confirm=True).status_code in (200, 302)
    return game_id


def page_text(client, path, **kwargs):
    """The page's words, its characters' references read (``&#39;`` is ``'``); a no-break
    space stays one."""
    response = client.get(path, **kwargs)
    assert response.status_code == 200, response.status_code
    return html.unescape(re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", response.text)))


@pytest.fixture
def benn(app, table):
    """Ana against Ben once and against Benn twice (once paid), Benn against Cleo in progress."""
    finished(table, "Ana", "Ben")
    games = [finished(table, "Benn", "Ana"), finished(table, "Ana", "Benn")]
    table.client.post(f"/games/{games[1]}/paid", data={})
    games.append(table.start_game("Benn", "Cleo"))
    ben, benn_id = ids(app, "Ben", "Benn")
    return {"ben": ben, "benn": benn_id, "games": games}


def merge_page(table, merged, kept, **kwargs):
    return table.client.get(f"/leagues/our-table/players/{merged}/merge?into={kept}", **kwargs)


def signature_of(html):
    found = re.search(r'name="signature"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="signature"', html
    )
    assert found, "no signature on the page"
    return found.group(1)


def test_the_merge_page_shows_what_will_move_and_merging_moves_it(app, table, benn):
    page = merge_page(table, benn["benn"], benn["ben"])
    assert page.status_code == 200
    words = html.unescape(text_of(page.text))
    assert "Merge Benn into Ben" in words
    assert "Mille: 3" in words
    assert "1 of them is in progress." in words
    assert "1 is finished and not paid yet" in words
    assert "Benn's record in Mille joins Ben's: 2 games, 1 won, $0.00." in words
    assert "Yes, merge Benn into Ben" in words

    done = table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/merge",
        data={"into": benn["ben"], "signature": signature_of(page.get_data(as_text=True))},
    )
    assert done.status_code == 302
    assert done.headers["Location"].endswith(f"/leagues/our-table/players/{benn['ben']}")
    ben = page_text(table.client, f"/leagues/our-table/players/{benn['ben']}")
    assert "Benn merged into Ben." in ben  # the flash
    assert "Benn merged into Ben: 3 games moved, with their records and payments." in ben
    assert "admin:" in ben
    for game_id in benn["games"]:
        assert "Benn" not in page_text(table.client, f"/games/{game_id}").split("History")[0]
    assert table.client.get(f"/leagues/our-table/players/{benn['benn']}").status_code == 404
    players = page_text(table.client, "/leagues/our-table/players")
    assert "Renamed and merged" in players
    assert "Benn merged into Ben" in players
    french = page_text(table.client, f"/leagues/our-table/players/{benn['ben']}", headers=FRENCH)
    assert "Benn fusionné avec Ben\u00a0: 3 parties déplacées" in french


def test_the_game_history_keeps_the_words_said_then(app, table, benn):
    page = merge_page(table, benn["benn"], benn["ben"]).get_data(as_text=True)
    table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/merge",
        data={"into": benn["ben"], "signature": signature_of(page)},
    )
    game = table.client.get(f"/games/{benn['games'][0]}").text
    assert re.search(r"<h1>Ben <span[^>]*>vs</span> Ana</h1>", game)  # the player's row
    assert "Benn won after deal 1." in game  # the history, as it was said
    with app.app_context():
        event = db.session.scalars(
            select(AuditEvent).where(
                AuditEvent.game_id == benn["games"][0],
                AuditEvent.action == AuditAction.GAME_FINISHED,
            )
        ).one()
        assert event.params["winner"] == "Benn"
        db.session.remove()


def test_whose_payment_handle_is_asked_when_both_have_one(app, table, benn):
    with app.app_context():
        set_handle(benn["ben"], read_handle("email", "ben@example.com"), by=None)
        set_handle(benn["benn"], read_handle("paypal", "BennPays"), by=None)
        db.session.remove()
    page = merge_page(table, benn["benn"], benn["ben"]).get_data(as_text=True)
    words = html.unescape(text_of(page))
    assert "Where is Ben paid from now on?" in words
    assert "Ben's: ben@example.com" in words
    assert "Benn's: BennPays" in words
    table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/merge",
        data={"into": benn["ben"], "signature": signature_of(page), "handle": "from"},
    )
    with app.app_context():
        assert handle_of(db.session.get(Player, benn["ben"])).handle == "BennPays"
        db.session.remove()
    ben = page_text(table.client, f"/leagues/our-table/players/{benn['ben']}")
    assert "Ben is paid where Benn was." in ben
    # Every change of where Benn and Ben were paid is on Ben's page now.
    assert "How Benn is paid set to BennPays." in ben
    assert "How Ben is paid set to BennPays." in ben


def test_players_who_sat_at_one_game_are_not_merged_and_the_page_says_why(app, table, benn):
    shared = finished(table, "Ben", "Benn")
    page = merge_page(table, benn["benn"], benn["ben"])
    words = html.unescape(text_of(page.text))
    assert "These two can't be merged" in words
    assert "Benn and Ben sat at the same game: a game seats each person once" in words
    assert f"Game {shared}" in words
    assert "Yes, merge" not in words
    before = Api(app).snapshot()
    forced = table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/merge",
        data={"into": benn["ben"], "signature": "x" * 20},
    )
    assert forced.status_code == 409
    assert "can&#39;t be one player" in forced.get_data(as_text=True)
    assert Api(app).snapshot() == before


def test_a_page_outdated_by_a_new_game_merges_nothing(app, table, benn):
    page = merge_page(table, benn["benn"], benn["ben"]).get_data(as_text=True)
    finished(table, "Cleo", "Benn")
    before = Api(app).snapshot()
    late = table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/merge",
        data={"into": benn["ben"], "signature": signature_of(page)},
    )
    assert late.status_code == 409
    words = text_of(late.get_data(as_text=True))
    assert "What would move changed since the page was loaded." in words
    assert "Mille: 4" in words  # the page again, as it is now
    assert Api(app).snapshot() == before


def test_renaming_changes_the_name_everywhere_and_the_history_keeps_it(app, table, benn):
    rename = f"/leagues/our-table/players/{benn['benn']}/rename"
    assert "Rename or merge Benn" in page_text(table.client, rename)
    done = table.client.post(rename, data={"name": "  Bernard  "})
    assert done.status_code == 302
    player = page_text(table.client, f"/leagues/our-table/players/{benn['benn']}")
    assert "Benn is now called Bernard." in player
    assert "admin: Renamed Benn to Bernard." in player
    assert page_text(table.client, f"/games/{benn['games'][0]}").count("Bernard") >= 1
    standings = page_text(table.client, "/leagues/our-table")
    assert "Bernard" in standings
    assert "Benn" not in standings
    french = page_text(table.client, f"/leagues/our-table/players/{benn['benn']}", headers=FRENCH)
    assert "Benn renommé en Bernard." in french


def test_a_name_another_player_has_is_refused_and_the_merge_offered(app, table, benn):
    before = Api(app).snapshot()
    refused = table.client.post(
        f"/leagues/our-table/players/{benn['benn']}/rename", data={"name": "ben"}
    )
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert "Ben is already a player in this league." in text_of(html).replace("&#39;", "'")
    assert f"/leagues/our-table/players/{benn['benn']}/merge?into={benn['ben']}" in html
    assert Api(app).snapshot() == before


def test_a_name_like_another_players_is_asked_about_first(app, table, benn):
    rename = f"/leagues/our-table/players/{benn['ben']}/rename"
    asked = table.client.post(rename, data={"name": "Ana2"})
    assert asked.status_code == 200
    words = text_of(asked.get_data(as_text=True))
    assert "Is Ana2 another player than Ana?" in words
    assert "Merge into Ana" in words
    assert ids(app, "Ana2") == [None]
    done = table.client.post(rename, data={"name": "Ana2", "confirmed": "Ana2"})
    assert done.status_code == 302
    assert ids(app, "Ana2") == [benn["ben"]]
    # Its own name in another case is no question, nor refused.
    assert table.client.post(rename, data={"name": "ANA2"}).status_code == 302


@pytest.mark.parametrize("role", ["viewer", "scorekeeper"])
def test_only_a_league_admin_renames_or_merges(app, auth, benn, role):
    client = auth.member(role)
    before = Api(app).snapshot()
    base = f"/leagues/our-table/players/{benn['benn']}"
    assert client.get(f"{base}/rename").status_code == 403
    assert client.post(f"{base}/rename", data={"name": "Bob"}).status_code == 403
    assert client.get(f"{base}/merge?into={benn['ben']}").status_code == 403
    merge = {"into": benn["ben"], "signature": "x"}
    assert client.post(f"{base}/merge", data=merge).status_code == 403
    assert "Rename or merge" not in page_text(client, base)
    assert Api(app).snapshot() == before


def test_a_visitor_is_sent_away_and_a_private_league_stays_hidden(app, client, benn):
    base = f"/leagues/our-table/players/{benn['benn']}"
    assert client.get(f"{base}/rename").status_code == 404  # the first league is private
    make_public(app)
    assert client.get(f"{base}/rename").status_code in (302, 401)
    assert client.post(f"{base}/rename", data={"name": "Bob"}).status_code == 401
    assert "Renamed and merged" not in page_text(client, "/leagues/our-table/players")


def test_a_player_of_another_league_or_themself_is_no_merge(app, table, benn):
    with app.app_context():
        from scorekeeper.league import service as league_service

        other = league_service.create_league("Elsewhere").id
        stranger = player_service.add_player(other, "Ben").id
        db.session.remove()
    assert merge_page(table, benn["benn"], stranger).status_code == 404
    assert merge_page(table, benn["benn"], benn["benn"]).status_code == 404
    for hostile in ("99999999999999999999999", "-1", "0"):
        assert merge_page(table, benn["benn"], hostile).status_code == 404
    assert merge_page(table, stranger, benn["ben"]).status_code == 404
    no_one = table.client.get(f"/leagues/our-table/players/{benn['benn']}/merge")
    assert no_one.status_code == 302
    assert no_one.headers["Location"].endswith("/rename#merge")
    with app.app_context():
        assert db.session.scalar(select(Game.id).where(Game.player0_id == stranger)) is None
        db.session.remove()
