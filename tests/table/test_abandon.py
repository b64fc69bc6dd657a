"""Abandoning a game (issue 24, point 4): it counts like no game — out of the games in
progress, the standings, the ratings and who owes whom — is kept in the history with who
did it, and a league admin can restore it. These run on SQLite and, with
``DATABASE_URL``, on PostgreSQL."""

import re

import pytest
from sqlalchemy import select

from scorekeeper.engine import Seat, Tally
from scorekeeper.errors import Conflict
from scorekeeper.league import service as league_service
from scorekeeper.league import tonight
from scorekeeper.models import IN_PROGRESS, AuditAction, AuditEvent, Game, League, db, utcnow
from scorekeeper.records import results
from scorekeeper.table import closing
from scorekeeper.table import service as game_service
from tests.conftest import Api, Table, text_of
from tests.league.test_leagues_data import (  # noqa: F401 (history: a fixture)
    assert_no_drift,
    history,
    stored,
    upload,
)

ABANDONED = "It counts like no game"


def version_of(app, game_id: int) -> int:
    with app.app_context():
        version = db.session.get(Game, game_id).version
        db.session.remove()
    return version


def abandon(client, app, game_id: int):
    return client.post(f"/games/{game_id}/abandon", data={"version": version_of(app, game_id)})


def restore(client, app, game_id: int):
    return client.post(f"/games/{game_id}/restore", data={"version": version_of(app, game_id)})


def counted(league_id: int) -> dict:
    """Everything a league counts a game in: its derived rows, standings and balances
    (:func:`stored`), its games in progress and lately finished, tonight's meetings."""
    now = stored(league_id)
    now["in progress"] = [
        g.id for g in league_service.games_of_leagues([league_id], status=IN_PROGRESS)
    ]
    now["newest"] = [g.id for g in league_service.games_of_leagues([league_id])]
    players = [
        p.id for p in db.session.scalars(select(League).where(League.id == league_id)).one().players
    ]
    met = tonight.history(league_id, players, utcnow())
    now["tonight"] = {key: value for key, value in vars(met).items() if key != "sat_out"}
    return now


# The league's numbers --------------------------------------------------------------------------


def test_an_abandoned_game_counts_like_a_game_never_played(app, history):  # noqa: F811
    """The finished game in the middle of 37, abandoned: every derived row, the standings,
    who owes whom, ratings and skills after it are those of the league without it; restored,
    everything is back as it was."""
    with app.app_context():
        league, middle = history["league"], history["middle"]
        before = counted(league)
        assert any(game_id == middle for game_id, _ in before["results"])
        closing.abandon(middle)
        abandoned = assert_no_drift(league)
        assert not any(game_id == middle for game_id, _ in abandoned["results"])
        assert abandoned["records"] != before["records"]
        assert abandoned["owed"] != before["owed"]  # the middle game was never paid
        abandoned = counted(league)
        assert middle not in abandoned["newest"]

        closing.restore(middle)
        assert counted(league) == before

        # A league where the game was never played: the same league with the game deleted
        # and everything derived rebuilt from nothing.
        closing.abandon(middle)
        assert counted(league) == abandoned
        db.session.delete(db.session.get(Game, middle))
        results.rebuild_league(league)
        db.session.commit()
        assert counted(league) == abandoned


def test_an_abandoned_game_in_progress_leaves_the_lists_and_tonights_meetings(app, history):  # noqa: F811
    with app.app_context():
        league = history["league"]
        before = counted(league)
        (open_game,) = before["in progress"]
        closing.abandon(open_game)
        now = counted(league)
        assert now["in progress"] == []
        assert open_game not in now["newest"]
        assert now["tonight"] != before["tonight"]  # Cleo and Dan have met once less
        assert {k: now[k] for k in ("results", "records", "owed")} == {
            k: before[k] for k in ("results", "records", "owed")
        }
        closing.restore(open_game)
        assert counted(league) == before


# The pages ---------------------------------------------------------------------------------------


