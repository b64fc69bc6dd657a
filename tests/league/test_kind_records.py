"""The other games' records (issue 37): kept up to date in every change, they equal the
records made again from the games alone — after corrections, a deal deleted, a sitting
resumed and ended again, an abandon and a restore — and the standings equal a sum of
the games' own balances as the API answers them."""

from collections import defaultdict

import pytest
from sqlalchemy import select

from scorekeeper.models import KindRecord, KindResult, db
from scorekeeper.records import kind_records
from scorekeeper.records.leagues import league_by_slug
from tests.api.test_other_games import deal, start

PLAYERS = ["Ana", "Ben", "Cy", "Dan", "Eve"]
TABLES = [[0, 1, 2], [1, 2, 3, 4], [0, 2, 4], [0, 1, 3], [2, 3, 4, 0]]


def knock_sittings(api):
    """Five sittings of Knock Rummy at tables of three and four, each of three deals."""
    ids = []
    for number, table in enumerate(TABLES):
        players = [PLAYERS[seat] for seat in table]
        game = start(api, "knock-rummy", players, stakes={"point": "0.10"})
        for turn in range(3):
            counts = [(7 * (seat + 1) * (turn + number + 1)) % 31 for seat in range(len(table))]
            deal(api, game["id"], {"knocker": turn % len(table), "counts": counts})
        assert api.post(f"/api/v1/games/{game['id']}/finish").status_code == 200
        ids.append(game["id"])
    return ids


def stored(app):
    with app.app_context():
        results = sorted(
            (
                r.game_id,
                r.player_id,
                r.net,
                r.place,
                r.number,
                r.skill_mu_after,
                r.skill_sigma_after,
            )
            for r in db.session.scalars(select(KindResult))
        )
        records = sorted(
            (
                r.player_id,
                r.played,
                r.won,
                r.deals_won,
                r.money_won,
                r.money_lost,
                r.skill_mu,
                r.skill_sigma,
                r.last_played_at,
            )
            for r in db.session.scalars(select(KindRecord))
        )
        db.session.remove()
    return results, records


def rebuilt(app):
    """The records made again from the games alone, then read back."""
    with app.app_context():
        league = league_by_slug("our-table")
        kind_records.rebuild_league(league.id)
        db.session.commit()
        db.session.remove()
    return stored(app)


def nets_from_the_api(api, ids):
    """Each player's net over the finished, unabandoned games, from the games' answers."""
    nets, deals_won = defaultdict(int), defaultdict(int)
    for game_id in ids:
        game = api.get(f"/api/v1/games/{game_id}").get_json()
        if game["status"] != "finished":
            continue
        for name, balance in zip(game["players"], game["balances"], strict=True):
            nets[name] += round(float(balance) * 100)
        for dealt in game["deals"]:
            if dealt["winner"] is not None:
                deals_won[game["players"][dealt["winner"]]] += 1
    return nets, deals_won


@pytest.mark.slow
def test_kept_records_equal_records_made_again_after_every_kind_of_change(api, app):
    ids = knock_sittings(api)
    kept = stored(app)
    assert len(kept[0]) == sum(len(table) for table in TABLES)
    assert kept == rebuilt(app)
    # A past game corrected: every later game of the kind is rated again.
    second = f"/api/v1/games/{ids[1]}"
    assert (
        api.put(f"{second}/deals/2", {"knocker": 0, "counts": [0, 30, 25, 12]}).status_code == 200
    )
    assert stored(app) == rebuilt(app)
    assert api.delete(f"{second}/deals/1").status_code == 200
    assert stored(app) == rebuilt(app)
    # Resumed, it counts no more; ended again, it counts again.
    assert api.post(f"/api/v1/games/{ids[2]}/resume").status_code == 200
    assert stored(app) == rebuilt(app)
    assert api.post(f"/api/v1/games/{ids[2]}/finish").status_code == 200
    assert stored(app) == rebuilt(app)
    # Abandoned and restored.
    assert api.post(f"/api/v1/games/{ids[0]}/abandon").status_code == 200
    after_abandon = stored(app)
    assert after_abandon == rebuilt(app)
    assert ids[0] not in {row[0] for row in after_abandon[0]}
    assert api.post(f"/api/v1/games/{ids[0]}/restore").status_code == 200
    assert stored(app) == rebuilt(app)


@pytest.mark.slow
def test_the_standings_are_the_games_own_balances_added_up(api, app):
    ids = knock_sittings(api)
    api.put(f"/api/v1/games/{ids[3]}/deals/3", {"knocker": 1, "counts": [9, 0, 14, 2][:3]})
    api.post(f"/api/v1/games/{ids[4]}/abandon")
    nets, deals_won = nets_from_the_api(api, ids[:4])
    rows = api.get("/api/v1/leagues/our-table/standings?game=knock-rummy").get_json()
    assert {row["player"]: round(float(row["net"]) * 100) for row in rows} == dict(nets)
    assert {row["player"]: row["won"] for row in rows} == {
        name: deals_won.get(name, 0) for name in nets
    }
    assert [row["net"] for row in rows] == sorted(
        (row["net"] for row in rows), key=lambda net: -float(net)
    )


def test_the_league_pages_show_each_game(api, app, auth):
    """The standings' picker, a game's standings, a player's record in each game and two
    players' games at the same table (issue 37)."""
    knock_sittings(api)
    client = auth.member("viewer")
    home = client.get("/leagues/our-table").get_data(as_text=True)
    assert "?game=knock-rummy" in home
    page = client.get("/leagues/our-table?game=knock-rummy").get_data(as_text=True)
    rows = api.get("/api/v1/leagues/our-table/standings?game=knock-rummy").get_json()
    assert "Standings of Knock Rummy, all time" in page
    order = [page.index(f">{row['player']}</a>") for row in rows]
    assert order == sorted(order)
    # On a phone (issue 38, point 14): the name, the deals won and the rating with its ± in
    # the columns a phone shows; the net money and the rest in each row's details.
    assert page.count('<td class="num rating">') == len(rows)
    assert page.count('<th scope="col" class="num phone-only">Deals won</th>') == 1
    assert page.count('<tr class="row-more">') == len(rows)
    assert page.count("<summary>Net ") == len(rows)
    with app.app_context():
        from scorekeeper.records.leagues import league_by_slug
        from scorekeeper.records.players import find_player

        league = league_by_slug("our-table")
        ana, ben = find_player(league.id, "Ana").id, find_player(league.id, "Ben").id
        db.session.remove()
    player = client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
    assert "In the other games" in player
    assert "Knock Rummy" in player
    pair = client.get(f"/leagues/our-table/head-to-head?a={ana}&b={ben}").get_data(as_text=True)
    assert "At the same table in the other games" in pair
    assert "2 games together" in pair  # tables 1 and 4 seat both of them
