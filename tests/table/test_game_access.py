"""Who may open a game, a deal or a seat (issue 34, point 1): every route that takes one
asks :mod:`scorekeeper.table.access` first, before anything about the game is read or said.

An outsider, a viewer and a scorekeeper of another league get exactly what the README
promises ("a private league is a 404 to everyone outside it"; the API's 401, 404, then
403), on a game in progress, a finished one, a paid (locked) one and an abandoned one; a
refusal says nothing of the game and changes nothing. The URL map is enumerated, so a new
route taking a game, a deal or a seat fails here until it is listed, and fails again if
it doesn't ask the helper. These run on SQLite and, with ``DATABASE_URL``, on PostgreSQL.
"""

import re

import pytest
from flask import url_for
from sqlalchemy import select

from scorekeeper.accounts import users as user_service
from scorekeeper.engine import Rules, Seat, Stakes, validate_tally
from scorekeeper.league import service as league_service
from scorekeeper.models import Game, Role, SeatLink, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import access, closing, starting
from scorekeeper.table import service as game_service
from tests.conftest import make_public, make_token

READ, VIEWER, SCOREKEEPER, ADMIN = None, Role.VIEWER, Role.SCOREKEEPER, Role.ADMIN
#: A route opened by a seat's link: the token in its address is the capability.
LINK = "link"

#: Every route that takes a game, a deal or a seat, by endpoint and method, with what it
#: needs. A new one fails :func:`test_every_route_taking_a_game_a_deal_or_a_seat_is_listed`
#: until it is added here (and then the tests below hold it to the README).
ROUTES = {
    ("table.game", "GET"): READ,
    ("table.game_version", "GET"): READ,
    ("table.record_deal", "POST"): SCOREKEEPER,
    ("table.edit_deal", "GET"): SCOREKEEPER,
    ("table.edit_deal", "POST"): SCOREKEEPER,
    ("table.delete_deal", "POST"): SCOREKEEPER,
    ("table.undo", "POST"): SCOREKEEPER,
    ("table.mark_paid", "POST"): SCOREKEEPER,
    ("table.unlock", "POST"): ADMIN,
    ("table.abandon", "POST"): SCOREKEEPER,
    ("table.restore", "POST"): ADMIN,
    ("table.rematch", "POST"): SCOREKEEPER,
    ("table.finish", "POST"): SCOREKEEPER,
    ("table.resume", "POST"): SCOREKEEPER,
    ("counting.count_next_deal", "GET"): SCOREKEEPER,
    ("counting.count_next_deal", "POST"): SCOREKEEPER,
    ("counting.count_deal_again", "GET"): SCOREKEEPER,
    ("counting.count_deal_again", "POST"): SCOREKEEPER,
    ("seats.share", "POST"): SCOREKEEPER,
    ("seats.stop_sharing", "POST"): SCOREKEEPER,
    ("seats.agree_for", "POST"): SCOREKEEPER,
    ("seats.receipt", "GET"): READ,
    ("seats.seat_page", "GET"): LINK,
    ("seats.seat_version", "GET"): LINK,
    ("seats.seat_agree", "POST"): LINK,
    ("seats.seat_payment", "POST"): LINK,
    ("seats.seat_receipt", "GET"): LINK,
    ("seats.shared_receipt", "GET"): LINK,  # by the link's receipt token
    ("api.game", "GET"): READ,
    ("api.history", "GET"): VIEWER,
    ("api.agreements", "GET"): READ,
    ("api.record_deal", "POST"): SCOREKEEPER,
    ("api.edit_deal", "PUT"): SCOREKEEPER,
    ("api.delete_deal", "DELETE"): SCOREKEEPER,
    ("api.mark_paid", "POST"): SCOREKEEPER,
    ("api.unlock", "POST"): ADMIN,
    ("api.abandon", "POST"): SCOREKEEPER,
    ("api.restore", "POST"): ADMIN,
    ("api.finish", "POST"): SCOREKEEPER,
    ("api.resume", "POST"): SCOREKEEPER,
    ("api.seat", "GET"): LINK,
    ("api.agree", "POST"): LINK,
}
#: What a route's address names that makes it a game's, a deal's or a seat's.
GAME_ARGUMENTS = {"game_id", "number", "seat", "token"}
#: Routes whose ``token`` is not a seat's: an invitation's (accounts/invitations.py).
NOT_A_SEAT = {"auth.invitation"}

