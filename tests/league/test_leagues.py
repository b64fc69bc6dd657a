"""The league pages: standings, a player, head-to-head, every game, who owes whom, seasons."""

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from scorekeeper.accounts import users as user_service
from scorekeeper.engine import PRESETS, Preset, Rules, Seat, Stakes, Tally
from scorekeeper.league import service as league_service
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.save import import_all
from scorekeeper.models import Game, League, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import closing, starting
from scorekeeper.table import service as game_service

#: Seat 0 wins $3.00 at $1–$3: 1,235 to 1,170 both round to 1,200 (RULES.md §5, example 4).
CLOSE_WIN = [(0, (1235, 1170), (0, 0))]
#: Seat 0 wins in one deal, 1,200 to 100: ($3 game + $11 difference) × 2 for the skunk = $28.
ONE_DEAL_WIN = [(0, (1200, 100), (0, 0))]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def play(app, names, deals, *, league="our-table", rules=None, small=100):
    """A game played through the services; its id."""
    with app.app_context():
        found = league_by_slug(league)
        game = starting.start_game(
            found.id, names, rules or Rules(), Stakes.from_small(small), Seat.FIRST
        )
        for out, scores, stars in deals:
            game_service.record_deal(game.id, Tally(Seat(out), scores, stars))
        game_id = game.id
        db.session.remove()
    return game_id


def league_id(app, slug="our-table"):
    with app.app_context():
        return league_by_slug(slug).id


def player_id(app, name, slug="our-table"):
    with app.app_context():
        return player_service.find_player(league_id(app, slug), name).id


def standings(html: str) -> dict[str, list[str]]:
    """The standings table as {player: [won, lost, net, played, win %, …]}: its columns
    (not the phone's record, which repeats won and lost)."""
    body = html[html.index('<table class="standings">') :]
    body = body[: body.index("</table>")]
    rows = re.findall(r"<tr>\s*<th scope=\"row\"[^>]*>(.*?)</th>(.*?)</tr>", body, re.S)
    return {
        text_of(name): [
            text_of(cell)
            for attributes, cell in re.findall(r"<td([^>]*)>(.*?)</td>", cells, re.S)
            if "phone-only" not in attributes
        ]
        for name, cells in rows
    }


def names_in_order(html: str) -> list[str]:
    return list(standings(html))


def game_ids(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'<li class="game-row">\s*<a href="/games/(\d+)"', html)]


# Standings -----------------------------------------------------------------------------


def test_standings_of_the_wikipedia_game(public, table, client, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game_id, out, scores, stars)
    page = client.get("/leagues/our-table").get_data(as_text=True)
    rows = standings(page)
    # played, won, lost, win %, net, naturals, chapeaux, skunks given, taken, margin, rating
    # (its uncertainty beside it, a newcomer's: provisional), conservative rating and what
    # it is made from: OpenSkill's estimate (not the Elo rating) less three ±
    rating = "1520 ±209 plus or minus 209 provisional"
    conservative = "926 = 1,553 − 3 × 209 OpenSkill's estimate 1,553 less 3 times 209"
    assert rows["Ana"] == [
        *["1", "0", "+$10.00", "1", "100.0%", "1", "0", "0", "0", "95", rating, conservative]
    ]
    rating = "1480 ±209 plus or minus 209 provisional"
    conservative = "820 = 1,447 − 3 × 209 OpenSkill's estimate 1,447 less 3 times 209"
    assert rows["Ben"] == [
        *["0", "1", "−$10.00", "1", "0.0%", "1", "1", "0", "0", "— none", rating, conservative]
    ]
    assert "Standings of Our table, all time, sorted by games won, highest first." in page
    assert "The rating is Elo, from 1500," in page  # written as the ratings are
    assert game_ids(page) == [game_id]  # the newest games, under the standings


def test_standings_count_skunks_and_sort_by_any_column(public, app, client):
    play(app, ("Ana", "Ben"), ONE_DEAL_WIN)  # Ana skunks Ben: $28.00
    play(app, ("Cleo", "Ana"), CLOSE_WIN)  # Cleo beats Ana: $3.00
    play(app, ("Ben", "Cleo"), CLOSE_WIN)  # Ben beats Cleo: $3.00
    page = client.get("/leagues/our-table").get_data(as_text=True)
    rows = standings(page)
    assert rows["Ana"][:5] == ["1", "1", "+$25.00", "2", "50.0%"]
    assert rows["Ana"][7:9] == ["1", "0"]  # skunks given, taken
    assert rows["Ben"][7:9] == ["0", "1"]
    assert names_in_order(page) == ["Ana", "Cleo", "Ben"]  # most wins, then best net

    by_net = client.get("/leagues/our-table?sort=net&order=asc").get_data(as_text=True)
    assert names_in_order(by_net) == ["Ben", "Cleo", "Ana"]
    assert "sorted by net money, lowest first" in by_net
    assert 'aria-sort="ascending"' in by_net
    assert "?sort=net&amp;order=desc" in by_net  # the header link turns the order round

    by_name = client.get("/leagues/our-table?sort=player&order=desc").get_data(as_text=True)
    assert names_in_order(by_name) == ["Cleo", "Ben", "Ana"]
    assert "sorted by player, Z to A" in by_name

    by_skunks = client.get("/leagues/our-table?sort=skunks_taken").get_data(as_text=True)
    assert names_in_order(by_skunks)[0] == "Ben"
    # A column nobody can be sorted on falls back to the usual order.
    assert names_in_order(client.get("/leagues/our-table?sort=nope").get_data(as_text=True)) == [
        "Ana",
        "Cleo",
        "Ben",
    ]


