"""Who may open a seat of a game of any kind but Mille (issue 36): the same answers as
Mille's (tests/table/test_game_access.py), on a 4-player Knock Rummy in each state, with a
link to its fourth seat: an outsider, a viewer and a scorekeeper of another league get what
the README promises, and a refusal says nothing of the game and changes nothing."""

import pytest

from scorekeeper.accounts import users as user_service
from scorekeeper.engine.games import kind_named
from scorekeeper.league import service as league_service
from scorekeeper.models import SeatLink, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import closing, kind_service, starting

from .test_game_access import (  # noqa: F401  (askers and checks: fixtures)
    LINK,
    ROUTES,
    STATES,
    _knock,
    askers,
    checks,
)

#: The players: a refusal that names one of them said too much.
PLAYERS = ("Quintus", "Rosalind", "Septimus", "Tertia")
#: The routes of a seat (its link's, and the scorekeeper's sharing and agreeing) and the
#: receipt: what issue 36 opened to every game.
SEAT_ROUTES = sorted(
    (endpoint, method)
    for endpoint, method in ROUTES
    if endpoint.startswith("seats.") or endpoint in ("api.seat", "api.agree", "api.agreements")
)


def _knock_rummy(league_id: int, state: str) -> int:
    game = starting.start_game_of(
        kind_named("knock-rummy"), league_id, list(PLAYERS), {}, {"point": 10}, 0
    )
    kind_service.record(game.id, {"knocker": 0, "counts": [6, 6, 14, 20]})
    if state != "open":
        kind_service.finish(game.id)
    if state == "paid":
        closing.mark_paid(game.id)
    if state == "abandoned":
        closing.abandon(game.id)
    return game.id


@pytest.fixture
def games(app):
    with app.app_context():
        league = league_by_slug("our-table")
        admin = user_service.user_by_name("admin")
        league_service.create_league("Other club", public=False)
        ids = {state: _knock_rummy(league.id, state) for state in STATES}
        tokens = {}
        for state in STATES:
            link, tokens[state] = SeatLink.issue(ids[state], 3, admin.id)
            db.session.add(link)
        db.session.commit()
        db.session.remove()
    return ids, tokens


@pytest.mark.parametrize(("endpoint", "method"), SEAT_ROUTES)
def test_a_private_leagues_other_game_answers_outsiders_as_promised(
    app,
    games,
    askers,  # noqa: F811
    checks,  # noqa: F811
    endpoint,
    method,
):
    _knock(app, games, askers, checks, endpoint, method, public=False)


def test_every_route_a_seat_link_opens_is_knocked_on_here():
    links = {route for route, need in ROUTES.items() if need == LINK}
    assert links <= set(SEAT_ROUTES)
    assert {("seats.share", "POST"), ("seats.agree_for", "POST")} <= set(SEAT_ROUTES)
