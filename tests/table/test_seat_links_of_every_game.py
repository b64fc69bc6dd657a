"""Seat links, agreements, receipts and the payment of every game but Mille (issue 36,
"Everything Mille has works for every game"): a 4-player Knock Rummy sitting and a Scotch
Whist game in partnerships, through the pages without a script. One link (and one QR code)
per player; everyone must agree, and any change to the deals (or the end taken back) voids
every agreement; the bill is a receipt per payer with their payees' payment handles; mark
paid asks while someone has not agreed, then locks; a link dies some days after."""

import re
from datetime import timedelta

import pytest
from sqlalchemy import update

from scorekeeper.models import SEAT_LINK_DAYS_AFTER_PAID, Game, Player, db, utcnow
from scorekeeper.records import payment_handles
from scorekeeper.records.payment_handles import read_handle

from .kind_helpers import GAMES, post_deal, start, words

LINK = re.compile(r'class="share-link" href="http://localhost(/s/([A-Za-z0-9_-]+))"')
RECEIPT = re.compile(r'href="http://localhost(/r/[A-Za-z0-9_-]+)"')

#: Scotch Whist in partnerships to its end: Ana & Cy take 41 in three deals.
WHIST_TO_THE_END = [
    {"honours_jack": "0", "honours_ace": "0", "honours_king": "0", "honours_queen": "0",
     "honours_ten": "0", "cards_0": "24", "cards_1": "12"},
] * 4  # fmt: skip


def share(client, game_id: int, seat: int) -> str:
    """Tap "Show the card to …": the link's path, read from the page shown once."""
    response = client.post(f"/games/{game_id}/seats/{seat}/share")
    assert response.status_code == 201, words(response.get_data(as_text=True))[:300]
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert 'class="qr"' in page
    found = LINK.search(page)
    assert found, page
    return found.group(1)


def knock_rummy(app, table) -> int:
    """Ana, Ben, Cy and Dan at Knock Rummy: two deals recorded."""
    game_id = start(app, "knock-rummy")
    for deal in GAMES["knock-rummy"][3]:
        assert post_deal(table.client, game_id, deal).status_code == 302
    return game_id


def scotch_whist(app, table, *, to_the_end: bool = False) -> int:
    game_id = start(app, "scotch-whist")
    deals = GAMES["scotch-whist"][3] if not to_the_end else WHIST_TO_THE_END
    for deal in deals:
        if to_the_end and deal_is_over(app, game_id):
            break
        response = post_deal(table.client, game_id, deal)
        assert response.status_code == 302, words(response.get_data(as_text=True))[:600]
    return game_id


def deal_is_over(app, game_id: int) -> bool:
    with app.app_context():
        game = db.session.get(Game, game_id)
        over = game.finished
        db.session.remove()
    return over


def finished(app, table, kind: str) -> int:
    if kind == "knock-rummy":
        game_id = knock_rummy(app, table)
        assert table.client.post(f"/games/{game_id}/finish").status_code == 302
    else:
        game_id = scotch_whist(app, table, to_the_end=True)
    assert deal_is_over(app, game_id)
    return game_id


def seats_of(kind: str) -> int:
    return GAMES[kind][0]