STATES = ("open", "finished", "paid", "abandoned")
#: The players of every game here: a refusal that names one of them said too much.
NAMES = ("Quintus", "Rosalind")
FORM = {
    **{"out": "0", "score0": "100", "score1": "50", "stars0": "0", "stars1": "0", "seat": "0"},
    **{"kind": "paypal", "handle": ""},
}
BODY = {"out": 0, "scores": [100, 50], "naturals": [0, 0]}


def game_routes(app):
    """Every (endpoint, method) of the URL map whose address takes a game, a deal or a seat."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.arguments & GAME_ARGUMENTS and rule.endpoint not in NOT_A_SEAT:
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                found.add((rule.endpoint, method))
    return found


def test_every_route_taking_a_game_a_deal_or_a_seat_is_listed(app):
    assert game_routes(app) == set(ROUTES)


def _game(league_id: int, state: str) -> int:
    game = starting.start_game(league_id, NAMES, Rules(), Stakes.from_small(100), Seat(0))
    deal = (0, (300, 200)) if state == "open" else (0, (1300, 50))
    game_service.record_deal(game.id, validate_tally(deal[0], deal[1], (0, 0)))
    if state == "paid":
        closing.mark_paid(game.id)
    if state == "abandoned":
        closing.abandon(game.id)
    return game.id


@pytest.fixture
def games(app):
    """A game in each state, in the first league (private), with a link to its second seat
    made by the site administrator; and another league, where the outsider keeps score."""
    with app.app_context():
        league = league_by_slug("our-table")
        admin = user_service.user_by_name("admin")
        league_service.create_league("Other club", public=False)
        ids = {state: _game(league.id, state) for state in STATES}
        tokens = {}
        for state in STATES:
            link, tokens[state] = SeatLink.issue(ids[state], 1, admin.id)
            db.session.add(link)
        db.session.commit()
        db.session.remove()
    return ids, tokens


@pytest.fixture
def askers(app, auth):
    """Who knocks: nobody signed in, a viewer of the league, a scorekeeper of another; each
    with a browser and with an API token."""
    viewer_token = make_token(app, "viewer")
    outsider_token = make_token(app, "scorekeeper", league="other-club")
    return {
        "outsider": (app.test_client(), None),
        "viewer": (auth.member("viewer"), viewer_token),
        "scorekeeper of another league": (
            auth.member("scorekeeper", league="other-club"),
            outsider_token,
        ),
    }


def url(app, endpoint: str, game_id: int, token: str) -> str:
    with app.test_request_context():
        rule = next(rule for rule in app.url_map.iter_rules() if rule.endpoint == endpoint)
        if endpoint == "seats.shared_receipt":
            token = SeatLink.receipt_token(token)
        values = {"game_id": game_id, "number": 1, "seat": 0, "token": token}
        return url_for(endpoint, **{name: values[name] for name in rule.arguments})


def expected(endpoint: str, need, asker: str, public: bool, state: str, method: str) -> int:
    """The status the README promises this asker (a success is 200, a redirect 302)."""
    api = endpoint.startswith("api.")
    if need == LINK:  # the holder of the link, whoever they are
        if state == "abandoned":
            return 404
        receipt = endpoint in ("seats.seat_receipt", "seats.shared_receipt")
        if receipt and state == "open":
            return 404  # no receipt before the end
        if endpoint == "seats.seat_receipt":
            return 303  # to the receipt's own address, which opens nothing else
        return 302 if method == "POST" and not api else (201 if method == "POST" else 200)
    changes = need is not None and need >= Role.SCOREKEEPER
    member = asker == "viewer"
    if api and changes and asker == "outsider":
        return 401
    if not member and not public and not (api and changes):
        return 404
    if need is READ:
        if endpoint == "seats.receipt" and state == "open":
            return 404  # no receipt before the end
        return 200
    if asker == "outsider":
        return 401 if api or method != "GET" else 302  # pages: sign in first
    return 200 if need == VIEWER and member else 403


def call(client, token: str | None, method: str, path: str):
    if path.startswith("/api/"):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        body = BODY if method in ("POST", "PUT") and "/seats/" not in path else None
        return client.open(path, method=method, json=body, headers=headers)
    return client.open(path, method=method, data=FORM)


def snapshot(app, ids) -> list[tuple[int, int, object]]:
    with app.app_context():
        rows = db.session.execute(
            select(Game.version, Game.deal_count, Game.paid_at).where(Game.id.in_(ids.values()))
        ).all()
        db.session.remove()
    return sorted((version, deals, str(paid_at)) for version, deals, paid_at in rows)


@pytest.fixture
def checks(monkeypatch):
    """Every call the routes make to the access helper's two doors."""
    seen = []
    for name in ("check", "check_link"):
        door = getattr(access, name)

        def spy(*args, door=door, name=name, **kwargs):
            seen.append(name)
            return door(*args, **kwargs)

        monkeypatch.setattr(access, name, spy)
    return seen


