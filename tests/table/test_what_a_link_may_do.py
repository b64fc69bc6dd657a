"""What a seat's link may do, and what it hands on (issue 34, points 2 and 3).

* What is meant to be forwarded — the bill's sentence, the printable receipt — carries the
  receipt's own address, which reads the receipt and nothing else: not the seat's link,
  which agrees as that player and says where they are paid.
* Where a player is paid, said through a seat's link, is for that game's bill only: a
  scorekeeper who shares a seat of a throwaway game can't redirect the player's payments
  for the league's other games. Every change of a handle is kept in the league's history,
  with who made it (or which link, shared by whom) and when.
* A link made by an account that is now disabled (or deleted) reads its card and writes
  nothing.

These run on SQLite and, with ``DATABASE_URL``, on PostgreSQL.
"""

import html
import re

import pytest
from sqlalchemy import select, update

from scorekeeper.models import AuditAction, AuditEvent, Game, Player, SeatLink, User, db
from tests.conftest import Api, Table, make_token, text_of
from tests.table.test_seat_links import finish, share

SENTENCE = re.compile(r'<p class="share-text" id="share-text">(.*?)</p>', re.S)


@pytest.fixture
def finished(table):
    """A finished game of Ana and Ben (Ana wins $32.00) and Ben's link."""
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    finish(table, game_id)
    return game_id, share(table.client, game_id, 1)


# Point 2: the bill to share carries no power ---------------------------------------------


def test_what_the_bill_hands_on_opens_the_receipt_and_nothing_else(finished, app, table):
    game_id, path = finished
    seat_token = path.rsplit("/", 1)[1]
    phone = app.test_client()
    page = phone.get(path).get_data(as_text=True)
    sentence = SENTENCE.search(page)
    assert sentence
    assert seat_token not in sentence.group(1)
    found = re.search(r"The receipt: http://localhost(/r/([A-Za-z0-9_-]+))$", sentence.group(1))
    assert found, sentence.group(1)
    forwarded, receipt_token = found.groups()
    assert f'href="http://localhost{forwarded}" rel="noreferrer">The receipt, to print' in page
    # The printable receipt is at that address: what is printed, or copied from the
    # address bar, is the receipt's.
    printed = phone.get(path + "/receipt", follow_redirects=True)
    assert printed.request.path == forwarded
    assert seat_token not in printed.get_data(as_text=True)

    stranger = app.test_client()
    receipt = stranger.get(forwarded)
    assert receipt.status_code == 200
    assert receipt.headers["Cache-Control"] == "no-store"
    assert receipt.headers["Referrer-Policy"] == "no-referrer"
    text = receipt.get_data(as_text=True)
    assert "Ben owes Ana $32.00." in text
    assert f"The receipt: http://localhost{forwarded}" in text
    assert 'method="post"' not in text  # nothing to agree with, nothing to say
    assert "/s/" not in text
    # It opens nothing a seat's link opens.
    for url in ("", "/version", "/receipt"):
        assert stranger.get(f"/s/{receipt_token}{url}").status_code == 404, url
    assert stranger.post(f"/s/{receipt_token}/agree", data={"version": "4"}).status_code == 404
    handle = {"kind": "paypal", "handle": "Thief"}
    assert stranger.post(f"/s/{receipt_token}/payment", data=handle).status_code == 404
    script = Api(app)
    assert script.get(f"/api/v1/seats/{receipt_token}").status_code == 404
    assert script.post(f"/api/v1/seats/{receipt_token}/agreement", {}).status_code == 404
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 0
        assert (
            db.session.scalar(select(AuditEvent.id).where(AuditEvent.action == "handle_changed"))
            is None
        )
        db.session.remove()
    # It dies with its link.
    assert table.client.post(f"/games/{game_id}/seats/1/stop").status_code == 302
    assert stranger.get(forwarded).status_code == 404


def test_a_link_made_before_receipts_had_tokens_gets_one_when_opened(finished, app):
    _, path = finished
    with app.app_context():
        db.session.execute(update(SeatLink).values(receipt_hash=None))
        db.session.commit()
        db.session.remove()
    phone = app.test_client()
    sentence = SENTENCE.search(phone.get(path).get_data(as_text=True))
    assert sentence
    found = re.search(r"http://localhost(/r/[A-Za-z0-9_-]+)$", sentence.group(1))
    assert found
    assert phone.get(found.group(1)).status_code == 200
    assert phone.get(path).status_code == 200  # once: the page opens as before


