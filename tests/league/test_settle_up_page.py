"""The "Settle up" page (issue 37), without JavaScript: tonight's unpaid games of every kind,
each player's net, the fewest payments with where each payee is paid, each payment ticked
as made (the last one settles the night), or the night settled at once, asked first."""

import re

from sqlalchemy import select

from scorekeeper.models import AuditEvent, Game, db
from tests.api.test_settle_up import knock_sitting, mille_won_by_ana
from tests.conftest import text_of


def night_page(client, games=None):
    query = "".join(f"&games={game_id}" for game_id in games or [])
    response = client.get(
        f"/leagues/our-table/settle-up?x=1{query}" if games else "/leagues/our-table/settle-up"
    )
    assert response.status_code == 200
    return response.get_data(as_text=True)


def paid_games(app):
    with app.app_context():
        paid = set(db.session.scalars(select(Game.id).where(Game.paid_at.is_not(None))))
        db.session.remove()
    return paid


def test_tonight_is_settled_payment_by_payment(api, auth, app):
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api)
    scorekeeper = auth.member("scorekeeper")
    page = night_page(scorekeeper)
    text = text_of(page)
    assert "Each player's net" in text
    pays = re.findall(
        r'name="payer" value="(\d+)"><input type="hidden" name="payee" value="(\d+)"', page
    )
    assert len(pays) >= 2
    games = sorted([mille["id"], knock["id"]])
    for number, (payer, payee) in enumerate(pays, start=1):
        data = {"payer": payer, "payee": payee, "games": [str(g) for g in games]}
        response = scorekeeper.post("/leagues/our-table/settle-up/paid", data=data)
        assert response.status_code == 302
        if number < len(pays):
            assert paid_games(app) == set()
            assert text_of(night_page(scorekeeper, games)).count("paid ") >= number
    assert paid_games(app) == set(games)
    with app.app_context():
        actions = [
            e.action
            for e in db.session.scalars(select(AuditEvent).where(AuditEvent.game_id.is_(None)))
        ]
        db.session.remove()
    assert actions.count("payment_ticked") == len(pays)
    assert "night_settled" in actions


def test_the_night_settled_at_once_is_asked_first(api, auth, app):
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api)
    scorekeeper = auth.member("scorekeeper")
    games = [str(mille["id"]), str(knock["id"])]
    asked = scorekeeper.post("/leagues/our-table/settle-up/settled", data={"games": games})
    assert asked.status_code == 200
    assert "Mark all 2 games paid and locked?" in text_of(asked.get_data(as_text=True))
    assert paid_games(app) == set()
    done = scorekeeper.post(
        "/leagues/our-table/settle-up/settled", data={"games": games, "confirmed": "y"}
    )
    assert done.status_code == 302
    assert paid_games(app) == {mille["id"], knock["id"]}


def test_a_viewer_reads_it_but_ticks_nothing(api, auth, app):
    mille_won_by_ana(api)
    viewer = auth.member("viewer")
    page = night_page(viewer)
    assert 'name="payer"' not in page
    assert (
        viewer.post("/leagues/our-table/settle-up/settled", data={"games": ["1"]}).status_code
        == 403
    )
    outsider = app.test_client()
    assert outsider.get("/leagues/our-table/settle-up").status_code == 404


def test_in_french(api, auth):
    mille_won_by_ana(api)
    client = auth.member("viewer")
    client.get("/language/fr")
    page = client.get("/leagues/our-table/settle-up")
    assert page.status_code == 200
    text = text_of(page.get_data(as_text=True))
    assert "Régler les comptes" in text
    assert "paie" in text


def test_who_owes_whom_adds_up_the_other_games_too(api, auth):
    knock = knock_sitting(api)
    page = text_of(auth.member("viewer").get("/leagues/our-table/owes").get_data(as_text=True))
    assert "Unpaid in the other games" in page
    payments = knock["settlement"]["payments"]
    names = knock["players"]
    for payment in payments:
        said = f"{names[payment['from']]} owes {names[payment['to']]} ${payment['amount']}"
        assert said in page
    assert "Settle up tonight in the fewest payments" in page


def test_the_payments_say_who_paid_whom_in_every_game_of_the_night(api, auth, app):
    """A sitting marked paid is listed by its payers and payees (every player who ended below
    zero and above), its amount what they were owed: not only a game of Mille's loser."""
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api, players=("Ben", "Cy", "Dan"))
    scorekeeper = auth.member("scorekeeper")
    games = [str(mille["id"]), str(knock["id"])]
    done = scorekeeper.post(
        "/leagues/our-table/settle-up/settled", data={"games": games, "confirmed": "y"}
    )
    assert done.status_code == 302
    balances = [round(float(amount) * 100) for amount in knock["balances"]]
    names = ("Ben", "Cy", "Dan")
    payers = ", ".join(name for name, net in zip(names, balances, strict=True) if net < 0)
    payees = ", ".join(name for name, net in zip(names, balances, strict=True) if net > 0)
    owed = sum(net for net in balances if net > 0)
    assert payers
    assert payees
    for url in ("/leagues/our-table/payments", "/leagues/our-table/owes"):
        response = scorekeeper.get(url)
        assert response.status_code == 200, url
        text = text_of(response.get_data(as_text=True))
        assert f"{payers} paid {payees} ${owed / 100:.2f}" in text, url
        assert f"Ben paid Ana ${float(mille['settlement']['total']):.2f}" in text, url
    scorekeeper.get("/language/fr")
    verb = "ont payé" if "," in payers else "a payé"  # French says how many paid
    text = text_of(scorekeeper.get("/leagues/our-table/payments").get_data(as_text=True))
    assert f"{payers} {verb} {payees}" in text
    assert "Ben a payé Ana" in text
