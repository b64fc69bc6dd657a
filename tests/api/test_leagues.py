"""Leagues through the API: the list, a new league, players, standings and the games."""

import pytest

from scorekeeper.league import service as league_service
from scorekeeper.models import db
from scorekeeper.records.leagues import league_by_slug


def make_private(app, slug):
    with app.app_context():
        league = league_by_slug(slug)
        league_service.update_league(league.id, name=league.name, public=False, defaults=None)
        db.session.remove()


def test_leagues_list_what_the_caller_may_read_with_counts(public, app, api):
    api.start_game()
    created = api.post("/api/v1/leagues", {"name": "Friday Club", "public": False})
    assert created.status_code == 201
    assert created.headers["Location"] == "/api/v1/leagues/friday-club"
    assert created.get_json() == {
        "slug": "friday-club",
        "name": "Friday Club",
        "public": False,
        "players": [],
    }

    everyone = api.as_("anonymous").get("/api/v1/leagues").get_json()
    admin = api.get("/api/v1/leagues").get_json()
    member = api.as_("viewer", league="friday-club").get("/api/v1/leagues").get_json()

    our_table = {"slug": "our-table", "name": "Our table", "public": True}
    assert everyone == [{**our_table, "players": 2, "games": 1}]
    assert [league["slug"] for league in admin] == ["friday-club", "our-table"]
    assert [league["slug"] for league in member] == ["friday-club", "our-table"]


def test_a_leagues_slug_is_made_from_its_name_and_kept_unique(api):
    first = api.post("/api/v1/leagues", {"name": "  Café   Crème "}).get_json()
    second = api.post("/api/v1/leagues", {"name": "Cafe Creme"}).get_json()
    assert (first["slug"], first["name"], first["public"]) == ("cafe-creme", "Café Crème", True)
    assert second["slug"] == "cafe-creme-2"


def test_a_league_admin_adds_players_and_a_league_lists_them_by_name(public, api):
    admin = api.as_("admin")
    for name in ("Ben", "  ana  "):
        response = admin.post("/api/v1/leagues/our-table/players", {"name": name})
        assert response.status_code == 201
        assert set(response.get_json()) == {"id", "name"}

    league = api.as_("anonymous").get("/api/v1/leagues/our-table").get_json()

    assert [player["name"] for player in league["players"]] == ["ana", "Ben"]
    assert (league["slug"], league["name"], league["public"]) == ("our-table", "Our table", True)


def finish(api, players, winner_first=True, small="1.00"):
    """A short finished game: the first player wins 1,250 to 50 unless not ``winner_first``."""
    game = api.start_game(players, stakes={"small": small})
    scores = (1250, 50) if winner_first else (50, 1250)
    return api.play(game["id"], [(0 if winner_first else 1, scores, (0, 0))])


def test_standings_are_best_first_most_wins_then_best_net(public, api):
    finish(api, ("Ana", "Ben"))  # Ana wins 1250–50: skunked, $1–$3: (3 + 12) × 2 = 30
    finish(api, ("Cleo", "Ben"), small="2.00")  # Cleo wins 60.00
    finish(api, ("Ana", "Cleo"), winner_first=False)  # Cleo wins 30.00
    api.start_game(("Dan", "Ana"))  # in progress: not counted

    standings = api.as_("anonymous").get("/api/v1/leagues/our-table/standings").get_json()

    assert [(s["player"], s["played"], s["won"], s["lost"], s["net"]) for s in standings] == [
        ("Cleo", 2, 2, 0, "90.00"),
        ("Ana", 2, 1, 1, "0.00"),
        ("Ben", 2, 0, 2, "-90.00"),
    ]
    cleo = standings[0]
    assert (cleo["skunks_given"], cleo["skunks_taken"], cleo["naturals"], cleo["chapeaux"]) == (
        2,
        0,
        0,
        0,
    )
    assert standings[2]["skunks_taken"] == 2


def test_games_are_newest_first_in_pages_that_follow_next_page(public, api):
    ids = [api.start_game(("Ana", "Ben"))["id"] for _ in range(27)]
    finish(api, ("Ana", "Cleo"))
    ids.append(ids[-1] + 1)

    first = api.as_("anonymous").get("/api/v1/leagues/our-table/games").get_json()
    second = api.get(f"/api/v1/leagues/our-table/games?page={first['next_page']}").get_json()

    assert [game["id"] for game in first["games"]] == ids[::-1][:25]
    assert first["next_page"] == ids[3]
    assert [game["id"] for game in second["games"]] == ids[::-1][25:]
    assert second["next_page"] is None
    newest = first["games"][0]
    assert (newest["players"], newest["status"], newest["winner"]) == (
        ["Ana", "Cleo"],
        "finished",
        0,
    )
    assert (newest["totals"], newest["amount"], newest["deal_count"]) == ([1250, 50], "30.00", 1)
    assert (first["games"][1]["amount"], first["games"][1]["winner"]) == (None, None)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status=finished", ["Ana-Cleo"]),
        ("status=in_progress", ["Ben-Dan", "Ana-Ben"]),
        ("player=ben", ["Ben-Dan", "Ana-Ben"]),
        ("player=Cleo&status=in_progress", []),
        ("status=unpaid", ["Ana-Cleo"]),
        ("status=paid", []),
    ],
)
def test_games_are_filtered_by_player_and_status(api, query, expected):
    api.start_game(("Ana", "Ben"))
    finish(api, ("Ana", "Cleo"))
    api.start_game(("Ben", "Dan"))

    page = api.get(f"/api/v1/leagues/our-table/games?{query}").get_json()

    assert ["-".join(game["players"]) for game in page["games"]] == expected
    assert page["next_page"] is None


def test_a_private_leagues_member_reads_it_with_a_token(app, api):
    api.post("/api/v1/leagues", {"name": "Friday", "public": False})
    finish(api, ("Ana", "Ben"))  # in our-table
    viewer = api.as_("viewer", league="friday")
    for path in ("", "/standings", "/games"):
        assert viewer.get(f"/api/v1/leagues/friday{path}").status_code == 200
        api.refused(api.as_("anonymous").get(f"/api/v1/leagues/friday{path}"), 404)


def test_leagues_of_the_same_long_name_get_addresses_that_work(api):
    """A 60-character name makes a 60-character slug; the next league of that name gets
    its ``-2`` within the 60 characters, and can be read and played in."""
    name = "A" * 60
    first = api.post("/api/v1/leagues", {"name": name})
    second = api.post("/api/v1/leagues", {"name": name})
    assert (first.status_code, second.status_code) == (201, 201)
    slugs = [first.get_json()["slug"], second.get_json()["slug"]]
    assert slugs == ["a" * 60, "a" * 58 + "-2"]
    assert api.get(second.headers["Location"]).status_code == 200
    for player in ("Ana", "Ben"):
        added = api.post(f"/api/v1/leagues/{slugs[1]}/players", {"name": player})
        assert added.status_code == 201
    game = api.post("/api/v1/games", {"league": slugs[1], "players": ["Ana", "Ben"]})
    assert game.status_code == 201