def test_the_members_receipt_shares_the_payers_own_receipt_not_the_game(finished, app, table):
    """Issue 38, point 7: the scorekeeper's sentence links a page the payer can open (the
    game's page is a private league's), which reads the bill and agrees with nothing."""
    game_id, _ = finished
    page = table.client.get(f"/games/{game_id}/receipt").get_data(as_text=True)
    sentence = SENTENCE.search(page)
    assert sentence
    found = re.search(r"The receipt: http://localhost(/r/[A-Za-z0-9_-]+)$", sentence.group(1))
    assert found, sentence.group(1)
    assert "Back to the card" in page
    # The same link on every load (the page's CSRF token, signed with the time, is not).
    again = SENTENCE.search(table.client.get(f"/games/{game_id}/receipt").get_data(as_text=True))
    assert again
    assert again.group(1) == sentence.group(1)
    phone = app.test_client()  # no account: the league is private
    opened = phone.get(found.group(1))
    assert opened.status_code == 200
    assert opened.headers["Cache-Control"] == "no-store"
    receipt = opened.get_data(as_text=True)
    assert "Ben owes Ana" in receipt
    assert "I agree with this card" not in receipt
    assert "/s/" not in receipt
    assert f"/games/{game_id}" not in receipt
    assert phone.post(found.group(1).replace("/r/", "/s/") + "/agree").status_code == 404
    # A token made up, or another seat's or game's, opens nothing.
    token = found.group(1).rsplit("/", 1)[1]
    game, seat, mac = token.split("-", 2)
    for wrong in (f"{game}-{1 - int(seat)}-{mac}", f"{int(game) + 1}-{seat}-{mac}", token[:-1]):
        assert phone.get(f"/r/{wrong}").status_code == 404, wrong


# Point 3: a handle said through a link is for that game's bill only --------------------


def _player_id(app, name: str) -> int:
    with app.app_context():
        found = db.session.scalars(select(Player.id).where(Player.name == name)).one()
        db.session.remove()
    return found


def _handle_events(app) -> list[AuditEvent]:
    with app.app_context():
        events = list(
            db.session.scalars(
                select(AuditEvent)
                .where(AuditEvent.action == AuditAction.HANDLE_CHANGED)
                .order_by(AuditEvent.id)
            )
        )
        db.session.expunge_all()
        db.session.remove()
    return events


def test_a_scorekeeper_cannot_redirect_a_players_payments_through_a_throwaway_game(
    finished, app, auth, table
):
    real_game, _ = finished  # Ana won it: Ben owes her $32.00
    ana = _player_id(app, "Ana")
    player_page = f"/leagues/our-table/players/{ana}"
    saved = table.client.post(
        player_page + "/payment", data={"kind": "email", "handle": "ana@example.com"}
    )
    assert saved.status_code == 302  # the league's handle, set by a league admin

    mallory = auth.member("scorekeeper", username="mallory")
    stolen = {"kind": "paypal", "handle": "MalloryCash"}
    assert mallory.post(player_page + "/payment", data=stolen).status_code == 403
    throwaway = Table(mallory).start_game("Ana", "Zed")
    link = share(mallory, throwaway, 0)
    phone = app.test_client()
    assert phone.post(link + "/payment", data=stolen).status_code == 302

    with app.app_context():
        player = db.session.get(Player, ana)
        assert (player.payment_kind, player.payment_handle) == ("email", "ana@example.com")
        db.session.remove()
    # Ben's bill of the real game still says where Ana is paid: the league's handle.
    bill = table.client.get(f"/games/{real_game}/receipt").get_data(as_text=True)
    assert "ana@example.com" in bill
    assert "MalloryCash" not in bill
    # The change is kept, with which link and who shared it, where the league sees it.
    history = text_of(html.unescape(table.client.get(player_page).get_data(as_text=True)))
    assert (
        "Where Ana is paid for this game set to MalloryCash through their seat's link "
        "(shared by mallory)."
    ) in history
    assert "admin: How Ana is paid set to ana@example.com." in history
    game_page = html.unescape(table.page(throwaway))
    assert "set to MalloryCash through their seat's link (shared by mallory)" in game_page