def import_csv(app, text: str, slug="our-table") -> str:
    with app.app_context():
        plan = parse_csv(text)
        done = import_all(league_id(app, slug), plan)
        db.session.remove()
    return done


DATED_GAMES = """game,date,player_a,player_b,out,score_a,score_b
g1,2024-03-01,Ana,Ben,a,1200,100
g2,2024-12-31,Ben,Ana,a,1235,1170
g3,2025-01-01,Cleo,Ana,a,1235,1170
"""


def test_a_season_shows_the_games_that_ended_in_it(public, app, table, client):
    assert import_csv(app, DATED_GAMES) == "Imported 3 games (3 deals)."
    response = table.client.post(
        "/leagues/our-table/seasons",
        data={"name": "2024", "starts_on": "2024-01-01", "ends_on": "2024-12-31"},
    )
    assert response.status_code == 302
    home = client.get("/leagues/our-table").get_data(as_text=True)
    season_id = re.search(r'<option value="(\d+)"[^>]*>2024 \(2024-01-01 to 2024-12-31\)', home)[1]
    page = client.get(f"/leagues/our-table?season={season_id}").get_data(as_text=True)
    rows = standings(page)
    assert set(rows) == {"Ana", "Ben"}  # Cleo's game was in 2025
    assert rows["Ana"][:5] == ["1", "1", "+$25.00", "2", "50.0%"]
    assert "Standings, season 2024" in page
    # The rating after the season, how sure it is, and its change.
    assert rows["Ana"][-2] == "1498 ±209 plus or minus 209 (−2) provisional"
    all_time = standings(client.get("/leagues/our-table").get_data(as_text=True))
    assert all_time["Ana"][:2] + all_time["Ana"][3:4] == ["1", "2", "3"]  # won, lost, played
    games = client.get(f"/leagues/our-table/games?season={season_id}").get_data(as_text=True)
    assert len(game_ids(games)) == 2
    assert client.get("/leagues/our-table?season=999").status_code == 404


def test_seasons_can_be_changed_and_removed(public, app, table, client):
    import_csv(app, DATED_GAMES)
    admin = table.client
    admin.post(
        "/leagues/our-table/seasons",
        data={"name": "Winter", "starts_on": "2024-12-01", "ends_on": "2025-02-28"},
    )
    refused = admin.post(
        "/leagues/our-table/seasons",
        data={"name": "Winter", "starts_on": "2025-03-01", "ends_on": "2025-01-01"},
    )
    assert refused.status_code == 422
    assert "The season can&#39;t end before it starts." in refused.get_data(as_text=True)
    with app.app_context():
        from scorekeeper.league.seasons import seasons_of

        season = seasons_of(league_id(app))[0]
        season_id = season.id
    winter = client.get(f"/leagues/our-table?season={season_id}").get_data(as_text=True)
    assert set(standings(winter)) == {"Ana", "Ben", "Cleo"}
    assert (
        admin.post(
            f"/leagues/our-table/seasons/{season_id}",
            data={"name": "Late winter", "starts_on": "2025-01-01", "ends_on": "2025-02-28"},
        ).status_code
        == 302
    )
    late = client.get(f"/leagues/our-table?season={season_id}").get_data(as_text=True)
    assert set(standings(late)) == {"Ana", "Cleo"}
    assert "Standings, season Late winter" in late
    assert admin.post(f"/leagues/our-table/seasons/{season_id}/delete").status_code == 302
    assert client.get(f"/leagues/our-table?season={season_id}").status_code == 404