KINDS = ["knock-rummy", "scotch-whist"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_player_has_a_link_that_opens_that_card_and_nothing_else(app, table, kind):
    game_id = knock_rummy(app, table) if kind == "knock-rummy" else scotch_whist(app, table)
    page = table.page(game_id)
    for name in ["Ana", "Ben", "Cy", "Dan"]:
        assert f"Show the card to {name}" in words(page)
    paths = [share(table.client, game_id, seat) for seat in range(seats_of(kind))]
    assert len(set(paths)) == 4
    assert "Shared: 1 link open." in words(table.page(game_id))
    assert table.client.post(f"/games/{game_id}/seats/4/share").status_code == 404
    phone = app.test_client()  # no account, no cookies
    response = phone.get(paths[2])
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    said = words(response.get_data(as_text=True))
    assert "Cy's card, on Cy's phone." in said
    for name in ("Ana", "Ben", "Dan"):
        assert name in said
    assert 'id="deal-2"' in response.get_data(as_text=True)
    # The game's history, without who made each change (issue 38, point 3).
    assert "Deal 2 recorded." in said
    for hidden in ("Our table", "our-table", "/leagues", "admin", "/games/", "Fix"):
        assert hidden not in response.get_data(as_text=True), hidden
    version = phone.get(paths[2] + "/version")
    assert version.status_code == 200
    # Stop sharing Cy's card: Cy's link is dead at once, Ana's still opens.
    assert table.client.post(f"/games/{game_id}/seats/2/stop").status_code == 302
    assert phone.get(paths[2]).status_code == 404
    assert phone.get(paths[0]).status_code == 200


@pytest.mark.parametrize("kind", KINDS)
def test_everyone_agrees_and_a_correction_voids_every_agreement(app, table, kind):
    game_id = finished(app, table, kind)
    count = seats_of(kind)
    paths = [share(table.client, game_id, seat) for seat in range(count)]
    phone = app.test_client()
    version = _version(app, game_id)
    for path in paths[:-1]:
        response = phone.post(path + "/agree", data={"version": str(version)})
        assert response.status_code == 302
        assert response.headers["Location"].endswith("#play")
        assert "Saved: you agree with this card." in words(phone.get(path).get_data(as_text=True))
    # The scorekeeper records the last player's agreement on the game page.
    last = ["Ana", "Ben", "Cy", "Dan"][count - 1]
    page = words(table.page(game_id))
    assert "Does everyone agree with this card?" in page
    assert f"{last} agrees with this card" in page
    response = table.client.post(
        f"/games/{game_id}/agree", data={"version": str(version), "seat": str(count - 1)}
    )
    assert response.status_code == 302
    page = words(table.page(game_id))
    assert f"{last} agreed at" in page
    assert "has not agreed" not in page
    # An agreement given again changes nothing; a seat the game does not have is a 404.
    assert phone.post(paths[0] + "/agree", data={"version": str(version)}).status_code == 302
    assert _agreement_count(app, game_id) == count
    assert (
        table.client.post(f"/games/{game_id}/agree", data={"version": str(version), "seat": "7"})
    ).status_code == 404
    # A correction (the end taken back for the sitting, the last deal taken back for the
    # game that ended itself): every agreement is void, and each phone says so.
    if kind == "knock-rummy":
        assert table.client.post(f"/games/{game_id}/resume").status_code == 302
        voided = "The end was taken back after you agreed: look again."
        voided_for = "The end was taken back after Ana agreed: look again."
    else:
        assert table.client.post(f"/games/{game_id}/undo").status_code == 302
        voided = "was deleted after you agreed: look again."
        voided_for = "was deleted after Ana agreed: look again."
    assert voided in words(phone.get(paths[0]).get_data(as_text=True))
    assert voided_for in words(table.page(game_id))
    agreements = phone_api(app, paths[1])["agreements"]
    assert len(agreements) == count
    assert not any(agreement["stands"] for agreement in agreements)


@pytest.mark.parametrize("kind", KINDS)
def test_a_corrected_deal_voids_the_agreements(app, table, kind):
    game_id = knock_rummy(app, table) if kind == "knock-rummy" else scotch_whist(app, table)
    path = share(table.client, game_id, 1)
    phone = app.test_client()
    agreed = phone.post(path + "/agree", data={"version": str(_version(app, game_id))})
    assert agreed.status_code == 302
    assert "You agreed at" in words(phone.get(path).get_data(as_text=True))
    fixed = dict(GAMES[kind][3][0])
    if kind == "knock-rummy":
        fixed["counts_3"] = "21"
    else:
        fixed["cards_0"], fixed["cards_1"] = "24", "12"
    response = table.client.post(
        f"/games/{game_id}/deals/1", data={**fixed, "version": str(_version(app, game_id))}
    )
    assert response.status_code == 302, words(response.get_data(as_text=True))[:500]
    said = words(phone.get(path).get_data(as_text=True))
    assert "Deal 1 was corrected after you agreed: look again." in said
    assert "I agree with this card" in said


@pytest.mark.parametrize("kind", KINDS)
def test_a_receipt_per_payer_with_the_payees_handles(app, table, kind):
    game_id = finished(app, table, kind)
    with app.app_context():
        ana = db.session.scalar(db.select(Player).where(Player.name == "Ana"))
        payment_handles.set_handle(ana.id, read_handle("email", "ana@example.com"), by=None)
        db.session.remove()
    answer = phone_api_game(app, table, game_id)
    payments = answer["settlement"]["payments"]
    assert payments
    payers = {payment["from"] for payment in payments}
    receipt = table.client.get(f"/games/{game_id}/receipt")
    assert receipt.status_code == 200
    said = words(receipt.get_data(as_text=True))
    names = answer["players"]
    for payment in payments:
        amount = "$" + payment["amount"]
        assert f"{names[payment['from']]} owes {names[payment['to']]} {amount}." in said
    for payer in payers:
        assert f"{names[payer]}'s bill" in said
    if any(payment["to"] == 0 for payment in payments):
        assert "ana@example.com" in said
    # Each payer's sentence ends with their own receipt, read-only (issue 38, point 7).
    for payer in payers:
        shared = re.search(
            rf"{names[payer]} owes [^<]* The receipt: http://localhost(/r/\S+)<",
            receipt.get_data(as_text=True),
        )
        assert shared
        theirs = app.test_client().get(shared.group(1))
        assert theirs.status_code == 200
        assert f"{names[payer]}'s bill" in words(theirs.get_data(as_text=True))
        assert "I agree with this card" not in theirs.get_data(as_text=True)
    # Each payer's link reads their own receipt, at an address that opens nothing else.
    payer = sorted(payers)[0]
    path = share(table.client, game_id, payer)
    phone = app.test_client()
    seat_page = phone.get(path).get_data(as_text=True)
    assert f"{names[payer]}'s bill" in words(seat_page)
    own = RECEIPT.search(seat_page)
    assert own, seat_page
    printed = phone.get(own.group(1))
    assert printed.status_code == 200
    assert printed.headers["Cache-Control"] == "no-store"
    assert printed.headers["Referrer-Policy"] == "no-referrer"
    text = words(printed.get_data(as_text=True))
    assert f"{names[payer]}'s bill" in text
    assert f"The receipt: http://localhost{own.group(1)}" in text
    assert "/s/" not in printed.get_data(as_text=True)  # never the seat's power
    for other in payers - {payer}:
        paid_by = {p["to"] for p in payments if p["from"] == other}
        if payer not in paid_by:
            assert f"{names[other]}'s bill" not in text
    assert phone.get(path + "/receipt").status_code == 303


@pytest.mark.parametrize("kind", KINDS)
def test_mark_paid_asks_until_everyone_agrees_then_locks(app, table, kind):
    game_id = finished(app, table, kind)
    version = _version(app, game_id)
    asked = table.client.post(
        f"/games/{game_id}/paid", data={"version": str(version), "ask": "agreements"}
    )
    assert asked.status_code == 200
    said = words(asked.get_data(as_text=True))
    for name in ["Ana", "Ben", "Cy", "Dan"]:
        assert f"{name} has not agreed with this card yet." in said
    assert "Mark it paid anyway?" in said
    assert not _paid(app, game_id)
    for seat in range(seats_of(kind)):
        agreed = {"version": str(version), "seat": str(seat)}
        assert table.client.post(f"/games/{game_id}/agree", data=agreed).status_code == 302
    response = table.client.post(
        f"/games/{game_id}/paid", data={"version": str(version), "ask": "agreements"}
    )
    assert response.status_code == 302
    assert _paid(app, game_id)
    page = words(table.page(game_id))
    assert "The game is settled and locked." in page
    assert table.client.post(f"/games/{game_id}/undo").status_code == 409


@pytest.mark.parametrize("kind", KINDS)
def test_paid_anyway_locks_and_the_links_die_some_days_later(app, table, kind):
    game_id = finished(app, table, kind)
    path = share(table.client, game_id, 0)
    version = _version(app, game_id)
    response = table.client.post(
        f"/games/{game_id}/paid", data={"version": str(version), "anyway": "1"}
    )
    assert response.status_code == 302
    phone = app.test_client()
    assert "paid" in words(phone.get(path).get_data(as_text=True))
    with app.app_context():
        db.session.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(paid_at=utcnow() - timedelta(days=SEAT_LINK_DAYS_AFTER_PAID, minutes=1))
        )
        db.session.commit()
        db.session.remove()
    assert phone.get(path).status_code == 404
    assert phone.get(path + "/version").status_code == 404


