"""Times show in the league's time zone, a league setting; without one, the server's
(issue 24, point 10). Times stay stored in UTC."""

from datetime import UTC, datetime

from sqlalchemy import update

from scorekeeper.models import Game, League, db
from tests.conftest import NEW_GAME_FORM

PAID = datetime(2026, 1, 15, 2, 30)  # stored as UTC: 21:30 the evening before in Toronto


def _paid_game(app, table):
    game_id = table.start_game()
    assert table.record(game_id, 0, (1300, 0), confirm=True).status_code in (200, 302)
    assert table.client.post(f"/games/{game_id}/paid", data={}).status_code == 302
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(paid_at=PAID))
        db.session.commit()
    return game_id


def _settings(table, zone):
    return table.client.post(
        "/leagues/our-table/settings",
        data={
            "league-name": "Our table",
            "league-public": "y",
            "league-time_zone": zone,
            "league-submit": "1",
        },
    )


def _zone_of(app):
    with app.app_context():
        return db.session.scalar(db.select(League.time_zone).where(League.slug == "our-table"))


def test_without_a_zone_times_are_the_servers(app, table):
    game_id = _paid_game(app, table)
    server = PAID.replace(tzinfo=UTC).astimezone().strftime("%Y-%m-%d %H:%M")
    assert f"marked on {server}." in table.page(game_id)
    assert "UTC" not in table.page(game_id)


def test_a_league_admin_chooses_the_zone_and_every_time_follows_it(app, table):
    game_id = _paid_game(app, table)
    assert _settings(table, "America/Toronto").status_code == 302
    assert _zone_of(app) == "America/Toronto"
    assert "marked on 2026-01-14 21:30." in table.page(game_id)
    assert _settings(table, "Asia/Tokyo").status_code == 302
    assert "marked on 2026-01-15 11:30." in table.page(game_id)
    settings = table.client.get("/leagues/our-table/settings").get_data(as_text=True)
    assert '<option selected value="Asia/Tokyo">' in settings


def test_saving_the_rule_defaults_keeps_the_zone(app, table):
    assert _settings(table, "Europe/Paris").status_code == 302
    rules = {k: v for k, v in NEW_GAME_FORM.items() if not k.startswith(("player", "first"))}
    saved = table.client.post(
        "/leagues/our-table/settings",
        data={**{f"defaults-{k}": v for k, v in rules.items()}, "defaults-save_defaults": "1"},
    )
    assert saved.status_code == 302
    with app.app_context():
        league = db.session.scalar(db.select(League).where(League.slug == "our-table"))
        assert league.defaults is not None
        assert league.time_zone == "Europe/Paris"


def test_a_zone_not_in_the_list_is_refused_beside_its_field_and_changes_nothing(app, table):
    assert _settings(table, "America/Toronto").status_code == 302
    response = _settings(table, "Mars/Olympus_Mons")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="league-time_zone"' in page
    assert "Choose a time zone from the list." in page
    assert _zone_of(app) == "America/Toronto"
