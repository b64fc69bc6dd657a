"""Every page a member may use is one link away: starting a game in any league they keep
score in, and a league admin's settings and members."""

import re

import pytest

from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.members import set_membership
from scorekeeper.engine import Rules, Seat, Stakes, Tally
from scorekeeper.league import service as league_service
from scorekeeper.models import Role, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import service as game_service
from scorekeeper.table import starting


def add_league(app, name: str, *, public: bool = True) -> str:
    with app.app_context():
        slug = league_service.create_league(name, public=public).slug
        db.session.remove()
    return slug


def game_in_progress(app, slug: str, names: tuple[str, str]) -> int:
    with app.app_context():
        league = league_by_slug(slug)
        game = starting.start_game(league.id, names, Rules(), Stakes.from_small(100), Seat(0))
        game_service.record_deal(game.id, Tally(Seat(0), (300, 200), (0, 0)))
        game_id = game.id
        db.session.remove()
    return game_id


def menu(page: str) -> str:
    """The site's main menu, at the top of every page."""
    return page[page.index('<header class="site">') : page.index("</header>")]


def league_nav(page: str) -> str:
    start = page.index('<nav class="league-nav"')
    return page[start : page.index("</nav>", start)]


def links(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


# Starting a game ---------------------------------------------------------------------------


def test_a_scorekeeper_of_another_league_starts_a_game_from_the_menu(app, auth):
    add_league(app, "Friday club")
    keeper = auth.member("scorekeeper", league="friday-club")
    assert "/games/new" in links(menu(keeper.get("/").get_data(as_text=True)))
    response = keeper.get("/games/new")
    assert response.status_code == 302
    assert response.headers["Location"] == "/leagues/friday-club/games/new"
    assert keeper.get("/leagues/friday-club/games/new").status_code == 200


def test_the_league_pages_offer_a_new_game_to_its_scorekeepers_only(app, auth, client):
    add_league(app, "Friday club")
    new_game = "/leagues/friday-club/games/new"
    for role in ("scorekeeper", "admin"):
        member = auth.member(role, league="friday-club")
        for page in ("/leagues/friday-club", "/leagues/friday-club/games"):
            assert new_game in links(league_nav(member.get(page).get_data(as_text=True))), role
    others = [client, auth.member("viewer", league="friday-club"), auth.member("scorekeeper")]
    for visitor in others:
        assert new_game not in visitor.get("/leagues/friday-club").get_data(as_text=True)


def test_someone_keeping_score_in_several_leagues_chooses_the_league(app, auth, table):
    add_league(app, "Friday club")
    add_league(app, "Alpine club")
    page = table.client.get("/games/new")  # the site administrator keeps score everywhere
    assert page.status_code == 200
    main = page.get_data(as_text=True).partition('<main id="main">')[2]
    # The default league first, then the others by name.
    assert [href for href in links(main) if href.endswith("/games/new")] == [
        "/leagues/our-table/games/new",
        "/leagues/alpine-club/games/new",
        "/leagues/friday-club/games/new",
    ]
    keeper = auth.member("scorekeeper", league="friday-club", username="kim")
    assert keeper.get("/games/new").status_code == 302  # one league: straight there
    with app.app_context():
        alpine = league_by_slug("alpine-club").id
        set_membership(alpine, user_service.user_by_name("kim").id, Role.ADMIN)
        db.session.remove()
    main = keeper.get("/games/new").get_data(as_text=True).partition('<main id="main">')[2]
    assert [href for href in links(main) if href.endswith("/games/new")] == [
        "/leagues/alpine-club/games/new",
        "/leagues/friday-club/games/new",
    ]


def test_one_league_means_no_choice(table):
    response = table.client.get("/games/new")
    assert response.status_code == 302
    assert response.headers["Location"] == "/leagues/our-table/games/new"


def test_someone_who_keeps_score_nowhere_is_not_offered_a_new_game(app, auth):
    add_league(app, "Friday club")
    viewer = auth.member("viewer", league="friday-club")
    home = viewer.get("/").get_data(as_text=True)
    assert not [href for href in links(home) if href.endswith("/games/new")]
    response = viewer.get("/games/new")  # typed in, or an old bookmark: told why, not a 403
    assert response.status_code == 200
    assert "You don't keep score in any league yet" in response.get_data(as_text=True)


def test_a_visitor_signs_in_and_then_starts_a_game(client):
    assert "/games/new" in links(menu(client.get("/").get_data(as_text=True)))
    response = client.get("/games/new")
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/games/new"
    home = client.get("/").get_data(as_text=True)
    assert 'href="/login?next=/games/new"' in home  # "Sign in to keep score"


# Tonight ------------------------------------------------------------------------------------


def test_tonight_is_beside_new_game_in_the_menu_and_on_home_for_a_scorekeeper(app, auth):
    add_league(app, "Friday club")
    keeper = auth.member("scorekeeper", league="friday-club")
    home = keeper.get("/").get_data(as_text=True)
    header = links(menu(home))
    assert header.index("/tonight") == header.index("/games/new") + 1
    main = home.partition('<main id="main">')[2]
    assert "/leagues/friday-club/tonight" in links(main)  # the one league: straight there
    response = keeper.get("/tonight")
    assert response.status_code == 302
    assert response.headers["Location"] == "/leagues/friday-club/tonight"
    assert keeper.get("/leagues/friday-club/tonight").status_code == 200


def test_tonight_asks_which_league_of_someone_keeping_score_in_several(app, table):
    add_league(app, "Friday club")
    page = table.client.get("/tonight")
    assert page.status_code == 200
    main = page.get_data(as_text=True).partition('<main id="main">')[2]
    assert [href for href in links(main) if href.endswith("/tonight")] == [
        "/leagues/our-table/tonight",
        "/leagues/friday-club/tonight",
    ]
    home = table.client.get("/").get_data(as_text=True).partition('<main id="main">')[2]
    assert "/tonight" in links(home)


def test_tonight_is_not_offered_to_a_viewer_nor_a_visitor(app, auth, client):
    add_league(app, "Friday club")
    viewer = auth.member("viewer", league="friday-club")
    for visitor in (viewer, client):
        assert not [h for h in links(visitor.get("/").get_data(as_text=True)) if "tonight" in h]
    response = client.get("/tonight")
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/tonight"
    page = viewer.get("/tonight")  # typed in: told why, not a 403
    assert page.status_code == 200
    assert "You don't keep score in any league yet" in page.get_data(as_text=True)


def test_home_shows_the_games_in_progress_of_every_league_one_keeps_score_in(app, auth, table):
    add_league(app, "Friday club")
    add_league(app, "Secret club", public=False)
    ours = game_in_progress(app, "our-table", ("Ana", "Ben"))
    friday = game_in_progress(app, "friday-club", ("Cleo", "Dan"))
    secret = game_in_progress(app, "secret-club", ("Eva", "Finn"))

    keeper = auth.member("scorekeeper", league="friday-club")
    page = keeper.get("/").get_data(as_text=True)
    assert f'href="/games/{friday}"' in page
    assert f'href="/games/{ours}"' not in page  # only read there, not kept
    assert f'href="/games/{secret}"' not in page

    page = table.client.get("/").get_data(as_text=True)  # keeps score everywhere
    for game_id in (ours, friday, secret):
        assert f'href="/games/{game_id}"' in page
    # Games of several leagues are grouped under each league's name.
    for name in ("Our table", "Friday club", "Secret club"):
        assert re.search(rf"<h3[^>]*>{name}</h3>", page), name


def test_a_visitor_still_sees_the_default_leagues_games_in_progress(public, app, client):
    ours = game_in_progress(app, "our-table", ("Ana", "Ben"))
    assert f'href="/games/{ours}"' in client.get("/").get_data(as_text=True)


def test_the_league_choice_in_french(app, table):
    add_league(app, "Friday club")
    table.client.set_cookie("lang", "fr")
    page = table.client.get("/games/new").get_data(as_text=True)
    assert "Dans quelle ligue" in page


# A league admin's pages --------------------------------------------------------------------


@pytest.mark.parametrize("page", ["/leagues/our-table", "/leagues/our-table/seasons"])
def test_league_admins_find_settings_and_members_in_the_league_nav(auth, table, page):
    wanted = {"/leagues/our-table/settings", "/leagues/our-table/members"}
    for admin in (auth.member("admin"), table.client):
        assert wanted <= set(links(league_nav(admin.get(page).get_data(as_text=True))))
    keeper = auth.member("scorekeeper")
    assert not wanted & set(links(keeper.get("/leagues/our-table").get_data(as_text=True)))


@pytest.mark.parametrize(
    ("page", "active"),
    [
        ("/leagues/our-table/settings", "/leagues/our-table/settings"),
        ("/leagues/our-table/members", "/leagues/our-table/members"),
        ("/leagues/our-table/players", "/leagues/our-table/players"),
    ],
)
def test_settings_members_and_players_carry_the_league_nav(table, page, active):
    nav = league_nav(table.client.get(page).get_data(as_text=True))
    assert f'<a href="{active}" aria-current="page">' in nav


# Who owes whom -----------------------------------------------------------------------------


def test_a_player_has_no_balance_with_themself(app, table):
    game_in_progress(app, "our-table", ("Ana", "Ben"))
    with app.app_context():
        ana = player_service.find_player(league_by_slug("our-table").id, "Ana").id
    url = f"/leagues/our-table/owes/{ana}/{ana}"
    assert table.client.get(url).status_code == 404
    assert table.client.post(url, data={"through": 1, "count": 0, "net": 0}).status_code == 404
