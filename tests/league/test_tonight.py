"""Tonight: tick who is here, get one round, start all its games with one tap."""

import re

from sqlalchemy import select

from scorekeeper.league import service as league_service
from scorekeeper.models import IN_PROGRESS, Game, LeagueRound, Player, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eve"]
FORM = re.compile(r'name="(signature|token)"[^>]*value="([^"]*)"')


def add_players(app, names=NAMES) -> dict[str, int]:
    with app.app_context():
        league = league_by_slug("our-table")
        ids = {name: player_service.add_player(league.id, name).id for name in names}
        db.session.remove()
    return ids


def pairings(client, ids):
    return client.get("/leagues/our-table/tonight", query_string={"here": ids, "pair": "1"})


def start(client, ids, page: str):
    fields = dict(FORM.findall(page))
    return client.post(
        "/leagues/our-table/tonight",
        data={"here": ids, "signature": fields["signature"], "token": fields["token"]},
    ), fields


def games_in_progress(app) -> list[tuple[int, int]]:
    with app.app_context():
        return sorted(
            tuple(sorted(row))
            for row in db.session.execute(
                select(Game.player0_id, Game.player1_id).where(Game.status == IN_PROGRESS)
            )
        )


def test_a_whole_round_starts_with_one_tap_and_the_next_avoids_it(app, table):
    ids = add_players(app)
    page = pairings(table.client, list(ids.values()))
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Start these 2 games" in text
    assert "sits out this round" in text
    response, _ = start(table.client, list(ids.values()), text)
    assert response.status_code == 302
    first = games_in_progress(app)
    assert len(first) == 2
    with app.app_context():
        out = db.session.scalars(select(LeagueRound.sitting_out_id)).one()
    playing = {player for game in first for player in game}
    assert playing | {out} == set(ids.values())
    # The page it goes back to lists the games in progress.
    back = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "2 games started." in back
    assert back.count('class="game-row"') == 2
    # The next round: nobody meets again, and someone else sits out.
    text = pairings(table.client, list(ids.values())).get_data(as_text=True)
    response, _ = start(table.client, list(ids.values()), text)
    assert response.status_code == 302
    both = games_in_progress(app)
    assert len(both) == 4
    assert len(set(both)) == 4
    with app.app_context():
        outs = db.session.scalars(select(LeagueRound.sitting_out_id)).all()
    assert len(set(outs)) == 2


def test_a_double_tap_starts_one_round(app, table):
    ids = list(add_players(app, NAMES[:4]).values())
    text = pairings(table.client, ids).get_data(as_text=True)
    first, fields = start(table.client, ids, text)
    again = table.client.post("/leagues/our-table/tonight", data={"here": ids, **fields})
    assert first.status_code == again.status_code == 302
    assert len(games_in_progress(app)) == 2


def test_a_page_out_of_date_starts_nothing_and_shows_the_new_pairings(app, table):
    ids = list(add_players(app, NAMES[:4]).values())
    text = pairings(table.client, ids).get_data(as_text=True)
    other = pairings(table.client, ids).get_data(as_text=True)
    assert start(table.client, ids, text)[0].status_code == 302
    stale, _ = start(table.client, ids, other)
    assert stale.status_code == 409
    assert "pairings changed" in stale.get_data(as_text=True)
    assert len(games_in_progress(app)) == 2


def test_games_start_with_the_leagues_default_rules_and_stakes(app, table):
    with app.app_context():
        league = league_by_slug("our-table")
        defaults = {
            "rules": {
                "preset": None,
                "target": 1500,
                "progressive": False,
                "natural_needed": True,
                "skunk": "multiply",
                "difference": "round",
            },
            "stakes": {"small": 25, "big": 75},
        }
        league_service.update_league(league.id, name=league.name, public=False, defaults=defaults)
    ids = list(add_players(app, NAMES[:2]).values())
    text = pairings(table.client, ids).get_data(as_text=True)
    assert "Start this game" in text
    assert start(table.client, ids, text)[0].status_code == 302
    with app.app_context():
        game = db.session.scalars(select(Game)).one()
        assert (game.target, game.natural_needed, game.small_stake, game.big_stake) == (
            1500,
            True,
            25,
            75,
        )


def test_fewer_than_two_players_is_said_beside_the_list(app, table):
    ids = list(add_players(app, NAMES[:3]).values())
    for here in ([], ids[:1], ["x", "0", "-4", "99999999999"]):
        page = pairings(table.client, here)
        assert page.status_code == 422
        assert "Tick two or more players" in page.get_data(as_text=True)
    # Another league's player is not here.
    with app.app_context():
        other = league_service.create_league("Other club")
        stranger = player_service.add_player(other.id, "Zed").id
    page = pairings(table.client, [ids[0], stranger])
    assert page.status_code == 422


def test_only_scorekeepers_pair_and_start(app, table, auth):
    ids = list(add_players(app, NAMES[:2]).values())
    viewer = auth.member("viewer")
    assert viewer.get("/leagues/our-table/tonight").status_code == 403
    assert viewer.post("/leagues/our-table/tonight", data={"here": ids}).status_code == 403
    keeper = auth.member("scorekeeper")
    assert keeper.get("/leagues/our-table/tonight").status_code == 200
    assert app.test_client().get("/leagues/our-table/tonight").status_code in (302, 401, 404)


def test_a_forged_post_changes_nothing(app, table):
    ids = list(add_players(app, NAMES[:2]).values())
    for data in (
        {"here": ids},
        {"here": ids, "signature": "x", "token": "short"},
        {"here": ids, "signature": "1-2;", "token": "t" * 200},
    ):
        assert table.client.post("/leagues/our-table/tonight", data=data).status_code == 400
    bad = table.client.post(
        "/leagues/our-table/tonight",
        data={"here": ids, "signature": "9-8;", "token": "t" * 32},
    )
    assert bad.status_code == 409
    assert games_in_progress(app) == []
    with app.app_context():
        assert db.session.scalar(select(Player.id).where(Player.name == "x")) is None


def test_the_page_reads_in_french(app, table):
    ids = list(add_players(app, NAMES[:3]).values())
    table.client.get("/language/fr")
    text = pairings(table.client, ids).get_data(as_text=True)
    assert "Ce soir" in text
    assert "Lancer ces" not in text  # one game of three players: singular
    assert "Lancer cette partie" in text