def test_every_change_of_a_handle_is_kept_with_who_or_which_link_and_when(finished, app, table):
    game_id, ben = finished
    ben_id = _player_id(app, "Ben")
    url = f"/leagues/our-table/players/{ben_id}/payment"
    table.client.post(url, data={"kind": "phone", "handle": "514 555 0123"})
    table.client.post(url, data={"kind": "phone", "handle": "514 555 0123"})  # no change
    phone = app.test_client()
    phone.post(ben + "/payment", data={"kind": "paypal", "handle": "BenB"})
    phone.post(ben + "/payment", data={"kind": "paypal", "handle": ""})  # back to the league's
    table.client.post(url, data={"kind": "phone", "handle": ""})
    events = _handle_events(app)
    with app.app_context():
        admin = db.session.scalars(select(User.id).where(User.username == "admin")).one()
        link = db.session.scalars(select(SeatLink.id)).one()
        db.session.remove()
    assert [
        (e.game_id, e.user_id, e.params["by"], e.params.get("link"), e.before, e.after)
        for e in events
    ] == [
        (None, admin, "member", None, None, {"kind": "phone", "handle": "514-555-0123"}),
        (game_id, None, "link", link, None, {"kind": "paypal", "handle": "BenB"}),
        (game_id, None, "link", link, {"kind": "paypal", "handle": "BenB"}, None),
        (None, admin, "member", None, {"kind": "phone", "handle": "514-555-0123"}, None),
    ]
    assert all(e.params["name"] == "Ben" and e.params["player_id"] == ben_id for e in events)
    assert all(e.created_at is not None for e in events)
    assert events[1].params["shared_by"] == "admin"
    # The game's history, on its page and through the API, says it in words.
    script = Api(app, make_token(app))
    said = [e["summary"] for e in script.get(f"/api/v1/games/{game_id}/history").get_json()]
    assert (
        "Where Ben is paid for this game set to BenB through their seat's link (shared by admin)."
    ) in said
    french = table.client
    french.set_cookie("lang", "fr")
    page = french.get(f"/leagues/our-table/players/{ben_id}").get_data(as_text=True)
    assert "Comment Ben est payé\xa0: 514-555-0123." in page


# Point 3: a link made by an account since disabled writes nothing -----------------------


@pytest.mark.parametrize("ended", ["disabled", "deleted"])
def test_a_link_made_by_an_account_no_longer_in_use_reads_and_writes_nothing(
    app, auth, table, ended
):
    keeper = auth.member("scorekeeper", username="kim")
    game_id = Table(keeper).start_game()
    Table(keeper).record(game_id, 0, (290, 160))
    path = share(keeper, game_id, 1)
    with app.app_context():
        kim = db.session.scalars(select(User.id).where(User.username == "kim")).one()
        db.session.remove()
    if ended == "disabled":
        assert table.client.post(f"/users/{kim}/disable").status_code == 302
    else:
        with app.app_context():
            db.session.delete(db.session.get(User, kim))
            db.session.commit()
            db.session.remove()
    phone = app.test_client()
    page = phone.get(path)
    assert page.status_code == 200  # the card still reads
    text = page.get_data(as_text=True)
    assert "shared by an account that is no longer in use" in text
    assert "I agree with this card" not in text
    assert "/payment" not in text
    agree = phone.post(path + "/agree", data={"version": "2"})
    assert agree.status_code == 403
    assert "no longer in use" in agree.get_data(as_text=True)
    paid = phone.post(path + "/payment", data={"kind": "paypal", "handle": "Thief"})
    assert paid.status_code == 403
    token = path.rsplit("/", 1)[1]
    refused = Api(app).post(f"/api/v1/seats/{token}/agreement", {"version": 2})
    assert refused.status_code == 403
    assert "no longer in use" in refused.get_json()["error"]
    assert Api(app).get(f"/api/v1/seats/{token}").status_code == 200
    with app.app_context():
        assert db.session.get(Game, game_id).agreement_count == 0
        db.session.remove()
    assert _handle_events(app) == []
