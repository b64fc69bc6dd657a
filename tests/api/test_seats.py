"""The other side of the table through the API (issue 23): a game's agreements, and a
seat's link agreeing with the card. Every answer is checked against the description."""

import json
import re

from scorekeeper.models import Game, db


def _link(app, table, game_id: int, seat: int) -> str:
    page = table.client.post(f"/games/{game_id}/seats/{seat}/share").get_data(as_text=True)
    found = re.search(r'class="share-link" href="http://localhost/s/([A-Za-z0-9_-]+)"', page)
    assert found
    return found.group(1)


def test_a_seat_link_reads_its_game_and_agrees_with_the_card(app, table, api):
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    token = _link(app, table, game_id, 1)
    anonymous = api.as_("anonymous")  # no bearer token: the link is the capability
    opened = anonymous.get(f"/api/v1/seats/{token}")
    assert opened.status_code == 200
    body = opened.get_json()
    assert body["seat"] == 1
    assert body["game"]["players"] == ["Ana", "Ben"]
    assert body["game"]["version"] == 2
    assert body["agreements"] == []

    stale = anonymous.post(f"/api/v1/seats/{token}/agreement", {"version": 1})
    assert stale.status_code == 409
    agreed = anonymous.post(f"/api/v1/seats/{token}/agreement", {"version": 2})
    assert agreed.status_code == 201
    [agreement] = agreed.get_json()["agreements"]
    assert agreement["seat"] == 1
    assert agreement["player"] == "Ben"
    assert agreement["version"] == 2
    assert agreement["by"] == "link"
    assert agreement["stands"] is True
    assert agreement["voided_by"] is None
    assert agreement["at"].endswith("Z")

    # The game's own agreements, for whoever may read the game; a fix voids it.
    assert api.get(f"/api/v1/games/{game_id}/agreements").get_json() == [agreement]
    api.put(f"/api/v1/games/{game_id}/deals/1", {"out": 0, "scores": [300, 160]})
    [voided] = api.get(f"/api/v1/games/{game_id}/agreements").get_json()
    assert voided["stands"] is False
    assert voided["voided_by"] == "Deal 1 corrected."
    with app.app_context():
        assert db.session.get(Game, game_id).version == 3  # agreeing changed no version
        db.session.remove()


def test_wrong_or_stopped_links_are_404_and_a_game_of_a_private_league_is_hidden(app, table, api):
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    token = _link(app, table, game_id, 0)
    anonymous = api.as_("anonymous")
    for bad in ("nope", "x" * 22, token[:-1]):
        assert anonymous.get(f"/api/v1/seats/{bad}").status_code == 404
        assert anonymous.post(f"/api/v1/seats/{bad}/agreement").status_code == 404
    assert anonymous.get(f"/api/v1/games/{game_id}/agreements").status_code == 404  # private
    table.client.post(f"/games/{game_id}/seats/0/stop")
    assert anonymous.get(f"/api/v1/seats/{token}").status_code == 404
    assert anonymous.post(f"/api/v1/seats/{token}/agreement", {"version": 2}).status_code == 404
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 0
        db.session.remove()


def test_a_body_that_is_not_a_version_is_refused(app, table, api):
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    token = _link(app, table, game_id, 0)
    anonymous = api.as_("anonymous")
    assert anonymous.post(f"/api/v1/seats/{token}/agreement", {"version": "2"}).status_code == 422
    assert anonymous.post(f"/api/v1/seats/{token}/agreement", {"seat": 1}).status_code == 422
    assert anonymous.post(f"/api/v1/seats/{token}/agreement", data="[").status_code == 400
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 0
        db.session.remove()


def test_a_seat_link_reads_only_what_its_page_shows_and_is_kept_by_no_cache(app, table, api):
    """The page a link opens shows no league and no address of the game; neither does its
    JSON (issue 34, point 7), and no answer to it is cached or passes its token on."""
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    token = _link(app, table, game_id, 1)
    anonymous = api.as_("anonymous")
    for answer in (
        anonymous.get(f"/api/v1/seats/{token}"),
        anonymous.post(f"/api/v1/seats/{token}/agreement", {"version": 2}),
        anonymous.get(f"/api/v1/seats/{token[:-1]}"),
    ):
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    game = anonymous.get(f"/api/v1/seats/{token}").get_json()["game"]
    assert "id" not in game
    assert "league" not in game
    assert "our-table" not in json.dumps(game)
    assert game["players"] == ["Ana", "Ben"]
    assert game["deals"][0]["scores"] == [290, 160]
    # The game's own answer, for its league's members, still names both.
    whole = api.get(f"/api/v1/games/{game_id}").get_json()
    assert (whole["id"], whole["league"]) == (game_id, "our-table")
    assert {**game, "id": game_id, "league": "our-table"} == whole