def _version(app, game_id: int) -> int:
    with app.app_context():
        version = db.session.get(Game, game_id).version
        db.session.remove()
    return version


def _paid(app, game_id: int) -> bool:
    with app.app_context():
        paid = db.session.get(Game, game_id).paid_at is not None
        db.session.remove()
    return paid


def _agreement_count(app, game_id: int) -> int:
    with app.app_context():
        count = db.session.get(Game, game_id).agreement_count
        db.session.remove()
    return count


def phone_api(app, path: str) -> dict:
    token = path.rsplit("/", 1)[1]
    response = app.test_client().get(f"/api/v1/seats/{token}")
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    return response.get_json()


def phone_api_game(app, table, game_id: int) -> dict:
    return phone_api(app, share(table.client, game_id, 0))["game"]


def test_the_apis_seat_answer_is_the_other_games_card_without_its_id_and_league(app, table, api):
    game_id = knock_rummy(app, table)
    path = share(table.client, game_id, 3)
    token = path.rsplit("/", 1)[1]
    phone = app.test_client()
    opened = phone.get(f"/api/v1/seats/{token}")
    assert opened.status_code == 200
    assert opened.headers["Cache-Control"] == "no-store"
    seat_card = opened.get_json()
    assert seat_card["seat"] == 3
    assert seat_card["agreements"] == []
    whole = api.get(f"/api/v1/games/{game_id}").get_json()
    assert seat_card["game"] == {k: v for k, v in whole.items() if k not in ("id", "league")}
    agreed = phone.post(f"/api/v1/seats/{token}/agreement", json={"version": whole["version"]})
    assert agreed.status_code == 201
    [agreement] = agreed.get_json()["agreements"]
    assert (agreement["seat"], agreement["player"], agreement["stands"]) == (3, "Dan", True)
    listed = api.get(f"/api/v1/games/{game_id}/agreements").get_json()
    assert [(a["seat"], a["by"]) for a in listed] == [(3, "link")]
