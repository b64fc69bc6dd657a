"""Settling up a night through the API (API.md, ``settle-up``): every game's balances
added up per player (a Mille game adds its settlement's total from the loser to the
winner), the fewest payments that bring them all to zero, and every game marked paid and
locked at once, or none."""

import pytest

from tests.api.test_other_games import deal, start


def mille_won_by_ana(api):
    """A finished Mille game: Ben pays Ana (standard rules, 1.00 and 3.00)."""
    game = api.start_game(("Ana", "Ben"))
    return api.play(game["id"], [(0, (1300, 100), (0, 0))])


def knock_sitting(api, players=("Ben", "Cy", "Dan")):
    game = start(api, "knock-rummy", list(players), stakes={"point": "0.10"})
    deal(api, game["id"], {"knocker": 0, "counts": [6, 6, 14]})
    return api.post(f"/api/v1/games/{game['id']}/finish").get_json()


def cents(amount):
    return round(float(amount) * 100)


def test_tonight_s_games_are_added_up_per_player_and_settled_in_the_fewest_payments(api):
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api)
    night = api.get("/api/v1/leagues/our-table/settle-up").get_json()
    assert sorted(night["games"]) == sorted([mille["id"], knock["id"]])
    nets = {row["player"]: cents(row["net"]) for row in night["net"]}
    assert nets["Ana"] == cents(mille["settlement"]["total"])
    assert nets["Ben"] == -cents(mille["settlement"]["total"]) + cents(knock["balances"][0])
    assert nets["Cy"] == cents(knock["balances"][1])
    assert sum(nets.values()) == 0
    left = dict(nets)
    for payment in night["payments"]:
        left[payment["from"]] += cents(payment["amount"])
        left[payment["to"]] -= cents(payment["amount"])
    assert set(left.values()) == {0}
    assert len(night["payments"]) == len([net for net in nets.values() if net]) - 1


def test_a_chosen_set_of_games_and_refusals(api):
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api)
    only = api.get(f"/api/v1/leagues/our-table/settle-up?games={knock['id']}").get_json()
    assert only["games"] == [knock["id"]]
    assert {row["player"] for row in only["net"]} == {"Ben", "Cy", "Dan"}
    api.refused(api.get("/api/v1/leagues/our-table/settle-up?games=a,b"), 422, "games")
    api.refused(api.get("/api/v1/leagues/our-table/settle-up?games=999999"), 422, "games")
    playing = api.start_game(("Cy", "Dan"))
    api.refused(api.get(f"/api/v1/leagues/our-table/settle-up?games={playing['id']}"), 422, "games")
    assert mille  # unpaid and finished: part of tonight


def test_settling_marks_every_game_paid_and_locked_or_none(api):
    mille = mille_won_by_ana(api)
    knock = knock_sitting(api)
    playing = api.start_game(("Cy", "Dan"))
    before = api.snapshot()
    body = {"games": [mille["id"], knock["id"], playing["id"]]}
    api.refused(api.post("/api/v1/leagues/our-table/settle-up", body), 409)
    assert api.snapshot() == before
    viewer = api.as_("viewer")
    body = {"games": [mille["id"], knock["id"]]}
    api.refused(viewer.post("/api/v1/leagues/our-table/settle-up", body), 403)
    api.refused(api.as_("anonymous").post("/api/v1/leagues/our-table/settle-up", body), 401)
    settled = api.post("/api/v1/leagues/our-table/settle-up", body)
    assert settled.status_code == 200
    for game_id in body["games"]:
        assert api.get(f"/api/v1/games/{game_id}").get_json()["locked"] is True
    api.refused(api.post("/api/v1/leagues/our-table/settle-up", body), 409)
    assert api.get("/api/v1/leagues/our-table/settle-up").get_json()["games"] == []


def test_members_only(api, app):
    mille_won_by_ana(api)
    api.refused(api.as_("anonymous").get("/api/v1/leagues/our-table/settle-up"), 401)
    api.refused(api.as_("none").get("/api/v1/leagues/our-table/settle-up"), 404)
    assert api.as_("viewer").get("/api/v1/leagues/our-table/settle-up").status_code == 200


@pytest.mark.parametrize("body", [{}, {"games": []}, {"games": "1"}, {"games": [0]}, [1]])
def test_a_bad_body_is_refused(api, body):
    status = 400 if isinstance(body, list) else 422
    assert api.post("/api/v1/leagues/our-table/settle-up", body).status_code == status
