"""A seat's link (issue 23): the card on the opponent's phone, with no account.

The link is a capability for one seat of one game: it opens that card and nothing else,
and a wrong, stopped or expired link (or one whose game is gone) opens nothing. These run
on SQLite and, with ``DATABASE_URL``, on PostgreSQL.
"""

import re
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from scorekeeper.engine import Rules, Seat, Stakes
from scorekeeper.league import service as league_service
from scorekeeper.models import SEAT_LINK_DAYS_AFTER_PAID, Game, Player, SeatLink, db, utcnow
from scorekeeper.records import payment_handles
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import starting
from tests.conftest import Api, make_token

LINK = re.compile(r'class="share-link" href="http://localhost(/s/([A-Za-z0-9_-]+))"')


def share(client, game_id: int, seat: int) -> str:
    """Tap "Show the card to …": the link's path, read from the page that shows it once."""
    response = client.post(f"/games/{game_id}/seats/{seat}/share")
    assert response.status_code == 201, response.get_data(as_text=True)[:300]
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert '<svg viewBox="0 0' in page
    assert 'class="qr"' in page
    found = LINK.search(page)
    assert found, page
    return found.group(1)


def finish(table, game_id: int) -> None:
    """Ana wins, 1,590 to 260 with the deal of the fixture (Ben pays $3 + 13 × $1, doubled:
    a skunk)."""
    table.record(game_id, 0, (600, 50))
    table.record(game_id, 0, (700, 50))


@pytest.fixture
def game_and_link(table, app):
    """A private league's game of Ana and Ben, with Carla a player too; Ben's link."""
    game_id = table.start_game()
    table.start_game("Carla", "Ana")  # another game, another player of the league
    table.record(game_id, 0, (290, 160))
    return game_id, share(table.client, game_id, 1)


def test_the_link_opens_that_card_with_no_cookies_and_nothing_else(game_and_link, app):
    _game_id, path = game_and_link
    phone = app.test_client()  # no account, no cookies
    response = phone.get(path)
    assert response.status_code == 200
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert "Ana" in page
    assert "Ben" in page
    assert 'id="deal-1"' in page
    assert "290" in page
    assert "deals next" in page
    # Nothing else: no other player, no league (a private one), no other game; the game's
    # history without who made each change (issue 38, point 3: no account is named).
    for hidden in ("Carla", "Our table", "our-table", "/leagues", "admin"):
        assert hidden not in page, hidden
    assert "History" in page
    assert "/games/" not in page  # not even this game's address for members
    assert "Fix" not in page


def test_the_token_is_random_enough_and_kept_only_hashed(game_and_link, app):
    _, path = game_and_link
    token = path.rsplit("/", 1)[1]
    assert len(token) >= 22  # 16 random bytes, in URL-safe base64: 128 bits
    with app.app_context():
        rows = db.session.execute(select(SeatLink.__table__)).all()
        assert len(rows) == 1
        assert token not in repr(rows)
        assert rows[0].token_hash == SeatLink.digest(token)


def test_wrong_and_malformed_links_open_nothing(game_and_link, app):
    _, path = game_and_link
    phone = app.test_client()
    token = path.rsplit("/", 1)[1]
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in (wrong, "x", "a" * 200, "%00", "..", token + "x"):
        assert phone.get(f"/s/{bad}").status_code == 404, bad
        assert phone.get(f"/s/{bad}/version").status_code == 404, bad
        assert phone.post(f"/s/{bad}/agree", data={"version": "2"}).status_code == 404, bad
    assert phone.get(path).status_code == 200


def test_stop_sharing_kills_the_link_at_once(game_and_link, app, table):
    game_id, path = game_and_link
    phone = app.test_client()
    ana = share(table.client, game_id, 0)
    assert "Shared: 1 link open." in table.page(game_id)
    response = table.client.post(f"/games/{game_id}/seats/1/stop")
    assert response.status_code == 302
    for url in (path, path + "/version", path + "/receipt"):
        assert phone.get(url).status_code == 404, url
    assert phone.post(path + "/agree", data={"version": "2"}).status_code == 404
    assert phone.get(ana).status_code == 200  # Ana's seat is still shared


