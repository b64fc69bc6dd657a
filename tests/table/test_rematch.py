"""A finished game offers a rematch: one tap, the same players, rules and stakes."""

import re
import uuid

import pytest
from sqlalchemy import func, select

from scorekeeper.models import Game, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import service as game_service
from scorekeeper.table import starting
from tests.conftest import ADMIN, Auth, Table, section, text_of

REMATCH_FORM = re.compile(r'<form method="post" action="/games/(\d+)/rematch">(.*?)</form>', re.S)


def finished_game(table: Table, **fields: str) -> int:
    game_id = table.start_game(**fields)
    response = table.record(game_id, 0, (1250, 700), confirm=True)
    assert response.status_code == 302
    return game_id


def rematch(client, game_id: int, token: str | None = None):
    return client.post(f"/games/{game_id}/rematch", data={"token": token or uuid.uuid4().hex})


def started_id(response) -> int:
    """The new game a rematch redirected to (``/games/7#play`` → 7)."""
    return int(response.headers["Location"].split("#")[0].rsplit("/", 1)[1])


def game_count(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count(Game.id)))
        db.session.remove()
    return count or 0


def test_a_finished_game_offers_a_rematch_that_starts_the_same_game_again(table, app):
    game_id = finished_game(
        table,
        preset="progressive",
        target="2000",
        progressive="y",
        natural_needed="y",
        skunk="mark",
        small="0.25",
        big="1",
        first_dealer="0",
    )
    table.record(game_id, 0, (900, 0), (1, 0))
    page = table.page(game_id)
    form = REMATCH_FORM.search(section(page, "rematch"))
    assert form
    assert int(form.group(1)) == game_id
    assert 'name="csrf_token"' in form.group(2)
    assert "Ben deals first" in text_of(section(page, "rematch"))

    response = rematch(table.client, game_id)

    assert response.status_code == 302
    new_id = started_id(response)
    assert new_id != game_id
    with app.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert (new.league_id, new.player0_id, new.player1_id) == (
            old.league_id,
            old.player0_id,
            old.player1_id,
        )
        assert new.rules == old.rules
        assert new.stakes == old.stakes
        assert (new.small_stake, new.big_stake, new.target) == (25, 100, 2000)
        assert new.natural_needed
        assert new.progressive
        assert new.skunk == "mark"
        # Decision: the first deal goes to the other player than last game's first dealer.
        assert (old.first_dealer, new.first_dealer) == (0, 1)
        assert (new.status, new.deal_count) == ("in_progress", 0)
        db.session.remove()
    # The new game opens at its first deal.
    page = table.client.get(f"/games/{new_id}").get_data(as_text=True)
    assert 'id="deal-form"' in page
    assert "Rematch: Ana and Ben again. Ben deals first." in text_of(page)
    assert "Deal 1: Ben deals next." in text_of(section(page, "summary"))


def test_the_first_deal_goes_back_the_other_way_the_game_after(table, app):
    game_id = finished_game(table, first_dealer="1")
    second = started_id(rematch(table.client, game_id))
    table.record(second, 1, (300, 1300), confirm=True)
    third = started_id(rematch(table.client, second))
    with app.app_context():
        dealers = [db.session.get(Game, found).first_dealer for found in (game_id, second, third)]
        db.session.remove()
    assert dealers == [1, 0, 1]


def test_a_double_tap_starts_one_game_not_two(table, app):
    game_id = finished_game(table)
    token = uuid.uuid4().hex
    first = rematch(table.client, game_id, token)
    before = game_count(app)
    second = rematch(table.client, game_id, token)
    assert second.status_code == 302
    assert second.headers["Location"] == first.headers["Location"]
    assert game_count(app) == before


def test_a_paid_game_can_be_played_again(table):
    game_id = finished_game(table)
    assert table.client.post(f"/games/{game_id}/paid").status_code == 302
    assert 'action="/games/' in section(table.page(game_id), "rematch")
    assert rematch(table.client, game_id).status_code == 302


def test_a_game_in_progress_has_no_rematch(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (500, 300))
    assert "/rematch" not in table.page(game_id)
    before = game_count(app)
    response = rematch(table.client, game_id)
    assert response.status_code == 409
    assert "Only a finished game can be played again." in response.get_data(as_text=True)
    assert game_count(app) == before


@pytest.mark.usefixtures("public")  # a visitor sees the game, and may not start one
def test_only_those_who_may_start_games_get_a_rematch(table, app, auth: Auth, client):
    game_id = finished_game(table)
    viewer = auth.member("viewer")
    before = game_count(app)
    assert "/rematch" not in viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert rematch(viewer, game_id).status_code == 403
    assert "/rematch" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    assert rematch(client, game_id).status_code == 401
    assert game_count(app) == before
    scorekeeper = auth.member("scorekeeper")
    assert "/rematch" in scorekeeper.get(f"/games/{game_id}").get_data(as_text=True)
    assert rematch(scorekeeper, game_id).status_code == 302


def test_a_rematch_without_its_csrf_token_is_refused(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    login = client.get("/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login)
    assert csrf
    data = {"csrf_token": csrf.group(1), "username": ADMIN[0], "password": ADMIN[1]}
    assert client.post("/login", data=data).status_code == 302
    table = Table(client)
    with app.app_context():
        from scorekeeper.engine import Rules, Seat, Stakes, Tally

        league = league_by_slug("our-table")
        game = starting.start_game(league.id, ("Ana", "Ben"), Rules(), Stakes(100, 300), Seat(0))
        game_service.record_deal(game.id, Tally(Seat(0), (1250, 700), (0, 0)))
        game_id = game.id
        db.session.remove()
    before = game_count(app)
    assert rematch(table.client, game_id).status_code == 400
    assert game_count(app) == before
    page = table.page(game_id)
    token = re.search(r'name="csrf_token" value="([^"]+)"', section(page, "rematch"))
    assert token
    response = table.client.post(
        f"/games/{game_id}/rematch", data={"csrf_token": token.group(1), "token": "t1"}
    )
    assert response.status_code == 302
    assert game_count(app) == before + 1


def test_an_unknown_game_has_no_rematch(table):
    assert rematch(table.client, 999).status_code == 404


def test_two_phones_tapping_rematch_start_one_game(table, app, auth):
    game_id = finished_game(table)
    other_phone = auth.member("scorekeeper")
    first = rematch(table.client, game_id)
    before = game_count(app)
    second = rematch(other_phone, game_id)  # its own token: another page, another phone
    assert second.headers["Location"] == first.headers["Location"]
    assert game_count(app) == before
    # Once the rematch has its first deal, a tap on the old game starts the game after.
    new_id = started_id(first)
    table.record(new_id, 1, (140, 350))
    third = rematch(other_phone, game_id)
    assert third.headers["Location"] not in (first.headers["Location"], f"/games/{game_id}")
    assert game_count(app) == before + 1


def test_a_game_with_other_stakes_is_not_taken_for_the_rematch(table, app):
    game_id = finished_game(table)
    table.start_game(small="2")  # the same two, started since, but for $2–$6
    before = game_count(app)
    response = rematch(table.client, game_id)
    assert response.status_code == 302
    assert game_count(app) == before + 1