def test_a_scorekeeper_abandons_from_the_game_page_after_being_asked(app, auth, public):
    scorekeeper, viewer = auth.member("scorekeeper", username="sam"), auth.member("viewer")
    admin = auth.login(app.test_client())
    table = Table(scorekeeper)
    game_id = table.start_game()
    table.record(game_id, 0, (290, 160))
    assert f"/games/{game_id}" in scorekeeper.get("/leagues/our-table").get_data(as_text=True)

    page = table.page(game_id)
    # The question, then the button that does it: no script needed.
    question = page[page.index('<details class="abandon card"') :]
    question = question[: question.index("</details>")]
    assert "<summary>Abandon this game…</summary>" in question
    assert f'action="/games/{game_id}/abandon"' in question
    assert "Yes, abandon this game" in question
    assert "Abandon this game" not in viewer.get(f"/games/{game_id}").get_data(as_text=True)

    assert abandon(viewer, app, game_id).status_code == 403
    response = abandon(scorekeeper, app, game_id)
    assert response.status_code == 302
    page = scorekeeper.get(response.headers["Location"]).get_data(as_text=True)
    words = text_of(page)
    assert "Game abandoned. It no longer counts anywhere" in words
    assert re.search(r"sam abandoned this game on \w+", words), words
    assert ABANDONED in words
    assert 'id="deal-form"' not in page  # no more deals
    assert "Fix" not in text_of(page[page.index('class="scorecard') :])
    assert "Restore this game" not in page  # only an admin restores
    assert "sam: Game abandoned: it no longer counts." in words  # the history says who

    home = scorekeeper.get("/leagues/our-table").get_data(as_text=True)
    assert f"/games/{game_id}" not in home
    archive = scorekeeper.get("/leagues/our-table/games").get_data(as_text=True)
    assert f"/games/{game_id}" in archive
    assert "abandoned" in text_of(archive)
    only = scorekeeper.get("/leagues/our-table/games?status=abandoned").get_data(as_text=True)
    assert f"/games/{game_id}" in only
    in_progress = scorekeeper.get("/leagues/our-table/games?status=in_progress")
    assert f"/games/{game_id}" not in in_progress.get_data(as_text=True)

    # A change to an abandoned game is refused, saying why.
    refused = table.record(game_id, 0, (100, 50))
    assert refused.status_code == 409
    assert "This game was abandoned" in text_of(refused.get_data(as_text=True))
    assert restore(scorekeeper, app, game_id).status_code == 403

    assert "Restore this game" in admin.get(f"/games/{game_id}").get_data(as_text=True)
    response = restore(admin, app, game_id)
    assert response.status_code == 302
    page = admin.get(response.headers["Location"]).get_data(as_text=True)
    assert "Game restored. It counts again." in text_of(page)
    assert 'id="deal-form"' in page
    assert f"/games/{game_id}" in admin.get("/leagues/our-table").get_data(as_text=True)
    assert table.record(game_id, 1, (100, 50)).status_code == 302


def test_a_settled_game_cannot_be_abandoned(app, table):
    game_id = table.start_game()
    table.record(game_id, 0, (600, 50))
    table.record(game_id, 0, (700, 50))
    table.client.post(f"/games/{game_id}/paid", data={"anyway": "1"})
    assert "Abandon this game" not in table.page(game_id)
    response = abandon(table.client, app, game_id)
    assert response.status_code == 409
    assert "This game is settled" in text_of(response.get_data(as_text=True))


def test_a_stale_page_does_not_abandon(app, table):
    game_id = table.start_game()
    response = table.client.post(f"/games/{game_id}/abandon", data={"version": "99"})
    assert response.status_code == 409
    with app.app_context():
        assert db.session.get(Game, game_id).abandoned_at is None


# The API -----------------------------------------------------------------------------------------


