"""The audit trail, and the lock on a game whose payment is marked paid."""

import html
import io
import json
import re

from scorekeeper.accounts.members import set_membership
from scorekeeper.league import service as league_service
from scorekeeper.models import AuditAction, AuditEvent, Game, Role, db
from scorekeeper.records.leagues import league_by_slug


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


# Events kept as data, worded when shown -----------------------------------------------


def history_lines(page):
    """Each change on a game page's history, oldest first, as its words read."""
    history = page.split('class="history', 1)[1].split("</details>", 1)[0]
    lines = re.findall(r"<li>(.*?)</li>", history, re.DOTALL)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", line)).split()) for line in lines][::-1]


def every_kind_of_change(table, app):
    """A game with one change of each kind a game at the table can have; its id and the
    amount paid, in cents."""
    game_id = table.start_game()
    table.record(game_id, 0, (1000, 50), confirm=True)
    table.record(game_id, 0, (300, 40))  # 1,300: the game is over
    table.client.post(f"/games/{game_id}/paid")
    table.client.post(f"/games/{game_id}/unlock")
    table.client.post(
        f"/games/{game_id}/deals/2",
        data={"out": "0", "score0": "100", "score1": "40", "stars0": "0", "stars1": "0"},
    )
    table.client.post(f"/games/{game_id}/deals/1/delete")
    with app.app_context():
        rows = db.session.scalars(
            db.select(AuditEvent).where(AuditEvent.game_id == game_id).order_by(AuditEvent.id)
        ).all()
        kept = [(event.action, event.params) for event in rows]
    return game_id, kept


def test_an_event_keeps_its_action_and_values_not_a_sentence(table, app):
    _, kept = every_kind_of_change(table, app)
    amount = kept[3][1]["amount"]
    assert amount > 0
    assert kept == [
        (AuditAction.DEAL_RECORDED, {"number": 1}),
        (AuditAction.DEAL_RECORDED, {"number": 2}),
        (AuditAction.GAME_FINISHED, {"winner": "Ana", "number": 2}),
        (AuditAction.PAYMENT_MARKED, {"payer": "Ben", "amount": amount}),
        (AuditAction.GAME_UNLOCKED, {}),
        (AuditAction.DEAL_EDITED, {"number": 2}),
        (AuditAction.GAME_REOPENED, {}),
        (AuditAction.DEAL_DELETED, {"number": 1}),
    ]
    assert "summary" not in AuditEvent.__table__.columns


def test_every_change_is_worded_in_the_readers_language(table, app, api):
    game_id, kept = every_kind_of_change(table, app)
    amount = kept[3][1]["amount"]
    dollars = f"{amount // 100}.{amount % 100:02}"
    english = [
        "Deal 1 recorded.",
        "Deal 2 recorded.",
        "Ana won after deal 2.",
        f"Ben's payment of ${dollars} marked paid.",
        "Game unlocked; its payment is unpaid again.",
        "Deal 2 corrected.",
        "The game is in progress again.",
        "Deal 1 deleted; later deals moved up.",
    ]
    lines = history_lines(table.page(game_id))
    assert [line.split(" · admin: ", 1)[1] for line in lines] == [
        "Deal 1 recorded. 1,000 / 50",
        "Deal 2 recorded. 300 / 40",
        *english[2:5],
        "Deal 2 corrected. was 300 / 40, now 100 / 40",
        english[6],
        "Deal 1 deleted; later deals moved up. it was 1,000 / 50",
    ]
    table.client.set_cookie("lang", "fr")
    lines = history_lines(table.page(game_id))
    worded = [line.split(" · admin : ", 1)[1] for line in lines]
    assert [re.match(r".*?\.(?= |$)", line)[0] for line in worded] == [
        "Donne 1 enregistrée.",
        "Donne 2 enregistrée.",
        "Ana a gagné après la donne 2.",
        f"Paiement de {dollars.replace('.', ',')} $ par Ben marqué comme payé.",
        "Partie déverrouillée ; son paiement est de nouveau dû.",
        "Donne 2 corrigée.",
        "La partie est de nouveau en cours.",
        "Donne 1 supprimée ; les donnes suivantes ont remonté.",
    ]
    # The API answers in English, money as it sends money, as it always has.
    history = api.get(f"/api/v1/games/{game_id}/history").get_json()
    assert [event["summary"] for event in history][::-1] == [
        *english[:3],
        f"Ben's payment of {dollars} marked paid.",
        *english[4:],
    ]


def test_an_imported_game_says_where_it_came_from_in_each_language(table, app):
    game_id = table.start_game()
    table.record(game_id, 0, (1250, 50), confirm=True)
    table.client.post(f"/games/{game_id}/paid")
    exported = table.client.get("/leagues/our-table/export.json").get_json()
    with app.app_context():
        slug = league_service.create_league("Copy").slug
        copy = league_by_slug(slug)
        set_membership(copy.id, 1, Role.ADMIN)
        db.session.remove()
    upload = {"format": "json", "file": (io.BytesIO(json.dumps(exported).encode()), "l.json")}
    done = table.client.post(f"/leagues/{slug}/import", data=upload).get_data(as_text=True)
    assert "Imported 1 games (1 deals)." in done
    csv = "game,date,player_a,player_b,out,score_a,score_b\n1,2025-03-14,Ana,Ben,a,1250,50\n"
    upload = {"format": "csv", "file": (io.BytesIO(csv.encode()), "cards.csv")}
    done = table.client.post(f"/leagues/{slug}/import", data=upload).get_data(as_text=True)
    assert "Imported 1 games (1 deals)." in done
    with app.app_context():
        imported = db.session.execute(
            db.select(AuditEvent.game_id, AuditEvent.params)
            .where(AuditEvent.action == AuditAction.GAME_IMPORTED)
            .order_by(AuditEvent.id)
        ).all()
    (from_json, kept_json), (from_csv, kept_csv) = imported
    assert kept_json == {
        "file": "league_export",
        "place": "game",
        "where": f"1 (id {game_id})",
        "paid_by": "admin",
    }
    assert kept_csv == {"file": "score_card", "place": "line", "where": "2", "paid_by": None}
    english = {
        from_json: f"Imported from a league export (game 1 (id {game_id})). "
        "The file says admin marked it paid.",
        from_csv: "Imported from a paper score card (line 2).",
    }
    french = {
        from_json: f"Importée d'une exportation de ligue (partie 1 (id {game_id})). "
        "Le fichier indique qu'admin l'a marquée comme payée.",
        from_csv: "Importée d'une feuille de pointage papier (ligne 2).",
    }
    for language, words in (("en", english), ("fr", french)):
        table.client.set_cookie("lang", language)
        for game, sentence in words.items():
            assert sentence in history_lines(table.page(game))[0]