@pytest.mark.parametrize(
    ("starts_on", "ends_on", "field"),
    [
        ("2025-01-01", "9999-12-31", "ends_on"),  # the day after it overflowed: a 500
        ("0001-01-01", "2025-12-31", "starts_on"),
        ("1899-12-31", "1900-01-01", "starts_on"),
        ("2025-01-01", "3000-01-01", "ends_on"),
    ],
)
def test_a_season_beyond_the_calendar_is_refused_beside_its_day(
    app, table, starts_on, ends_on, field
):
    admin = table.client
    refused = admin.post(
        "/leagues/our-table/seasons",
        data={"name": "Forever", "starts_on": starts_on, "ends_on": ends_on},
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    message = "Give a day from 1900-01-01 to 2999-12-31."
    assert f'<p class="error" id="{field}-error">{message}</p>' in page
    assert (
        admin.post(
            "/leagues/our-table/seasons",
            data={"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
        ).status_code
        == 302
    )
    with app.app_context():
        from scorekeeper.league.seasons import seasons_of

        season_id = seasons_of(league_id(app))[0].id
    edited = admin.post(
        f"/leagues/our-table/seasons/{season_id}",
        data={"name": "2025", "starts_on": starts_on, "ends_on": ends_on},
    )
    assert edited.status_code == 422
    assert f'<p class="error" id="{field}-error">{message}</p>' in edited.get_data(as_text=True)
    with app.app_context():
        season = seasons_of(league_id(app))[0]
        assert (season.name, str(season.starts_on), str(season.ends_on)) == (
            "2025",
            "2025-01-01",
            "2025-12-31",
        )
    assert admin.get(f"/leagues/our-table?season={season_id}").status_code == 200


def test_a_season_may_span_the_whole_calendar(public, app, table, client):
    import_csv(app, DATED_GAMES)
    response = table.client.post(
        "/leagues/our-table/seasons",
        data={"name": "All", "starts_on": "1900-01-01", "ends_on": "2999-12-31"},
    )
    assert response.status_code == 302
    with app.app_context():
        from scorekeeper.league.seasons import seasons_of

        season_id = seasons_of(league_id(app))[0].id
    page = client.get(f"/leagues/our-table?season={season_id}").get_data(as_text=True)
    assert set(standings(page)) == {"Ana", "Ben", "Cleo"}


# A player and head-to-head ----------------------------------------------------------------------


def test_player_page_has_record_charts_opponents_and_extremes(public, app, client, wikipedia_card):
    play(app, ("Ana", "Ben"), wikipedia_card)  # Ana +$10
    play(app, ("Ana", "Cleo"), ONE_DEAL_WIN)  # Ana +$28
    play(app, ("Ben", "Ana"), CLOSE_WIN)  # Ana −$3
    play(app, ("Ana", "Ben"), [(0, (300, 200), (0, 0))])  # in progress
    ana = player_id(app, "Ana")
    page = client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
    words = text_of(page)
    assert "Games 3: 2 won, 1 lost (66.7%)" in words
    assert "Net money +$35.00" in words
    assert "Deals 9" in words
    assert "Chapeaux per 100 deals 0.0" in words
    assert "Naturals per 100 deals 11.1 (1 star in all)" in words
    assert "Biggest win: +$28.00 against Cleo , 1,200 to 100" in words
    assert "Worst loss: −$3.00 against Ben , 1,170 to 1,235" in words
    # Charts are inline SVG with a title and a description in words.
    assert '<title id="net-chart-title">Net money over time</title>' in page
    assert "Net money over 3 games: $35.00 now; lowest $0.00, highest $38.00." in page
    assert '<title id="rating-chart-title">Rating over time</title>' in page
    # One row per opponent, linking to head-to-head.
    opponents = page[page.index('id="opponents-caption"') :]
    assert re.search(
        r">Ben</a></th>\s*<td class=\"num\">2</td>\s*<td class=\"num\">1</td>", opponents
    )
    assert f"/leagues/our-table/head-to-head?a={ana}&amp;b={player_id(app, 'Ben')}" in page
    assert len(game_ids(page)) == 4  # recent games, the one in progress too
    assert "Nemesis" not in page  # nobody has played Ana three times yet
    play(app, ("Ben", "Ana"), CLOSE_WIN)
    play(app, ("Ben", "Ana"), CLOSE_WIN)
    for _ in range(3):
        play(app, ("Ana", "Cleo"), CLOSE_WIN)
    words = text_of(client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True))
    assert "Nemesis: Ben (won 3 of 4 against Ana)" in words
    assert "Easiest opponent: Cleo (lost 4 of 4 to Ana)" in words


def test_head_to_head_page(public, app, client, wikipedia_card):
    play(app, ("Ana", "Ben"), wikipedia_card)
    play(app, ("Ben", "Ana"), CLOSE_WIN)
    play(app, ("Ben", "Ana"), CLOSE_WIN)
    play(app, ("Ana", "Cleo"), ONE_DEAL_WIN)
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    page = client.get(f"/leagues/our-table/head-to-head?a={ana}&b={ben}").get_data(as_text=True)
    words = text_of(page)
    assert "Finished games 3 Ana won 1 Ben won 2" in words
    assert "Money between them Ana is up $4.00" in words
    assert len(game_ids(page)) == 3
    chooser = client.get("/leagues/our-table/head-to-head").get_data(as_text=True)
    assert '<select id="h2h-a" name="a">' in chooser
    same = client.get(f"/leagues/our-table/head-to-head?a={ana}&b={ana}").get_data(as_text=True)
    assert "Choose two different players." in same


# Every game ---------------------------------------------------------------------------------


def test_every_game_pages_by_keyset_without_overlap(public, app, client):
    ids = [play(app, ("Ana", "Ben"), CLOSE_WIN) for _ in range(30)]
    first = client.get("/leagues/our-table/games").get_data(as_text=True)
    assert game_ids(first) == ids[::-1][:25]
    after = re.search(r'rel="next" href="([^"]+)"', first)[1].replace("&amp;", "&")
    assert after == f"/leagues/our-table/games?after={ids[5]}"
    assert 'rel="prev"' not in first
    second = client.get(after).get_data(as_text=True)
    assert game_ids(second) == ids[::-1][25:]
    assert 'rel="next"' not in second
    back = re.search(r'rel="prev" href="([^"]+)"', second)[1].replace("&amp;", "&")
    assert game_ids(client.get(back).get_data(as_text=True)) == ids[::-1][:25]


def test_every_game_filters_by_player_opponent_status_and_rules(public, app, client):
    ab = play(app, ("Ana", "Ben"), CLOSE_WIN)
    ba = play(app, ("Ben", "Ana"), CLOSE_WIN)
    ac = play(app, ("Ana", "Cleo"), [(0, (2100, 1200), (0, 0))], rules=PRESETS[Preset.PROGRESSIVE])
    bc = play(app, ("Ben", "Cleo"), [(0, (300, 200), (0, 0))])
    custom = play(app, ("Cleo", "Ben"), CLOSE_WIN, rules=Rules(target=1000))
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")

    def listed(query):
        return game_ids(client.get(f"/leagues/our-table/games?{query}").get_data(as_text=True))

    assert listed(f"player={ana}") == [ac, ba, ab]
    assert listed(f"player={ana}&opponent={ben}") == [ba, ab]
    assert listed("status=in_progress") == [bc]
    assert listed("status=unpaid") == [custom, ac, ba, ab]
    assert listed("preset=progressive") == [ac]
    assert listed("preset=custom") == [custom]
    assert listed(f"player={ben}&status=finished") == [custom, ba, ab]
    assert client.get("/leagues/our-table/games?player=999").status_code == 404


def test_a_viewer_reads_a_game_card_read_only_with_its_settlement(app, auth, wikipedia_card):
    game_id = play(app, ("Ana", "Ben"), wikipedia_card[:3])
    viewer = auth.member("viewer")
    page = viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="deal-form"' not in page
    play_rest = wikipedia_card[3:]
    with app.app_context():
        for out, scores, stars in play_rest:
            game_service.record_deal(game_id, Tally(Seat(out), scores, stars))
    page = viewer.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ben pays Ana $10.00" in text_of(page)
    assert "Mark Ben" not in page


# Who owes whom -----------------------------------------------------------------------------------


def test_owes_nets_unpaid_games_per_pair(public, app, auth, client, wikipedia_card):
    play(app, ("Ana", "Ben"), wikipedia_card)  # Ben owes Ana $10
    play(app, ("Ben", "Ana"), CLOSE_WIN)  # Ana owes Ben $3
    play(app, ("Cleo", "Ana"), CLOSE_WIN)  # Ana owes Cleo $3
    page = text_of(client.get("/leagues/our-table/owes").get_data(as_text=True))
    assert "Ben owes Ana $7.00 over 2 games" in page
    assert "Ana won $10.00, Ben won $3.00." in page
    assert "Ana owes Cleo $3.00 over 1 game" in page
    assert page.index("Ben owes Ana") < page.index("Ana owes Cleo")  # largest first

    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    pair = client.get(f"/leagues/our-table/owes/{ben}/{ana}").get_data(as_text=True)
    assert "Ben owes Ana $7.00" in text_of(pair)
    assert pair.count("/games/") >= 2
    assert "Mark the 2 games paid" not in pair  # not for a visitor

    keeper = auth.member("scorekeeper")
    url = f"/leagues/our-table/owes/{ben}/{ana}"
    form = settle_form(keeper, url)
    assert form["net"] == "-700"  # from Ben's side: he is owed −$7.00
    assert keeper.post(url, data=form).status_code == 302
    page = text_of(client.get("/leagues/our-table/owes").get_data(as_text=True))
    assert "Ben owes Ana" not in page
    assert "Ana owes Cleo $3.00 over 1 game" in page
    history = text_of(client.get("/leagues/our-table/payments").get_data(as_text=True))
    assert "Ben paid Ana $10.00" in history
    assert "Ana paid Ben $3.00" in history
    assert "scorekeeper-" in history  # who marked it


def settle_form(client, url) -> dict[str, str]:
    """The hidden fields of the page's "mark paid" form."""
    page = client.get(url).get_data(as_text=True)
    fields = re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page)
    return {name: value for name, value in fields if name in ("through", "count", "net")}


