"""Every route checks the role against the league that owns the object in its URL."""

import pytest

from scorekeeper.accounts import invitations as invitation_service
from scorekeeper.accounts import users as user_service
from scorekeeper.engine import Rules, Seat, Stakes, validate_tally
from scorekeeper.league import service as league_service
from scorekeeper.models import Game, Role, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import service as game_service
from scorekeeper.table import starting
from tests.conftest import NEW_GAME_FORM

READ, SCOREKEEPER, ADMIN, SITE_ADMIN = None, Role.SCOREKEEPER, Role.ADMIN, "site"

#: (method, path template, role needed). {slug}: the league; {game}: a game in progress
#: with two deals; {done}: a finished game; {user}: a member of the league; {invitation}:
#: an open invitation to it.
ROUTES = [
    ("GET", "/games/{game}", READ),
    ("GET", "/games/{done}", READ),
    ("GET", "/games/{game}/version", READ),
    ("GET", "/leagues/{slug}/players", READ),
    ("GET", "/leagues/{slug}/games/new", SCOREKEEPER),
    ("POST", "/leagues/{slug}/games/new", SCOREKEEPER),
    ("GET", "/leagues/{slug}/games/new/chances?player0=Ana&player1=Ben", SCOREKEEPER),
    ("GET", "/leagues/{slug}/games/new/lookalikes?row=1&name=Benn", SCOREKEEPER),
    ("POST", "/games/{game}/deals", SCOREKEEPER),
    ("GET", "/games/{game}/deals/1", SCOREKEEPER),
    ("POST", "/games/{game}/deals/1", SCOREKEEPER),
    ("POST", "/games/{game}/deals/1/delete", SCOREKEEPER),
    ("POST", "/games/{game}/undo", SCOREKEEPER),
    ("POST", "/games/{done}/paid", SCOREKEEPER),
    ("GET", "/games/{done}/receipt", READ),
    ("POST", "/games/{game}/seats/0/share", SCOREKEEPER),
    ("POST", "/games/{game}/seats/1/stop", SCOREKEEPER),
    ("POST", "/games/{done}/agree", SCOREKEEPER),
    ("POST", "/games/{game}/abandon", SCOREKEEPER),
    ("POST", "/games/{done}/restore", ADMIN),
    ("POST", "/leagues/{slug}/players", ADMIN),
    ("GET", "/leagues/{slug}/settings", ADMIN),
    ("POST", "/leagues/{slug}/settings", ADMIN),
    ("GET", "/leagues/{slug}/members", ADMIN),
    ("POST", "/leagues/{slug}/members", ADMIN),
    ("POST", "/leagues/{slug}/members/{user}", ADMIN),
    ("POST", "/leagues/{slug}/invitations", ADMIN),
    ("POST", "/leagues/{slug}/invitations/{invitation}/withdraw", ADMIN),
]

DATA = {
    "out": "0",
    "score0": "100",
    "score1": "50",
    "stars0": "0",
    "stars1": "0",
    **NEW_GAME_FORM,
    "player0": "Xavi",
    "player1": "Yara",
    "submit": "1",
    "name": "Zoe",
    "username": "zed",
    "role": "1",
    "password": "pw-of-zed",
    "public": "y",
    "seat": "0",
}


def _game(league_id: int, finished: bool) -> int:
    game = starting.start_game(league_id, ("Ana", "Ben"), Rules(), Stakes.from_small(100), Seat(0))
    game_service.record_deal(game.id, validate_tally(0, (100, 50), (0, 0)))
    game_service.record_deal(game.id, validate_tally(1, (40, 1200 if finished else 60), (0, 0)))
    return game.id


@pytest.fixture(params=["public", "private"])
def league(request, app, auth):
    """A league with games, and a client for everyone who might knock on its doors."""
    with app.app_context():
        if request.param == "public":
            found = league_by_slug("our-table")
            league_service.update_league(found.id, name=found.name, public=True, defaults=None)
        else:
            found = league_service.create_league("Secret club", public=False)
        league_service.create_league("Other club")
        slug, league_id = found.slug, found.id
        ids = {"slug": slug, "game": _game(league_id, False), "done": _game(league_id, True)}
        ids["invitation"] = invitation_service.create(league_id, Role.VIEWER, None)[0].id
        db.session.remove()
    clients = {
        "anonymous": app.test_client(),
        "outsider": auth.member("scorekeeper", league="other-club", username="outsider"),
        "viewer": auth.member("viewer", league=slug),
        "scorekeeper": auth.member("scorekeeper", league=slug),
        "admin": auth.member("admin", league=slug),
        "site admin": auth.login(app.test_client()),
    }
    with app.app_context():
        ids["user"] = user_service.user_by_name("outsider").id
    return request.param, ids, clients


def expected(public: bool, actor: str, method: str, needed) -> set[int]:
    """The answers a route may give this actor (success is anything but 401/403/404)."""
    rank = {
        "viewer": Role.VIEWER,
        "scorekeeper": Role.SCOREKEEPER,
        "admin": Role.ADMIN,
        "site admin": Role.ADMIN,
    }.get(actor)
    if not public and rank is None:
        return {404}  # a private league is hidden from everyone outside it
    if needed is READ:
        return {"ok"}
    if actor == "anonymous":
        return {302} if method == "GET" else {401}
    if rank is None or rank < needed:
        return {403}
    return {"ok"}


def versions(app, ids):
    with app.app_context():
        return [db.session.get(Game, ids[key]).version for key in ("game", "done")]


@pytest.mark.slow  # every route, every role
@pytest.mark.parametrize(("method", "path", "needed"), ROUTES)
def test_route_checks_the_role_in_the_league_that_owns_it(app, league, method, path, needed):
    kind, ids, clients = league
    url = path.format(**ids)
    order = ["anonymous", "outsider", "viewer", "scorekeeper", "admin", "site admin"]
    for actor in order:
        want = expected(kind == "public", actor, method, needed)
        before = versions(app, ids)
        response = clients[actor].open(url, method=method, data=DATA)
        if want == {"ok"}:
            assert response.status_code not in (401, 403, 404), (actor, url)
            if response.status_code == 302:
                assert "/login" not in response.headers["Location"], (actor, url)
            break  # the first actor allowed in may change the game: stop here
        assert response.status_code in want, (actor, url, response.status_code)
        if response.status_code == 302:
            assert "/login" in response.headers["Location"]
        assert versions(app, ids) == before, (actor, url)  # a refusal changes nothing


def test_only_a_site_administrator_creates_leagues(app, auth):
    league_admin = auth.member("admin")
    assert league_admin.post("/leagues/new", data={"name": "Mine"}).status_code == 403
    assert app.test_client().get("/leagues/new").status_code == 302
    site_admin = auth.login(app.test_client())
    assert site_admin.post("/leagues/new", data={"name": "Mine"}).status_code == 302


def test_an_id_from_another_league_is_not_reachable_by_editing_the_url(app, auth):
    with app.app_context():
        other = league_service.create_league("Private two", public=False)
        private_game = _game(other.id, False)
        db.session.remove()
    scorekeeper = auth.member("scorekeeper")  # of our-table only
    assert scorekeeper.get(f"/games/{private_game}").status_code == 404
    assert scorekeeper.post(f"/games/{private_game}/deals", data=DATA).status_code == 404
    assert scorekeeper.get(f"/games/{private_game}/deals/1").status_code == 404
