"""One link for the evening (issue 38, point 4): a seat's link follows its player into the
rematch (the same people in the same seats, the same evening) and says "New game: Ana vs
Ben, game 2"; the old card stays readable from it; agreeing there agrees with the new
game's card. Another table's game, or one the next day, is not followed."""

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from scorekeeper.models import Game, db

from .kind_helpers import GAMES, post_deal, start, words
from .test_seat_links_of_every_game import share

RECEIPT = re.compile(r'href="http://localhost(/r/[A-Za-z0-9_-]+)"')


def _finished_mille(table) -> int:
    game_id = table.start_game()
    table.record(game_id, 0, (600, 50))
    table.record(game_id, 0, (700, 50))
    return game_id


def _rematch(table, game_id: int) -> int:
    response = table.client.post(f"/games/{game_id}/rematch", data={"token": f"t{game_id}x"})
    assert response.status_code == 302
    found = re.search(r"/games/(\d+)", response.headers["Location"])
    assert found
    return int(found.group(1))


def _version(app, game_id: int) -> tuple[int, int]:
    with app.app_context():
        game = db.session.get(Game, game_id)
        found = game.version, game.agreement_count
        db.session.remove()
    return found


def test_the_link_follows_ben_into_the_rematch_and_the_old_card_stays_readable(app, table):
    first = _finished_mille(table)
    path = share(table.client, first, 1)
    phone = app.test_client()
    before = phone.get(path + "/version").headers["ETag"]
    assert "New game" not in words(phone.get(path).get_data(as_text=True))
    second = _rematch(table, first)
    # The page polled sees the change, and the link opens the new game.
    assert phone.get(path + "/version", headers={"If-None-Match": before}).status_code == 200
    page = words(phone.get(path).get_data(as_text=True))
    assert "New game: Ana vs Ben, game 2" in page
    assert "No deal yet." in page
    assert "Game 1" in page
    # The old card, still readable from the same link.
    old = phone.get(path + "?game=1")
    assert old.status_code == 200
    assert "Game 1 of this evening; the evening went on." in words(old.get_data(as_text=True))
    assert "1,300" in words(old.get_data(as_text=True))
    assert phone.get(path + "?game=3").status_code == 404
    # A deal of game 2, then Ben agrees with game 2's card through the same link.
    table.record(second, 1, (200, 100))
    assert "Ben went out." in words(phone.get(path).get_data(as_text=True))
    version, _ = _version(app, second)
    agreed = phone.post(path + "/agree?game=2", data={"version": str(version)})
    assert agreed.status_code == 302
    assert agreed.headers["Location"].endswith("?game=2#play")
    assert _version(app, second)[1] == 1
    assert _version(app, first)[1] == 0
    # Game 2's receipt is its own: the payer's read-only receipt, not game 1's.
    table.record(second, 0, (600, 50))
    table.record(second, 0, (700, 50))
    finished_page = phone.get(path).get_data(as_text=True)
    receipt = RECEIPT.search(finished_page)
    assert receipt
    assert receipt.group(1).startswith(f"/r/{second}-")


def test_another_table_or_the_next_day_is_not_followed(app, table):
    first = _finished_mille(table)
    path = share(table.client, first, 1)
    phone = app.test_client()
    other = table.start_game("Ana", "Cleo")  # another opponent: not this link's evening
    table.record(other, 0, (300, 200))
    assert "New game" not in words(phone.get(path).get_data(as_text=True))
    second = _rematch(table, first)
    with app.app_context():  # the rematch began the next day: another evening
        started = db.session.get(Game, second).created_at
        db.session.execute(
            update(Game).where(Game.id == second).values(created_at=started + timedelta(hours=13))
        )
        db.session.commit()
        db.session.remove()
    assert "New game" not in words(phone.get(path).get_data(as_text=True))
    assert phone.get(path + "?game=2").status_code == 404


@pytest.mark.parametrize("kind", ["knock-rummy"])
def test_a_knock_rummy_link_follows_its_player_too(app, table, kind):
    first = start(app, kind)
    for deal in GAMES[kind][3]:
        assert post_deal(table.client, first, deal).status_code == 302
    assert table.client.post(f"/games/{first}/finish").status_code == 302
    path = share(table.client, first, 2)
    _rematch(table, first)
    phone = app.test_client()
    page = words(phone.get(path).get_data(as_text=True))
    assert "New game: Ana vs Ben vs Cy vs Dan, game 2" in page
    assert "Cy's card, on Cy's phone." in page
    assert phone.get(path + "?game=1").status_code == 200