def test_settling_up_pays_what_the_page_showed_and_nothing_else(app, auth, wikipedia_card):
    first = play(app, ("Ana", "Ben"), wikipedia_card)
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    keeper, url = auth.member("scorekeeper"), f"/leagues/our-table/owes/{ben}/{ana}"
    form = settle_form(keeper, url)
    with app.app_context():
        closing.mark_paid(first)  # someone else marked it paid first
    assert keeper.post(url, data=form).status_code == 409

    second = play(app, ("Ana", "Ben"), wikipedia_card)
    form = settle_form(keeper, url)
    with app.app_context():  # the amount changes after the page was loaded
        game_service.edit_deal(second, 7, Tally(Seat.FIRST, (225, 150)))
    response = keeper.post(url, data=form)
    assert response.status_code == 409
    assert "Ben owes Ana $11.00" in text_of(response.get_data(as_text=True))

    form = settle_form(keeper, url)
    third = play(app, ("Ben", "Ana"), CLOSE_WIN)  # a game finished after the page was loaded
    assert keeper.post(url, data=form).status_code == 302
    with app.app_context():
        assert db.session.get(Game, second).paid_at is not None
        assert db.session.get(Game, third).paid_at is None


# Who may do what ----------------------------------------------------------------------------------

READ_PAGES = [
    "/leagues/our-table",
    "/leagues/our-table?sort=net&order=asc",
    "/leagues/our-table/games",
    "/leagues/our-table/head-to-head",
    "/leagues/our-table/owes",
    "/leagues/our-table/payments",
    "/leagues/our-table/export.csv",
    "/leagues/our-table/export.json",
]