def test_a_link_dies_some_days_after_the_game_is_paid(game_and_link, app, table):
    game_id, path = game_and_link
    finish(table, game_id)
    assert table.client.post(f"/games/{game_id}/paid", data={"anyway": "1"}).status_code == 302
    phone = app.test_client()
    assert phone.get(path).status_code == 200  # the receipt, to keep

    def paid_days_ago(days: float) -> None:
        with app.app_context():
            db.session.execute(
                update(Game)
                .where(Game.id == game_id)
                .values(paid_at=utcnow() - timedelta(days=days))
            )
            db.session.commit()
            db.session.remove()

    paid_days_ago(SEAT_LINK_DAYS_AFTER_PAID - 0.1)
    assert phone.get(path).status_code == 200
    paid_days_ago(SEAT_LINK_DAYS_AFTER_PAID + 0.1)
    assert phone.get(path).status_code == 404
    assert phone.get(path + "/version").status_code == 404


def test_an_abandoned_games_links_open_nothing_until_it_is_restored(game_and_link, app, table):
    game_id, path = game_and_link
    phone = app.test_client()
    assert "Shared: 1 link open." in table.page(game_id)
    with app.app_context():
        version = db.session.get(Game, game_id).version
    response = table.client.post(f"/games/{game_id}/abandon", data={"version": version})
    assert response.status_code == 302
    for url in (path, path + "/version", path + "/receipt"):
        assert phone.get(url).status_code == 404, url
    assert phone.post(path + "/agree", data={"version": "2"}).status_code == 404
    assert "Shared:" not in table.page(game_id)
    # Restored, the game has everything back, its links included (none was revoked).
    assert table.client.post(f"/games/{game_id}/restore", data={}).status_code == 302
    assert phone.get(path).status_code == 200
    assert phone.get(path + "/version").status_code == 200


def test_a_deleted_game_takes_its_links_with_it(game_and_link, app):
    game_id, path = game_and_link
    with app.app_context():
        db.session.delete(db.session.get(Game, game_id))
        db.session.commit()
        assert db.session.scalar(select(SeatLink.id)) is None
        db.session.remove()
    assert app.test_client().get(path).status_code == 404


def test_a_link_opens_its_own_game_only(game_and_link, app, table):
    game_id, path = game_and_link
    other = table.start_game("Dora", "Eve")
    phone = app.test_client()
    page = phone.get(path).get_data(as_text=True)
    assert "Dora" not in page
    # Its agreement goes to its own game, whatever the form says.
    phone.get(path)
    phone.post(path + "/agree", data={"version": "2", "seat": "0"})
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 1
        assert db.session.get(Game, other).agreement_count == 0
        db.session.remove()
    assert "Ben agreed at" in table.page(game_id)
    assert "agreed" not in table.page(other)


def test_only_a_scorekeeper_of_the_league_shows_a_link(app, auth, table):
    game_id = table.start_game()
    with app.app_context():
        other = league_service.create_league("Other club", public=False).slug
        db.session.remove()
    viewer = auth.member("viewer")
    assert viewer.post(f"/games/{game_id}/seats/0/share").status_code == 403
    outsider = auth.member("scorekeeper", league=other)
    assert outsider.post(f"/games/{game_id}/seats/0/share").status_code == 404
    assert outsider.post(f"/games/{game_id}/seats/0/stop").status_code == 404
    assert app.test_client().post(f"/games/{game_id}/seats/0/share").status_code == 404
    assert table.client.post(f"/games/{game_id}/seats/2/share").status_code == 404
    assert "Show the card to Ana" not in viewer.get(f"/games/{game_id}").get_data(as_text=True)
    page = table.page(game_id)
    assert "Show the card to Ana" in page
    assert "/static/wakelock.js" in page  # the screen kept awake, where the browser can
    assert "offline reloads need HTTPS" in page  # what the banner says on plain http
    with app.app_context():
        assert db.session.scalar(select(SeatLink.id)) is None
        db.session.remove()


