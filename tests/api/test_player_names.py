"""Renaming and merging players through the API (issue 37): the answers, the refusals in
API.md's order (401, 404, 403, then 422 or 409), and a refusal changes nothing."""

import pytest

from tests.api.test_leagues import finish, make_private

RENAME = "/api/v1/leagues/our-table/players/{}/rename"
MERGE = "/api/v1/leagues/our-table/players/{}/merge"


def player_ids(api, league="our-table"):
    players = api.get(f"/api/v1/leagues/{league}").get_json()["players"]
    return {player["name"]: player["id"] for player in players}


@pytest.fixture
def benn(api):
    """Ana beat Ben, and Benn beat Ana and lost to her: Benn is Ben typed wrong."""
    finish(api, ("Ana", "Ben"))
    finish(api, ("Benn", "Ana"))
    finish(api, ("Ana", "Benn"))
    return player_ids(api)


def test_a_league_admin_renames_a_player(public, api, benn):
    answer = api.as_("admin").post(RENAME.format(benn["Benn"]), {"name": "  Bernard "})
    assert answer.status_code == 200
    assert answer.get_json() == {"id": benn["Benn"], "name": "Bernard"}
    assert "Bernard" in player_ids(api)
    standings = api.get("/api/v1/leagues/our-table/standings").get_json()
    assert {row["player"] for row in standings} == {"Ana", "Ben", "Bernard"}
    games = api.get("/api/v1/leagues/our-table/games").get_json()["games"]
    assert any("Bernard" in game["players"] for game in games)


def test_a_rename_to_another_players_name_is_refused(api, benn):
    before = api.snapshot()
    error = api.refused(api.post(RENAME.format(benn["Benn"]), {"name": "BEN"}), 422, "name")
    assert "merge Benn into Ben instead" in error["error"]
    api.refused(api.post(RENAME.format(benn["Benn"]), {"name": ""}), 422, "name")
    api.refused(api.post(RENAME.format(benn["Benn"]), {"name": "Ana\u200b"}), 422, "name")
    api.refused(api.post(RENAME.format(benn["Benn"]), {}), 422, "name")
    api.refused(api.post(RENAME.format(benn["Benn"]), {"name": "B", "x": 1}), 422, "x")
    assert api.snapshot() == before


def test_a_merge_answers_with_the_player_kept(public, api, benn):
    answer = api.post(MERGE.format(benn["Benn"]), {"into": benn["Ben"]})
    assert answer.status_code == 200
    assert answer.get_json() == {"id": benn["Ben"], "name": "Ben"}
    assert player_ids(api) == {"Ana": benn["Ana"], "Ben": benn["Ben"]}
    standings = api.get("/api/v1/leagues/our-table/standings").get_json()
    ben = next(row for row in standings if row["player"] == "Ben")
    assert (ben["played"], ben["won"], ben["lost"]) == (3, 1, 2)
    # Gone: the merged player answers 404 from now on.
    api.refused(api.post(MERGE.format(benn["Benn"]), {"into": benn["Ben"]}), 404)


def test_a_merge_replayed_with_its_key_answers_the_same(api, benn):
    key = {"Idempotency-Key": "merge-benn"}
    first = api.post(MERGE.format(benn["Benn"]), {"into": benn["Ben"]}, headers=key)
    again = api.post(MERGE.format(benn["Benn"]), {"into": benn["Ben"]}, headers=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"


def test_refused_merges_change_nothing(api, benn):
    finish(api, ("Ben", "Benn"))
    before = api.snapshot()
    shared = api.refused(api.post(MERGE.format(benn["Benn"]), {"into": benn["Ben"]}), 409)
    assert "sat at the same game" in shared["error"]
    for into, field in ((benn["Benn"], "into"), (10**6, "into"), ("2", "into"), (None, "into")):
        api.refused(api.post(MERGE.format(benn["Benn"]), {"into": into}), 422, field)
    api.refused(api.post(MERGE.format(benn["Benn"]), {}), 422, "into")
    body = {"into": benn["Ben"], "handle": "mine"}
    api.refused(api.post(MERGE.format(benn["Benn"]), body), 422, "handle")
    api.refused(api.post(MERGE.format(benn["Benn"]), [1]), 400)
    api.refused(api.post(MERGE.format(10**6), {"into": benn["Ben"]}), 404)
    assert api.snapshot() == before


def test_a_player_of_another_league_is_not_found_here(api, benn):
    api.post("/api/v1/leagues", {"name": "Elsewhere"})
    api.add_players("Ben", league="elsewhere")
    stranger = player_ids(api, "elsewhere")["Ben"]
    before = api.snapshot()
    api.refused(api.post(MERGE.format(stranger), {"into": benn["Ben"]}), 404)
    api.refused(api.post(RENAME.format(stranger), {"name": "Bob"}), 404)
    api.refused(api.post(MERGE.format(benn["Benn"]), {"into": stranger}), 422, "into")
    assert api.snapshot() == before


@pytest.mark.parametrize("path", [RENAME, MERGE])
def test_who_may_rename_and_merge(app, api, benn, path):
    url = path.format(benn["Benn"])
    body = {"name": "Bob"} if path == RENAME else {"into": benn["Ben"]}
    nobody, outsider = api.as_("anonymous"), api.as_("none")
    members = [api.as_(role) for role in ("viewer", "scorekeeper")]
    before = api.snapshot()
    api.refused(nobody.post(url, body), 401)
    api.refused(nobody.post(url.replace("our-table", "nowhere"), body), 401)
    api.refused(api.post(url.replace("our-table", "nowhere"), body), 404)
    for member in members:
        api.refused(member.post(url, body), 403)
    make_private(app, "our-table")
    api.refused(outsider.post(url, body), 403)  # a private league's outsider too
    after = api.snapshot()
    after.pop("league"), before.pop("league")  # made private
    assert after == before