@pytest.fixture
def small_league(app, wikipedia_card):
    play(app, ("Ana", "Ben"), wikipedia_card)
    play(app, ("Ben", "Ana"), CLOSE_WIN)
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    return [
        *READ_PAGES,
        f"/leagues/our-table/players/{ana}",
        f"/leagues/our-table/head-to-head?a={ana}&b={ben}",
        f"/leagues/our-table/owes/{ben}/{ana}",
    ]


def make_private(app):
    with app.app_context():
        found = db.session.get(League, league_id(app))
        league_service.update_league(found.id, name=found.name, public=False, defaults=None)


def test_a_public_league_is_read_by_anyone(public, client, small_league):
    for url in small_league:
        assert client.get(url).status_code == 200, url
    listing = client.get("/leagues").get_data(as_text=True)
    assert 'href="/leagues/our-table"' in listing


def test_a_private_league_is_hidden_from_outsiders(app, auth, client, small_league):
    make_private(app)
    outsider = auth.login(app.test_client(), *make_user(app, "outsider"))
    viewer = auth.member("viewer")
    for url in small_league:
        assert client.get(url).status_code == 404, url
        assert outsider.get(url).status_code == 404, url
        assert viewer.get(url).status_code == 200, url
    assert "our-table" not in client.get("/leagues").get_data(as_text=True)
    assert "our-table" not in outsider.get("/leagues").get_data(as_text=True)
    assert "our-table" in viewer.get("/leagues").get_data(as_text=True)


def make_user(app, name):
    with app.app_context():
        user_service.create_user(name, "member-password")
        db.session.remove()
    return name, "member-password"


def test_only_scorekeepers_and_admins_mark_games_paid(public, app, auth, client, wikipedia_card):
    game_id = play(app, ("Ana", "Ben"), wikipedia_card)
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    url = f"/leagues/our-table/owes/{ben}/{ana}"
    data = {"through": game_id, "count": 1, "net": -1000}
    viewer = auth.member("viewer")
    assert "Mark this game paid" not in viewer.get(url).get_data(as_text=True)
    assert viewer.post(url, data=data).status_code == 403
    assert client.post(url, data=data).status_code == 401
    make_private(app)
    outsider = auth.login(app.test_client(), *make_user(app, "outsider"))
    assert outsider.post(url, data=data).status_code == 404
    keeper = auth.member("scorekeeper")
    assert "Mark this game paid (Ben paid Ana $10.00)" in keeper.get(url).get_data(as_text=True)
    assert keeper.post(url, data=data).status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).paid_at is not None


@pytest.mark.parametrize(
    "url",
    [
        "/leagues/our-table/seasons",
        "/leagues/our-table/import",
    ],
)
def test_seasons_and_imports_are_for_league_admins(public, auth, client, table, url):
    assert client.get(url).status_code == 302  # sign in first
    assert client.post(url).status_code == 401
    for role in ("viewer", "scorekeeper"):
        member = auth.member(role)
        assert member.get(url).status_code == 403
        assert member.post(url).status_code == 403
    assert auth.member("admin").get(url).status_code == 200
    assert table.client.get(url).status_code == 200  # the site administrator