def test_a_link_to_a_game_of_another_league_shows_nothing_of_either(app, table):
    with app.app_context():
        club = league_service.create_league("Secret club", public=False)
        game = starting.start_game(
            club.id, ("Zed", "Yan"), Rules(), Stakes.from_small(100), Seat(0)
        )
        game_id = game.id
        db.session.remove()
    table.start_game("Carla", "Dora")  # in our table
    path = share(table.client, game_id, 0)
    page = app.test_client().get(path).get_data(as_text=True)
    assert "Zed" in page
    assert "Yan" in page
    for hidden in ("Secret club", "secret-club", "Our table", "Carla", "Dora", "Ana"):
        assert hidden not in page, hidden


def test_the_version_is_live_for_the_link_with_an_etag(game_and_link, app, table):
    game_id, path = game_and_link
    phone = app.test_client()
    first = phone.get(path + "/version")
    assert first.status_code == 200
    assert first.headers["ETag"] == '"2"'
    assert phone.get(path + "/version", headers={"If-None-Match": '"2"'}).status_code == 304
    table.record(game_id, 1, (140, 350))
    assert phone.get(path + "/version", headers={"If-None-Match": '"2"'}).status_code == 200
    phone.get(path)
    phone.post(path + "/agree", data={"version": "3"})
    # An agreement changes no deal (the version stays) but every open page sees it.
    agreed = phone.get(path + "/version", headers={"If-None-Match": '"3"'})
    assert agreed.status_code == 200
    assert agreed.headers["ETag"] == '"3.1"'
    member = table.client.get(f"/games/{game_id}/version", headers={"If-None-Match": '"3"'})
    assert member.headers["ETag"] == '"3.1"'
    assert 'data-etag="3.1"' in table.page(game_id)


# Agreements -----------------------------------------------------------------------------


def agreements_text(page: str) -> str:
    found = re.search(r'<section class="agreements card".*?</section>', page, re.S)
    assert found, "no agreements on the page"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


@pytest.fixture
def agreed(game_and_link, app, table):
    """Both players agreed with the finished card: Ben through his link, Ana on the game
    page. The game, Ben's phone and its link."""
    game_id, path = game_and_link
    table.record(game_id, 0, (600, 50))
    table.record(game_id, 0, (500, 50))  # 1,390 to 260: Ana wins
    phone = app.test_client()
    phone.get(path)
    assert phone.post(path + "/agree", data={"version": "4"}).status_code == 302
    response = table.client.post(f"/games/{game_id}/agree", data={"version": "4", "seat": "0"})
    assert response.status_code == 302
    text = agreements_text(phone.get(path).get_data(as_text=True))
    assert re.search(r"Ana agreed at \d\d:\d\d\. ✓ You agreed at \d\d:\d\d\.", text), text
    assert "I agree" not in text
    return game_id, phone, path


def test_each_agreement_is_shown_with_its_time_and_kept_in_the_history(agreed, app, table):
    game_id, _, _ = agreed
    page = table.page(game_id)
    assert re.search(r"Ana agreed at \d\d:\d\d\. ✓ Ben agreed at", agreements_text(page))
    assert "Ben agreed with the card (version 4) on their own phone." in page
    assert "admin: Ana agreed with the card (version 4)." in page
    api = Api(app, make_token(app)).get(f"/api/v1/games/{game_id}/history").get_json()
    assert [e["action"] for e in api[:2]] == ["card_agreed", "card_agreed"]
    assert api[0]["summary"] == "Ana agreed with the card (version 4)."
    assert api[1]["summary"] == "Ben agreed with the card (version 4) on their own phone."


def test_agreeing_twice_with_the_same_card_is_one_agreement(agreed, app):
    game_id, phone, path = agreed
    assert phone.post(path + "/agree", data={"version": "4"}).status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 2
        db.session.remove()


def test_an_agreement_with_a_card_changed_since_is_refused(game_and_link, app, table):
    game_id, path = game_and_link
    phone = app.test_client()
    phone.get(path)
    table.record(game_id, 1, (140, 350))  # version 3 now; Ben's page showed 2
    phone.post(path + "/agree", data={"version": "2"})
    page = phone.get(path).get_data(as_text=True)
    assert "The card changed before you agreed: look at it again." in page
    assert "You have not agreed with this card yet." in agreements_text(page)