def _knock(app, games, askers, checks, endpoint, method, public):
    ids, tokens = games
    need = ROUTES[(endpoint, method)]
    for state in STATES:
        path = url(app, endpoint, ids[state], tokens[state])
        for asker, (client, token) in askers.items():
            before = snapshot(app, ids)
            checks.clear()
            response = call(client, token, method, path)
            want = expected(endpoint, need, asker, public, state, method)
            where = (endpoint, method, state, asker)
            assert response.status_code == want, (*where, response.get_data(as_text=True)[:300])
            assert checks, (*where, "the route did not ask table/access.py")
            if want in (401, 403, 404):
                text = response.get_data(as_text=True)
                assert not any(name in text for name in NAMES), where  # nothing said
                assert snapshot(app, ids) == before, where  # nothing changed
            if want == 302 and method == "GET":
                assert "/login" in response.headers["Location"], where


@pytest.mark.parametrize(("endpoint", "method"), sorted(ROUTES))
def test_a_private_leagues_game_answers_outsiders_as_promised(
    app, games, askers, checks, endpoint, method
):
    _knock(app, games, askers, checks, endpoint, method, public=False)


@pytest.mark.slow  # the same in a public league: read by anyone, changed by its members only
@pytest.mark.parametrize(("endpoint", "method"), sorted(ROUTES))
def test_a_public_leagues_game_answers_outsiders_as_promised(
    app, games, askers, checks, endpoint, method
):
    make_public(app)
    _knock(app, games, askers, checks, endpoint, method, public=True)


def test_a_wrong_link_is_a_404_on_every_route_a_link_opens(app, games, checks):
    client = app.test_client()
    for (endpoint, method), need in ROUTES.items():
        if need != LINK:
            continue
        response = call(client, None, method, url(app, endpoint, 1, "x" * 22))
        assert response.status_code == 404, endpoint
        assert checks


# The attack of issue 34, as an outsider made it ------------------------------------------


@pytest.mark.parametrize("state", ["paid", "abandoned"])
def test_a_refused_save_shows_an_outsider_nothing_of_a_private_game(make_app, state):
    """A CSRF token from the sign-in page, then a deal posted to a settled or abandoned
    game of a private league: the 404 a GET gets, not a 409 with the whole card."""
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        game_id = _game(league_by_slug("our-table").id, state)
        db.session.remove()
    outsider = app.test_client()
    login = outsider.get("/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login)
    assert csrf, login
    assert outsider.get(f"/games/{game_id}").status_code == 404
    for headers in ({}, {"X-Requested-With": "fetch"}):
        response = outsider.post(
            f"/games/{game_id}/deals",
            data={**FORM, "csrf_token": csrf.group(1), "token": "t" * 32},
            headers=headers,
        )
        assert response.status_code == 404
        page = response.get_data(as_text=True)
        for said in (*NAMES, "paid", "settled", "abandoned", "1,300"):
            assert said not in page, said
        assert "X-Refusal" not in response.headers