def test_season_changes_are_for_league_admins(app, auth, table):
    table.client.post(
        "/leagues/our-table/seasons",
        data={"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"},
    )
    with app.app_context():
        from scorekeeper.league.seasons import seasons_of

        season_id = seasons_of(league_id(app))[0].id
    keeper = auth.member("scorekeeper")
    for url in (
        f"/leagues/our-table/seasons/{season_id}",
        f"/leagues/our-table/seasons/{season_id}/delete",
    ):
        assert keeper.post(url, data={"name": "x"}).status_code == 403


def test_another_leagues_player_or_season_is_not_found_here(app, table, client):
    with app.app_context():
        other = league_service.create_league("Other club")
        slug = other.slug
    play(app, ("Zoe", "Yan"), CLOSE_WIN, league=slug)
    zoe = player_id(app, "Zoe", slug)
    assert client.get(f"/leagues/our-table/players/{zoe}").status_code == 404
    assert client.get(f"/leagues/{slug}/players/{zoe}").status_code == 200
    assert client.get(f"/leagues/our-table/games?player={zoe}").status_code == 404
    assert client.get("/leagues/no-such-league").status_code == 404
    huge = 10**20  # no id is this large: a 404, not a database error
    assert client.get(f"/leagues/our-table/players/{huge}").status_code == 404
    assert client.get(f"/leagues/our-table/owes/{huge}/{zoe}").status_code == 404
    assert table.client.get(f"/leagues/our-table/seasons/{huge}").status_code == 404


# Speed and pages ------------------------------------------------------------------------------


def count_queries(app, client, url):
    statements = []

    def count(*_args):
        statements.append(1)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        response = client.get(url)
        assert response.status_code == 200, url
        response.get_data()  # a streamed body runs its queries as it is read
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(statements)


def league_of(app, games: int, start: int = 0) -> None:
    """``games`` more games among four players: every pair, both seats, some unpaid, one open."""
    players = ["Ana", "Ben", "Cleo", "Dan"]
    pairs = [(a, b) for a in players for b in players if a != b]
    for n in range(start, start + games):
        deals = CLOSE_WIN if n % 3 else ONE_DEAL_WIN
        game_id = play(app, pairs[n % len(pairs)], deals)
        if n % 4 == 0:
            with app.app_context():
                closing.mark_paid(game_id)
    play(app, ("Ana", "Ben"), [(0, (300, 200), (0, 0))])


@pytest.mark.slow
def test_league_pages_issue_the_same_number_of_queries_whatever_the_size(app, auth, table):
    viewer = auth.member("viewer")
    league_of(app, 5)
    ana, ben = player_id(app, "Ana"), player_id(app, "Ben")
    with app.app_context():
        from scorekeeper.league import seasons

        seasons.add_season(league_id(app), "Always", *sorted(_days()))
        season = seasons.seasons_of(league_id(app))[0].id
    pages = [
        *READ_PAGES,
        f"/leagues/our-table?season={season}",
        f"/leagues/our-table/games?player={ana}&opponent={ben}&season={season}",
        f"/leagues/our-table/games?player={ana}&status=finished",
        f"/leagues/our-table/players/{ana}",
        f"/leagues/our-table/head-to-head?a={ana}&b={ben}",
        f"/leagues/our-table/owes/{ben}/{ana}",
    ]
    for client in (viewer, table.client):
        client.get("/leagues/our-table")  # the first request of a client signs it in
    small = {url: count_queries(app, viewer, url) for url in pages}
    admin_small = count_queries(app, table.client, "/leagues/our-table/seasons")
    league_of(app, 55, start=5)
    big = {url: count_queries(app, viewer, url) for url in pages}
    assert big == small
    assert count_queries(app, table.client, "/leagues/our-table/seasons") == admin_small
    assert max(small.values()) <= 12, small
    next_page = f"/leagues/our-table/games?after={60}"
    assert count_queries(app, viewer, next_page) == small["/leagues/our-table/games"]


def _days():
    from datetime import date, timedelta

    today = date.today()
    return today - timedelta(days=400), today + timedelta(days=400)


def test_league_pages_use_no_inline_script_or_style(app, table, small_league):
    for url in [u for u in small_league if "export" not in u] + [
        "/leagues/our-table/seasons",
        "/leagues/our-table/import",
    ]:
        page = table.client.get(url).get_data(as_text=True)
        assert " style=" not in page, url
        assert "<script>" not in page, url
        assert " onclick=" not in page, url


# Every route of the league pages, for everyone who might knock -----------------------------

