"""A game page stays live by asking the game's version as an ETag (static/live.js)."""

from scorekeeper.engine import Rules, Seat, Stakes
from scorekeeper.league import service as league_service
from scorekeeper.models import db
from scorekeeper.table import starting


def test_version_answers_an_etag_then_not_modified_until_the_game_changes(table):
    game_id = table.start_game()
    first = table.client.get(f"/games/{game_id}/version")
    assert first.status_code == 200
    assert first.json == {"version": 1}
    assert first.headers["ETag"] == '"1"'
    assert "no-cache" in first.headers["Cache-Control"]
    same = table.client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert same.status_code == 304
    assert same.get_data() == b""
    table.record(game_id, 0, (290, 160))
    changed = table.client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"1"'})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == '"2"'
    assert changed.json == {"version": 2}


def test_the_game_page_tells_its_script_which_version_it_shows(table):
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    page = table.page(game_id)
    assert 'id="live" hidden data-version="2"' in page
    assert f'data-version-url="/games/{game_id}/version"' in page
    assert "/static/live.js" in page


def test_a_public_game_is_live_for_a_visitor_a_private_one_is_hidden(public, app, client, table):
    game_id = table.start_game()
    assert client.get(f"/games/{game_id}/version").status_code == 200
    with app.app_context():
        secret = league_service.create_league("Secret club", public=False)
        hidden = starting.start_game(
            secret.id, ("Ana", "Ben"), Rules(), Stakes.from_small(100), Seat(0)
        ).id
        db.session.remove()
    assert client.get(f"/games/{hidden}/version").status_code == 404
    assert client.get("/games/999999/version").status_code == 404
    assert table.client.get(f"/games/{hidden}/version").status_code == 200  # a site admin


def test_a_token_made_on_the_phone_records_its_deal_once_however_often_sent(table):
    game_id = table.start_game()
    token = "3f2b8c1e9d7a4b6c8e0f1a2b3c4d5e6f"  # crypto.randomUUID() without its dashes
    for _ in range(5):
        response = table.record(game_id, 0, (290, 160), version="1", token=token)
        assert response.status_code == 302
    page = table.page(game_id)
    assert 'id="deal-1"' in page
    assert 'id="deal-2"' not in page


def test_a_malformed_token_is_refused_with_a_message_not_an_error(table):
    game_id = table.start_game()
    for token in ("x" * 101, "<script>", "a b"):
        response = table.record(game_id, 0, (290, 160), token=token)
        assert response.status_code == 422, token
        assert "Reload the page and enter the deal again." in response.get_data(as_text=True)
    assert 'id="deal-1"' not in table.page(game_id)


def test_a_page_fetched_in_the_background_leaves_the_message_for_the_page_shown_next(table):
    """The worker keeping a page, the live card and the offline queue fetch the game page
    in the background: a message waiting for the phone ("Deal 1 saved.", "That deal was
    already saved") stays for the page it shows next, as a browser test once lost it."""
    game_id = table.start_game()
    assert table.record(game_id, 0, (300, 200)).status_code == 302
    background = table.client.get(
        f"/games/{game_id}", headers={"X-Requested-With": "background"}
    ).get_data(as_text=True)
    assert "Deal 1 saved." not in background
    assert "Deal 1 saved." in table.client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Deal 1 saved." not in table.client.get(f"/games/{game_id}").get_data(as_text=True)
