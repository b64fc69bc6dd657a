"""Idempotency-Key: a retried POST gets the first answer and records nothing twice,
one after the other or at the same moment."""

import pytest

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts.members import set_membership
from scorekeeper.api import idempotency
from scorekeeper.models import Deal, Game, IdempotencyKey, db
from scorekeeper.records.leagues import league_by_slug
from tests.conftest import run_together

THREADS = 6


def deals_of(app, game_id):
    with app.app_context():
        found = db.session.scalars(db.select(Deal).where(Deal.game_id == game_id)).all()
        db.session.remove()
        return len(found)


def keys(app):
    with app.app_context():
        found = db.session.scalars(db.select(IdempotencyKey)).all()
        result = [(key.key, key.status) for key in found]
        db.session.remove()
        return result


@pytest.fixture
def game(api):
    return api.start_game()


def test_a_retried_deal_returns_the_first_answer_and_is_recorded_once(app, api, game):
    path = f"/api/v1/games/{game['id']}/deals"
    headers = {"Idempotency-Key": "deal-1-of-game"}
    first = api.post(path, {"out": 0, "scores": [140, 50]}, headers=headers)
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    api.deal(game["id"], 1, (20, 300))  # the game moves on meanwhile

    retry = api.post(path, {"scores": [140, 50], "out": 0}, headers=headers)

    assert retry.status_code == 201
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == first.get_json()
    assert deals_of(app, game["id"]) == 2
    assert keys(app) == [("deal-1-of-game", 201)]


def test_the_same_key_with_another_body_is_a_422_and_records_nothing(app, api, game):
    path = f"/api/v1/games/{game['id']}/deals"
    headers = {"Idempotency-Key": "k-1"}
    assert api.post(path, {"out": 0, "scores": [140, 50]}, headers=headers).status_code == 201
    before = api.snapshot()

    response = api.post(path, {"out": 0, "scores": [145, 50]}, headers=headers)

    api.refused(response, 422, "Idempotency-Key")
    assert api.snapshot() == before
    other_path = api.post("/api/v1/leagues", {"name": "Friday"}, headers=headers)
    api.refused(other_path, 422, "Idempotency-Key")


def test_a_refused_request_leaves_no_key_so_a_corrected_retry_is_recorded(app, api, game):
    path = f"/api/v1/games/{game['id']}/deals"
    headers = {"Idempotency-Key": "k-2"}
    api.refused(api.post(path, {"out": 0, "scores": [3, 50]}, headers=headers), 422, "scores.0")
    assert keys(app) == []
    stale = api.post(path, {"out": 0, "scores": [140, 50], "version": 9}, headers=headers)
    api.refused(stale, 409)
    assert keys(app) == []

    response = api.post(path, {"out": 0, "scores": [140, 50]}, headers=headers)

    assert response.status_code == 201
    assert deals_of(app, game["id"]) == 1


def test_keys_belong_to_their_user(app, api, game):
    path = f"/api/v1/games/{game['id']}/deals"
    headers = {"Idempotency-Key": "shared-key"}
    other = api.as_("scorekeeper")
    assert api.post(path, {"out": 0, "scores": [140, 50]}, headers=headers).status_code == 201
    second = other.post(path, {"out": 0, "scores": [140, 50]}, headers=headers)
    assert second.status_code == 201
    assert "Idempotent-Replayed" not in second.headers
    assert deals_of(app, game["id"]) == 2


def test_a_replay_checks_the_callers_role_again(app, api, game):
    """A scorekeeper taken out of the league gets the 403 a new request gets, not the
    answer kept from before."""
    keeper = api.as_("scorekeeper")
    path, body = f"/api/v1/games/{game['id']}/deals", {"out": 0, "scores": [140, 50]}
    headers = {"Idempotency-Key": "before-removal"}
    assert keeper.post(path, body, headers=headers).status_code == 201
    with app.app_context():
        user = token_service.user_for_token(keeper.token)
        league = league_by_slug("our-table")
        set_membership(league.id, user.id, None)
        db.session.remove()
    replay = keeper.post(path, body, headers=headers)
    keeper.refused(replay, 403)
    assert "Idempotent-Replayed" not in replay.headers
    assert deals_of(app, game["id"]) == 1


def test_without_a_token_a_key_of_any_shape_gets_the_401(api, game):
    anonymous = api.as_("anonymous")
    path = f"/api/v1/games/{game['id']}/deals"
    for key in ("a b", "x" * 300, "ok-key"):
        headers = {"Idempotency-Key": key}
        response = anonymous.post(path, {"out": 0, "scores": [140, 50]}, headers=headers)
        anonymous.refused(response, 401)


def test_a_retried_new_game_league_and_player_are_made_once(app, api):
    headers = {"Idempotency-Key": "new-league"}
    league = api.post("/api/v1/leagues", {"name": "Friday"}, headers=headers)
    again = api.post("/api/v1/leagues", {"name": "Friday"}, headers=headers)
    assert (league.status_code, again.status_code) == (201, 201)
    assert again.get_json() == league.get_json()
    assert again.headers["Location"] == league.headers["Location"] == "/api/v1/leagues/friday"
    assert [x["slug"] for x in api.get("/api/v1/leagues").get_json()].count("friday") == 1

    for name in ("Ana", "Ben"):
        key = {"Idempotency-Key": f"player-{name}"}
        for _ in range(2):
            added = api.post("/api/v1/leagues/friday/players", {"name": name}, headers=key)
            assert added.status_code == 201
    assert len(api.get("/api/v1/leagues/friday").get_json()["players"]) == 2

    body = {"league": "friday", "players": ["Ana", "Ben"]}
    first = api.post("/api/v1/games", body, headers={"Idempotency-Key": "g"})
    retry = api.post("/api/v1/games", body, headers={"Idempotency-Key": "g"})
    assert retry.get_json() == first.get_json()
    assert retry.headers["Location"] == first.headers["Location"]
    assert len(api.get("/api/v1/leagues/friday/games").get_json()["games"]) == 1