CHANGES = {
    "a fix": (lambda t, g: t.client.post(f"/games/{g}/deals/2", data=deal(1, (140, 350))), 2),
    "a deletion": (lambda t, g: t.client.post(f"/games/{g}/deals/2/delete"), 2),
    "an undo": (lambda t, g: t.client.post(f"/games/{g}/undo"), 3),
}


def deal(out: int, scores: tuple[int, int]) -> dict[str, str]:
    return {"out": str(out), "score0": str(scores[0]), "score1": str(scores[1])}


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_to_the_deals_voids_both_agreements_and_says_which_deal(agreed, table, change):
    game_id, phone, path = agreed
    make, number = CHANGES[change]
    assert make(table, game_id).status_code == 302
    verb = {"a fix": "corrected", "a deletion": "deleted", "an undo": "deleted"}[change]
    ben = agreements_text(phone.get(path).get_data(as_text=True))
    assert f"Deal {number} was {verb} after you agreed: look again." in ben
    assert f"Deal {number} was {verb} after Ana agreed: look again." in ben
    assert "I agree with this card" in ben
    ana = agreements_text(table.page(game_id))
    assert f"Deal {number} was {verb} after Ben agreed: look again." in ana
    assert "Ana agrees with this card" in ana


def test_a_new_deal_voids_an_agreement_given_during_the_game(game_and_link, app, table):
    game_id, path = game_and_link
    phone = app.test_client()
    phone.get(path)
    phone.post(path + "/agree", data={"version": "2"})
    table.record(game_id, 1, (140, 350))
    text = agreements_text(phone.get(path).get_data(as_text=True))
    assert "Deal 2 was recorded after you agreed: look again." in text
    # An agreement again, with the card as it is now, stands.
    phone.post(path + "/agree", data={"version": "3"})
    assert "You agreed at" in agreements_text(phone.get(path).get_data(as_text=True))


def test_marking_the_game_paid_or_unlocking_it_leaves_the_agreements_standing(agreed, table):
    game_id, phone, path = agreed
    paid = table.client.post(f"/games/{game_id}/paid", data={"ask": "agreements"})
    assert paid.status_code == 302  # both agreed: nothing to ask
    assert table.client.post(f"/games/{game_id}/unlock").status_code == 302
    text = agreements_text(phone.get(path).get_data(as_text=True))
    assert "You agreed at" in text
    assert "Ana agreed at" in text


def test_marking_paid_asks_first_when_a_player_has_not_agreed(game_and_link, app, table):
    game_id, path = game_and_link
    finish(table, game_id)
    asked = table.client.post(f"/games/{game_id}/paid", data={"version": "4", "ask": "agreements"})
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    assert "Ana has not agreed with this card yet. Ben has not agreed with this card yet." in page
    assert "Mark it paid anyway?" in page
    assert 'name="anyway" value="1"' in page
    assert 'name="version" value="4"' in page
    with app.app_context():
        assert db.session.get(Game, game_id).paid_at is None
        db.session.remove()
    # Ben agrees meanwhile: Ana is still asked about.
    phone = app.test_client()
    phone.get(path)
    phone.post(path + "/agree", data={"version": "4"})
    again = {"version": "4", "ask": "agreements"}
    page = table.client.post(f"/games/{game_id}/paid", data=again).get_data(as_text=True)
    assert "Ana has not agreed" in page
    assert "Ben has not agreed" not in page
    paid = table.client.post(f"/games/{game_id}/paid", data={"version": "4", "anyway": "1"})
    assert paid.status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).paid_at is not None
        db.session.remove()


# The receipt and payment handles -----------------------------------------------------------