READ, VIEWER, SCOREKEEPER, ADMIN = None, 1, 2, 3
#: (method, path, role needed); {ana} and {ben} are players of the league, {season} a season.
LEAGUE_ROUTES = [
    ("GET", "/leagues/{slug}", READ),
    ("GET", "/leagues/{slug}/players/{ana}", READ),
    ("POST", "/leagues/{slug}/players/{ana}/payment", ADMIN),
    ("POST", "/leagues/{slug}/players/{ana}/account", ADMIN),
    ("GET", "/leagues/{slug}/players/{ana}/rename", ADMIN),
    ("POST", "/leagues/{slug}/players/{ana}/rename", ADMIN),
    ("GET", "/leagues/{slug}/players/{ana}/merge?into={ben}", ADMIN),
    ("POST", "/leagues/{slug}/players/{ana}/merge", ADMIN),
    ("GET", "/leagues/{slug}/head-to-head?a={ana}&b={ben}", READ),
    ("GET", "/leagues/{slug}/games", READ),
    ("GET", "/leagues/{slug}/owes", READ),
    ("GET", "/leagues/{slug}/owes/{ben}/{ana}", READ),
    ("POST", "/leagues/{slug}/owes/{ben}/{ana}", SCOREKEEPER),
    ("GET", "/leagues/{slug}/payments", READ),
    ("GET", "/leagues/{slug}/settle-up", VIEWER),
    ("POST", "/leagues/{slug}/settle-up/paid", SCOREKEEPER),
    ("POST", "/leagues/{slug}/settle-up/settled", SCOREKEEPER),
    ("GET", "/leagues/{slug}/export.csv", READ),
    ("GET", "/leagues/{slug}/export.json", READ),
    ("GET", "/leagues/{slug}/seasons", ADMIN),
    ("POST", "/leagues/{slug}/seasons", ADMIN),
    ("GET", "/leagues/{slug}/seasons/{season}", ADMIN),
    ("POST", "/leagues/{slug}/seasons/{season}", ADMIN),
    ("POST", "/leagues/{slug}/seasons/{season}/delete", ADMIN),
    ("GET", "/leagues/{slug}/import", ADMIN),
    ("POST", "/leagues/{slug}/import", ADMIN),
    ("POST", "/leagues/{slug}/import/parts", ADMIN),
    ("GET", "/leagues/{slug}/tonight", SCOREKEEPER),
    ("POST", "/leagues/{slug}/tonight", SCOREKEEPER),
]