def test_the_api_abandons_and_restores_with_the_same_roles(app, api):
    game = api.start_game()
    api.deal(game["id"], 0, (290, 160))
    path = f"/api/v1/games/{game['id']}"
    scorekeeper, viewer = api.as_("scorekeeper"), api.as_("viewer")
    Api.refused(viewer.post(f"{path}/abandon"), 403)
    Api.refused(api.as_("anonymous").post(f"{path}/abandon"), 401)
    Api.refused(scorekeeper.post(f"{path}/abandon", {"version": 1}), 409)  # stale
    response = scorekeeper.post(f"{path}/abandon", {"version": game["version"] + 1})
    assert response.status_code == 200
    abandoned = response.get_json()
    assert set(abandoned) == set(game)  # the game's shape, unchanged
    assert abandoned["version"] == game["version"] + 2
    listed = api.get("/api/v1/leagues/our-table/games").get_json()["games"]
    assert game["id"] not in [g["id"] for g in listed]
    leagues = api.get("/api/v1/leagues").get_json()
    assert next(lg for lg in leagues if lg["slug"] == "our-table")["games"] == 0
    error = Api.refused(scorekeeper.deal(game["id"], 0, (100, 50)), 409)
    assert "abandoned" in error["error"]
    Api.refused(scorekeeper.post(f"{path}/abandon"), 409)  # already
    Api.refused(scorekeeper.post(f"{path}/restore"), 403)
    assert api.as_("admin").post(f"{path}/restore").status_code == 200
    listed = api.get("/api/v1/leagues/our-table/games").get_json()["games"]
    assert game["id"] in [g["id"] for g in listed]
    Api.refused(api.post(f"{path}/restore"), 409)  # not abandoned any more
    trail = api.get(f"{path}/history").get_json()
    assert [e["summary"] for e in trail[:2]] == [
        "Game restored: it counts again.",
        "Game abandoned: it no longer counts.",
    ]


def test_the_openapi_description_has_both_operations(app):
    paths = app.test_client().get("/api/v1/openapi.json").get_json()["paths"]
    for name in ("abandon", "restore"):
        operation = paths[f"/games/{{game_id}}/{name}"]["post"]
        assert set(operation["responses"]) >= {"200", "401", "403", "404", "409", "422"}


# Exports and imports -----------------------------------------------------------------------------


def test_a_json_export_keeps_the_mark_and_an_import_brings_it_back(app, table, public):
    kept = table.start_game()
    table.record(kept, 0, (290, 160))
    gone = table.start_game("Cleo", "Dan")
    table.record(gone, 0, (600, 50))
    table.record(gone, 0, (700, 50))  # finished: it would count
    assert abandon(table.client, app, gone).status_code == 302
    document = table.client.get("/leagues/our-table/export.json").get_data(as_text=True)
    assert '"abandoned_by": "admin"' in document
    assert document.count('"abandoned_at"') == 1
    csv = table.client.get("/leagues/our-table/export.csv").get_data(as_text=True)
    assert "Cleo" not in csv  # the score card format has no word for it: left out
    with app.app_context():
        league_service.create_league("Copy")
        db.session.remove()
    response = upload(table.client, "copy", document, "our-table.json", "json")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert "Imported 2 games (" in text_of(response.get_data(as_text=True))
    with app.app_context():
        copy = db.session.scalars(select(League).where(League.slug == "copy")).one()
        games = db.session.scalars(
            select(Game).where(Game.league_id == copy.id).order_by(Game.id)
        ).all()
        assert [g.abandoned_at is not None for g in games] == [False, True]
        assert stored(copy.id)["results"] == {}  # the finished game is abandoned
        event = db.session.scalars(
            select(AuditEvent).where(AuditEvent.game_id == games[1].id)
        ).one()
        assert event.action == AuditAction.GAME_IMPORTED
        assert event.params["abandoned_by"] == "admin"
    page = table.page(games[1].id)
    assert "The file says admin abandoned it." in text_of(page)
    assert ABANDONED in text_of(page)


def test_an_abandoned_game_takes_no_deal_from_the_service(app, table):
    game_id = table.start_game()
    with app.app_context():
        closing.abandon(game_id)
        with pytest.raises(Conflict, match="abandoned"):
            game_service.record_deal(game_id, Tally(Seat.FIRST, (100, 50)))
        with pytest.raises(Conflict, match="abandoned"):
            closing.abandon(game_id)