def test_the_receipt_lists_every_line_and_the_sentence_to_share(game_and_link, app, table):
    game_id, path = game_and_link
    finish(table, game_id)  # 1,590 to 260
    phone = app.test_client()
    page = phone.get(path).get_data(as_text=True)
    text = re.search(r'<p class="share-text" id="share-text">(.*?)</p>', page, re.S)
    assert text
    day = re.search(r"for the game of (\d{1,2} \w+ \d{4})", text.group(1))
    assert day
    receipt_path = "/r/" + SeatLink.receipt_token(path.rsplit("/", 1)[1])
    assert text.group(1) == (
        f"Ben owes Ana $32.00 for the game of {day.group(1)}: game $3.00, difference $13.00, "
        f"doubled for the skunk. The receipt: http://localhost{receipt_path}"
    )
    receipt = phone.get(path + "/receipt", follow_redirects=True)
    assert receipt.status_code == 200
    assert receipt.request.path == receipt_path
    printable = receipt.get_data(as_text=True)
    assert "Ben owes Ana $32.00." in printable
    assert "Our table" not in printable
    assert "Final totals: Ana 1,590, Ben 260, after 3 deals." in printable
    french = app.test_client()
    french.set_cookie("lang", "fr")
    text = re.search(r'id="share-text">(.*?)</p>', french.get(path).get_data(as_text=True), re.S)
    assert text
    assert "Ben doit 32,00\xa0$ à Ana pour la partie du " in text.group(1)


def test_a_player_sets_how_they_are_paid_for_the_game_through_their_own_link(
    game_and_link, app, table
):
    game_id, ben = game_and_link
    ana = share(table.client, game_id, 0)
    finish(table, game_id)
    phone = app.test_client()
    phone.get(ana)
    refused = phone.post(ana + "/payment", data={"kind": "email", "handle": "=cmd|' /C calc'!A0"})
    assert refused.status_code == 422
    assert "Enter an e-mail address, such as ana@example.com." in refused.get_data(as_text=True)
    saved = phone.post(ana + "/payment", data={"kind": "paypal", "handle": "paypal.me/AnaT"})
    assert saved.status_code == 302
    with app.app_context():
        player = db.session.scalars(select(Player).where(Player.name == "Ana")).one()
        # The game's bill only: the league's handle is a league admin's (issue 34).
        assert (player.payment_kind, player.payment_handle) == (None, None)
        db.session.remove()
    # Ben, who pays, sees it with the amount filled in; a visitor of the game does not.
    bill = app.test_client().get(ben).get_data(as_text=True)
    assert 'href="https://paypal.me/AnaT/32.00CAD"' in bill
    assert "AnaT" in table.client.get(f"/games/{game_id}/receipt").get_data(as_text=True)
    with app.app_context():
        league = league_by_slug("our-table")
        league_service.update_league(
            league.id, name=league.name, public=True, defaults=league.defaults
        )
        db.session.remove()
    visitor = app.test_client().get(f"/games/{game_id}/receipt")
    assert visitor.status_code == 200
    assert "AnaT" not in visitor.get_data(as_text=True)


def test_a_link_changes_only_its_own_players_handle_for_its_own_game(game_and_link, app, table):
    game_id, ben = game_and_link
    other = table.start_game()  # Ana and Ben again
    phone = app.test_client()
    phone.get(ben)
    phone.post(ben + "/payment", data={"kind": "phone", "handle": "+1 (514) 555-0123"})
    with app.app_context():
        handles = dict(db.session.execute(select(Player.name, Player.payment_handle)).all())
        game, again = db.session.get(Game, game_id), db.session.get(Game, other)
        assert payment_handles.game_handle(game, 1).handle == "514-555-0123"
        assert payment_handles.game_handle(game, 0) is None
        assert payment_handles.game_handle(again, 1) is None
        db.session.remove()
    assert handles == {"Ana": None, "Ben": None, "Carla": None}


@pytest.mark.parametrize(
    ("kind", "typed", "kept"),
    [
        ("email", " Ana@Example.com ", "Ana@example.com"),
        ("phone", "1 514.555.0123", "514-555-0123"),
        ("phone", "(514) 555-0123", "514-555-0123"),
        ("paypal", "https://paypal.me/AnaT", "AnaT"),
        ("paypal", "@AnaT", "AnaT"),
        ("email", "", None),
    ],
)
def test_a_handle_is_read_and_kept_cleaned(app, kind, typed, kept):
    from scorekeeper.records.payment_handles import read_handle

    with app.test_request_context():
        found = read_handle(kind, typed)
    assert (found.handle if found else None) == kept


