"""The audit trail, and the lock on a game whose payment is marked paid."""

import re

from scorekeeper.models import AuditEvent, Game, db


def events(app, game_id):
    with app.app_context():
        rows = db.session.scalars(
            db.select(AuditEvent).where(AuditEvent.game_id == game_id).order_by(AuditEvent.id)
        ).all()
        return [(e.action, e.user.username if e.user else None, e.before, e.after) for e in rows]


def test_every_change_is_kept_with_who_and_the_values_before_and_after(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (1000, 50), confirm=True)
    table.record(game_id, 0, (300, 40))  # 1,300: the game is over
    table.client.post(
        f"/games/{game_id}/deals/2",
        data={"out": "0", "score0": "100", "score1": "40", "stars0": "0", "stars1": "0"},
    )
    table.client.post(f"/games/{game_id}/deals/1/delete")
    trail = events(app, game_id)
    assert [action for action, *_ in trail] == [
        "deal_recorded",
        "deal_recorded",
        "game_finished",
        "deal_edited",
        "game_reopened",
        "deal_deleted",
    ]
    assert {who for _, who, *_ in trail} == {"admin"}
    _, _, before, after = trail[3]
    assert before == {"number": 2, "out": 0, "scores": [300, 40], "stars": [0, 0]}
    assert after == {"number": 2, "out": 0, "scores": [100, 40], "stars": [0, 0]}
    assert trail[5][2]["scores"] == [1000, 50]


def test_members_read_the_history_on_the_game_page_and_visitors_do_not(table, app, auth):
    game_id = table.start_game()
    table.record(game_id, 0, (100, 50))
    assert "Deal 1 recorded." in auth.member("viewer").get(f"/games/{game_id}").get_data(True)
    assert "Deal 1 recorded." not in app.test_client().get(f"/games/{game_id}").get_data(True)


def test_the_history_writes_scores_as_the_score_card_does(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1100, -50), confirm=True)
    table.client.post(
        f"/games/{game_id}/deals/1", data={"out": "0", "score0": "100", "score1": "-50"}
    )
    history = table.page(game_id).split('class="history', 1)[1]
    assert "1,100 / −50" in history  # a true minus and grouped thousands, as on the card
    assert "now 100 / −50" in history


def test_the_history_writes_a_payment_as_money(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 50), confirm=True)
    table.client.post(f"/games/{game_id}/paid")
    history = table.page(game_id).split('class="history', 1)[1]
    assert re.search(r"Ben&#39;s payment of \$\d+\.\d\d marked paid\.", history)


def finished_game(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 50), confirm=True)
    return game_id


def test_marking_paid_locks_the_game_until_an_admin_unlocks_it(table, app, auth):
    game_id = finished_game(table)
    scorekeeper = auth.member("scorekeeper")
    assert scorekeeper.post(f"/games/{game_id}/paid").status_code == 302
    page = scorekeeper.get(f"/games/{game_id}").get_data(as_text=True)
    assert "The game is settled and locked." in page
    assert ">Fix<" not in page
    refused = scorekeeper.post(
        f"/games/{game_id}/deals/1",
        data={"out": "0", "score0": "1200", "score1": "50", "confirm": "0 1200 50 0 0"},
    )
    assert refused.status_code == 409
    assert "locked" in refused.get_data(as_text=True)
    assert scorekeeper.post(f"/games/{game_id}/unlock").status_code == 403
    assert table.client.post(f"/games/{game_id}/unlock").status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).paid_at is None
    actions = [action for action, *_ in events(app, game_id)]
    assert actions[-2:] == ["payment_marked", "game_unlocked"]
    assert (
        table.client.post(
            f"/games/{game_id}/deals/1",
            data={"out": "0", "score0": "1200", "score1": "50", "confirm": "0 1200 50 0 0"},
        ).status_code
        == 302
    )


def test_only_a_finished_game_can_be_marked_paid(table):
    game_id = table.start_game()
    response = table.client.post(f"/games/{game_id}/paid")
    assert response.status_code == 409
    assert "Only a finished game" in response.get_data(as_text=True)


def test_marking_paid_from_a_stale_page_is_refused(table, app):
    game_id = finished_game(table)
    assert table.client.post(f"/games/{game_id}/paid", data={"version": "1"}).status_code == 409
    with app.app_context():
        assert db.session.get(Game, game_id).paid_at is None