def test_a_retried_payment_is_marked_once(app, api, game):
    api.deal(game["id"], 0, (1250, 0))
    headers = {"Idempotency-Key": "pay"}
    first = api.post(f"/api/v1/games/{game['id']}/paid", headers=headers)
    retry = api.post(f"/api/v1/games/{game['id']}/paid", headers=headers)
    assert first.status_code == retry.status_code == 200
    assert retry.get_json() == first.get_json()
    history = api.get(f"/api/v1/games/{game['id']}/history").get_json()
    assert [event["action"] for event in history].count("payment_marked") == 1


@pytest.mark.slow
@pytest.mark.parametrize("with_version", [False, True])
def test_the_same_deal_sent_at_once_from_many_threads_is_recorded_once(
    app, api, game, with_version
):
    path = f"/api/v1/games/{game['id']}/deals"
    body = {"out": 0, "scores": [140, 50]} | ({"version": game["version"]} if with_version else {})
    clients = [app.test_client() for _ in range(THREADS)]
    headers = {"Idempotency-Key": "at-once", "Authorization": f"Bearer {api.token}"}

    responses = run_together(lambda i: clients[i].post(path, json=body, headers=headers), THREADS)

    assert [r.status_code for r in responses] == [201] * THREADS
    assert sum("Idempotent-Replayed" not in r.headers for r in responses) == 1
    assert len({r.get_data() for r in responses}) == 1
    assert deals_of(app, game["id"]) == 1


@pytest.mark.slow
def test_the_same_new_game_sent_at_once_is_started_once(app, api):
    api.add_players("Ana", "Ben")
    clients = [app.test_client() for _ in range(THREADS)]
    headers = {"Idempotency-Key": "one-game", "Authorization": f"Bearer {api.token}"}
    body = {"league": "our-table", "players": ["Ana", "Ben"]}

    responses = run_together(
        lambda i: clients[i].post("/api/v1/games", json=body, headers=headers), THREADS
    )

    assert [r.status_code for r in responses] == [201] * THREADS
    assert len({r.get_json()["id"] for r in responses}) == 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        db.session.remove()


def test_without_a_key_a_retry_records_again(app, api, game):
    for _ in range(2):
        assert api.deal(game["id"], 0, (140, 50)).status_code == 201
    assert deals_of(app, game["id"]) == 2


@pytest.mark.parametrize("with_version", [False, True])
def test_a_retry_that_misses_the_first_answer_is_undone_by_the_key_in_its_transaction(
    app, api, game, monkeypatch, with_version
):
    """The race made certain: the retry's first look finds no key (as if the first
    request committed a moment later), so it records the deal, and its commit fails
    on the key the first request wrote with its own deal."""
    path = f"/api/v1/games/{game['id']}/deals"
    body = {"out": 0, "scores": [140, 50]} | ({"version": game["version"]} if with_version else {})
    headers = {"Idempotency-Key": "late"}
    first = api.post(path, body, headers=headers)
    looks = []
    stored = idempotency._stored

    def first_look_misses(user_id, key):
        looks.append(key)
        return None if len(looks) == 1 else stored(user_id, key)

    monkeypatch.setattr(idempotency, "_stored", first_look_misses)

    retry = api.post(path, body, headers=headers)

    assert len(looks) == 2
    assert retry.status_code == 201
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == first.get_json()
    assert deals_of(app, game["id"]) == 1


class Crash(BaseException):
    """The process dies here (kill -9): nothing after this point runs."""


@pytest.mark.parametrize("where", ["answer", "key"])
def test_a_crash_between_the_change_and_its_answer_leaves_a_key_a_retry_can_use(
    app, api, game, monkeypatch, where
):
    """Killed after the deal was written and before its answer was kept, a request
    used to leave its key without an answer: every retry got a 409 for a day although
    the deal was stored. Now the deal, the key and the answer are one transaction."""
    path = f"/api/v1/games/{game['id']}/deals"
    body = {"out": 0, "scores": [140, 50]}
    headers = {"Idempotency-Key": "crashed"}
    from scorekeeper.api import games

    def crash(*_args, **_kwargs):
        raise Crash

    target = (games, "game_json") if where == "answer" else (IdempotencyKey, "__init__")
    with monkeypatch.context() as patched:
        patched.setattr(*target, crash)
        with pytest.raises(Crash):
            api.post(path, body, headers=headers)
    # What a database keeps of a transaction that was never committed: nothing.
    assert deals_of(app, game["id"]) == 0

    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.2)
    retry = api.post(path, body, headers=headers)
    assert retry.status_code == 201, retry.get_json()
    assert deals_of(app, game["id"]) == 1
    again = api.post(path, body, headers=headers)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == retry.get_json()
    assert deals_of(app, game["id"]) == 1
    assert keys(app) == [("crashed", 201)]