@pytest.mark.parametrize(
    ("kind", "typed"),
    [
        ("email", '=HYPERLINK("http://x")'),
        ("email", "+ana@example.com"),
        ("email", "-ana@example.com"),
        ("email", "ana@"),
        ("phone", "+1 514 555 012"),
        ("phone", "=1+5145550123"),
        ("phone", "５１４５５５０１２３"),
        ("paypal", "Ana Tremblay"),
        ("paypal", "=cmd"),
        ("paypal", "a" * 21),
        ("bitcoin", "1abc"),
    ],
)
def test_a_handle_that_is_not_one_is_refused_with_a_message(app, kind, typed):
    from scorekeeper.errors import ServiceError
    from scorekeeper.records.payment_handles import read_handle

    with app.test_request_context(), pytest.raises(ServiceError) as refused:
        read_handle(kind, typed)
    assert refused.value.message


def test_a_league_admin_sets_a_players_handle_seen_by_members_only(app, auth, table):
    table.start_game()
    with app.app_context():
        ana = db.session.scalars(select(Player.id).where(Player.name == "Ana")).one()
    url = f"/leagues/our-table/players/{ana}"
    refused = table.client.post(url + "/payment", data={"kind": "phone", "handle": "12"})
    assert refused.status_code == 422
    assert "Enter a 10-digit phone number" in refused.get_data(as_text=True)
    saved = table.client.post(url + "/payment", data={"kind": "email", "handle": "ana@example.com"})
    assert saved.status_code == 302
    viewer = auth.member("viewer")
    assert "ana@example.com" in viewer.get(url).get_data(as_text=True)
    assert viewer.post(url + "/payment", data={"kind": "email", "handle": ""}).status_code == 403
    with app.app_context():
        league = league_by_slug("our-table")
        league_service.update_league(
            league.id, name=league.name, public=True, defaults=league.defaults
        )
        db.session.remove()
    assert "ana@example.com" not in app.test_client().get(url).get_data(as_text=True)


def paid_days_ago(app, game_id: int, days: float) -> None:
    with app.app_context():
        db.session.execute(
            update(Game).where(Game.id == game_id).values(paid_at=utcnow() - timedelta(days=days))
        )
        db.session.commit()
        db.session.remove()


@pytest.mark.parametrize("unlocked_by", ["page", "api"])
def test_a_link_that_expired_stays_dead_when_the_game_is_unlocked(
    game_and_link, app, table, unlocked_by
):
    """Issue 34, point 6: unlocking a game paid more than 7 days ago brought its dead links
    back to life. A link that died stays dead; one still open when the game is unlocked
    stays open."""
    game_id, path = game_and_link
    finish(table, game_id)
    assert table.client.post(f"/games/{game_id}/paid", data={"anyway": "1"}).status_code == 302
    paid_days_ago(app, game_id, SEAT_LINK_DAYS_AFTER_PAID + 0.1)
    phone = app.test_client()
    assert phone.get(path).status_code == 404
    if unlocked_by == "page":
        assert table.client.post(f"/games/{game_id}/unlock").status_code == 302
    else:
        assert Api(app, make_token(app)).post(f"/api/v1/games/{game_id}/unlock").status_code == 200
    token = path.rsplit("/", 1)[1]
    for url in (path, path + "/version", path + "/receipt", f"/api/v1/seats/{token}"):
        assert phone.get(url).status_code == 404, url
    assert phone.post(path + "/agree", data={"version": "4"}).status_code == 404
    assert "Shared:" not in table.page(game_id)
    # A new link opens, and a link unlocked before it died stays open.
    fresh = share(table.client, game_id, 1)
    assert phone.get(fresh).status_code == 200
    assert table.client.post(f"/games/{game_id}/paid", data={"anyway": "1"}).status_code == 302
    paid_days_ago(app, game_id, SEAT_LINK_DAYS_AFTER_PAID - 1)
    assert table.client.post(f"/games/{game_id}/unlock").status_code == 302
    assert phone.get(fresh).status_code == 200
    assert phone.get(path).status_code == 404