def test_every_league_route_is_in_the_permission_table(app):
    """Every page of a league, whichever module serves it, is in this table or in
    ``tests/accounts/test_permissions.py``'s."""
    from tests.accounts.test_permissions import ROUTES

    listed = {(method, path.split("?")[0]) for method, path, _ in LEAGUE_ROUTES + ROUTES}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/leagues/<slug>") or rule.endpoint.startswith("api."):
            continue
        path = re.sub(r"<(?:int:)?(\w+)>", "{\\1}", rule.rule)
        path = path.replace("{first_id}", "{ben}").replace("{second_id}", "{ana}")
        path = path.replace("{player_id}", "{ana}").replace("{season_id}", "{season}")
        path = path.replace("{user_id}", "{user}").replace("{invitation_id}", "{invitation}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (method, path) in listed, (method, path)


@pytest.fixture(params=["public", "private"])
def guarded(request, app, auth, wikipedia_card):
    """A league with an unpaid game and a season, and a client for each kind of visitor."""
    with app.app_context():
        if request.param == "public":
            slug = "our-table"
            found = league_by_slug(slug)
            league_service.update_league(found.id, name=found.name, public=True, defaults=None)
        else:
            slug = league_service.create_league("Secret club", public=False).slug
        league_service.create_league("Other club")
    game_id = play(app, ("Ana", "Ben"), wikipedia_card, league=slug)
    with app.app_context():
        from scorekeeper.league import seasons

        season = seasons.add_season(league_id(app, slug), "2025", *sorted(_days())).id
    ids = {
        "slug": slug,
        "ana": player_id(app, "Ana", slug),
        "ben": player_id(app, "Ben", slug),
        "season": season,
    }
    data = {
        "through": game_id,
        "count": 1,
        "net": -1000,
        "name": "Summer",
        "starts_on": "2025-06-01",
        "ends_on": "2025-08-31",
        "format": "csv",
    }
    clients = {
        "anonymous": app.test_client(),
        "outsider": auth.member("admin", league="other-club"),
        "viewer": auth.member("viewer", league=slug),
        "scorekeeper": auth.member("scorekeeper", league=slug),
        "admin": auth.member("admin", league=slug),
    }
    return request.param == "public", ids, data, clients


def snapshot(app):
    """What a refused request must not change: payments, games and seasons."""
    with app.app_context():
        from scorekeeper.models import Season

        paid = db.session.scalar(select_count(Game.paid_at))
        games = db.session.scalar(select_count(Game.id))
        seasons = sorted(db.session.scalars(db.select(Season.name)))
    return paid, games, seasons


def select_count(column):
    return db.select(db.func.count(column))


@pytest.mark.slow  # every route, every role
@pytest.mark.parametrize(("method", "path", "needed"), LEAGUE_ROUTES)
def test_league_route_checks_the_role(app, guarded, method, path, needed):
    public, ids, data, clients = guarded
    url = path.format(**ids)
    for actor in ("anonymous", "outsider", "viewer", "scorekeeper", "admin"):
        rank = {"viewer": 1, "scorekeeper": 2, "admin": 3}.get(actor)
        before = snapshot(app)
        response = clients[actor].open(url, method=method, data=data)
        if (public or rank) and (needed is READ or (rank or 0) >= needed):
            assert response.status_code not in (401, 403, 404), (actor, url)
            break
        if not public and rank is None:
            assert response.status_code == 404, (actor, url)
        elif actor == "anonymous":
            assert response.status_code == (302 if method == "GET" else 401), (actor, url)
        else:
            assert response.status_code == 403, (actor, url)
        assert snapshot(app) == before, (actor, url)


# Hostile input -------------------------------------------------------------------------------

HOSTILE = [
    "", " ", "0", "-1", "1e9", "NaN", "99999999999999999999999", "3.5", "2025-02-30",
    "<script>alert(1)</script>", "' OR 1=1 --", "\x00", "\u202e", "a" * 300, "1:1 2:x",
    "2025-01-01", "json", "csv", "player", "net", "desc", "asc", "custom", "unpaid",
]  # fmt: skip


def hostile_value():
    return st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40), st.integers().map(str))


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_requests_never_fail_and_refusals_change_nothing(table, app, data):
    ids = hostile_league(app)
    paths = [
        ("GET", "/leagues/our-table", ["season", "sort", "order"]),
        ("GET", "/leagues/our-table/games",
         ["player", "opponent", "season", "status", "preset", "after", "before"]),
        ("GET", "/leagues/our-table/head-to-head", ["a", "b", "after", "before"]),
        ("GET", "/leagues/our-table/payments", ["after"]),
        ("POST", "/leagues/our-table/seasons", ["name", "starts_on", "ends_on"]),
        ("POST", "/leagues/our-table/seasons/{season}", ["name", "starts_on", "ends_on"]),
        ("POST", "/leagues/our-table/owes/{ben}/{ana}", ["through", "count", "net"]),
        ("POST", "/leagues/our-table/import", ["format", "file", "upload"]),
        ("POST", "/leagues/our-table/import/parts", ["upload", "offset", "part"]),
        ("GET", "/leagues/our-table/players/{ana}/merge", ["into"]),
        ("POST", "/leagues/our-table/players/{ana}/merge", ["into", "handle", "signature"]),
    ]  # fmt: skip
    method, path, fields = data.draw(st.sampled_from(paths))
    values = {name: data.draw(hostile_value()) for name in fields}
    for name in {"file", "part"} & values.keys():
        values[name] = (io.BytesIO(values[name].encode("utf-8", "replace")), "x.csv")
    before = snapshot(app)
    url = path.format(**ids)
    if method == "GET":
        response = table.client.get(url, query_string=values)
    else:
        response = table.client.post(url, data=values, content_type="multipart/form-data")
    body = response.get_data(as_text=True)
    assert response.status_code < 500, (url, values, body[:500])
    if response.status_code >= 400:
        assert snapshot(app) == before


def hostile_league(app):
    with app.app_context():
        from scorekeeper.league import seasons

        found = league_by_slug("our-table")
        if not seasons.seasons_of(found.id):
            play(app, ("Ana", "Ben"), CLOSE_WIN)
            seasons.add_season(found.id, "2025", *sorted(_days()))
        return {
            "ana": player_service.find_player(found.id, "Ana").id,
            "ben": player_service.find_player(found.id, "Ben").id,
            "season": seasons.seasons_of(found.id)[-1].id,
        }


def test_payments_page_older_and_older_without_overlap(app):
    """The payments, latest first, a page at a time: each page continues after the last."""
    from scorekeeper.league import balances

    winning = [(0, (1300, 0), (0, 0))]
    games = [play(app, ("Ana", "Ben"), winning) for _ in range(3)]
    with app.app_context():
        for game_id in games:
            closing.mark_paid(game_id)
        league = league_by_slug("our-table").id
        first = balances.payments(league, limit=2)
        second = balances.payments(league, after=first.older, limit=2)
        assert [p.game.id for p in first.payments] == games[:0:-1]  # the last paid first
        assert [p.game.id for p in second.payments] == [games[0]]
        assert first.older == games[1]
        assert second.older is None
        db.session.remove()
