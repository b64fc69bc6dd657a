"""Games through the API: starting one, recording, correcting and deleting deals,
payment and unlocking, counted cards, history and the audit trail."""

from scorekeeper.engine import Seat
from scorekeeper.league import service as league_service
from scorekeeper.models import AuditEvent, User, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import starting


def test_a_new_game_defaults_to_the_standard_preset_and_one_three_stakes(api, monkeypatch):
    monkeypatch.setattr(starting.random, "choice", lambda seats: Seat.SECOND)
    api.add_players("Ana", "Ben")

    response = api.post("/api/v1/games", {"league": "our-table", "players": ["ana", "BEN"]})

    assert response.status_code == 201
    game = response.get_json()
    assert response.headers["Location"] == f"/api/v1/games/{game['id']}"
    assert game["players"] == ["Ana", "Ben"]  # the league's players, as they are spelled
    assert game["preset"] == "standard"
    assert game["rules"] == {
        "target": 1200,
        "progressive": False,
        "natural_needed": False,
        "skunk": "multiply",
        "difference": "round",
    }
    assert game["stakes"] == {"small": "1.00", "big": "3.00"}
    assert (game["first_dealer"], game["next_dealer"]) == (1, 1)  # drawn (here: seat 1)
    assert (game["status"], game["version"], game["deals"]) == ("in_progress", 1, [])
    assert (game["totals"], game["naturals"], game["chapeaux"]) == ([0, 0], [0, 0], [0, 0])
    assert (game["winner"], game["settlement"], game["locked"]) == (None, None, False)


def test_rules_override_the_preset_and_big_defaults_to_three_times_small(api):
    game = api.start_game(
        preset="marks",
        rules={"target": 1500, "natural_needed": True},
        stakes={"small": "0.25"},
        first_dealer=1,
    )
    assert game["rules"] == {
        "target": 1500,
        "progressive": False,
        "natural_needed": True,
        "skunk": "mark",
        "difference": "ceil",
    }
    assert game["preset"] is None  # custom rules
    assert game["stakes"] == {"small": "0.25", "big": "0.75"}
    assert game["first_dealer"] == 1
    again = api.start_game(stakes={"small": "2", "big": "5.5"}, preset=None, rules=None)
    assert again["stakes"] == {"small": "2.00", "big": "5.50"}
    assert again["preset"] == "standard"


def test_a_game_without_stakes_takes_the_leagues_default_stakes(app, api):
    with app.app_context():
        league = league_by_slug("our-table")
        defaults = {"rules": {}, "stakes": {"small": 50, "big": 200}}
        league_service.update_league(league.id, name=league.name, public=True, defaults=defaults)
        db.session.remove()
    assert api.start_game()["stakes"] == {"small": "0.50", "big": "2.00"}


def test_a_correction_recomputes_everything_and_can_reopen_a_finished_game(api):
    game = api.start_game()
    game = api.play(game["id"], [(0, (700, 100), (0, 0)), (1, (20, 200), (0, 0))])
    game = api.play(game["id"], [(0, (600, -5), (1, 0))])
    assert (game["status"], game["winner"], game["settlement"]["total"]) == ("finished", 0, "38.00")

    response = api.put(
        f"/api/v1/games/{game['id']}/deals/1",
        {"out": 0, "scores": [500, 100], "version": game["version"]},
    )

    assert response.status_code == 200
    fixed = response.get_json()
    assert fixed["version"] == game["version"] + 1
    assert [deal["totals"] for deal in fixed["deals"]] == [[500, 100], [520, 300], [1120, 295]]
    assert (fixed["status"], fixed["winner"], fixed["settlement"]) == ("in_progress", None, None)
    assert fixed["finished_at"] is None
    actions = [e["action"] for e in api.get(f"/api/v1/games/{game['id']}/history").get_json()]
    assert actions[:2] == ["game_reopened", "deal_edited"]


def test_deleting_a_deal_renumbers_the_later_ones(api):
    game = api.start_game()
    game = api.play(
        game["id"], [(0, (100, 10), (0, 0)), (1, (20, 200), (0, 0)), (0, (300, 30), (0, 0))]
    )

    response = api.delete(f"/api/v1/games/{game['id']}/deals/2?version={game['version']}")

    assert response.status_code == 200
    after = response.get_json()
    assert [(d["number"], d["scores"]) for d in after["deals"]] == [(1, [100, 10]), (2, [300, 30])]
    assert after["totals"] == [400, 40]
    assert after["next_dealer"] == 0


def test_counted_cards_are_kept_with_a_deal_only_when_they_give_its_tally(api):
    game = api.start_game()
    cards = {
        "out": 0,
        "players": [{"sets": [{"rank": "K", "naturals": 3}]}, {"hand": {"threes_to_nines": 1}}],
    }
    counted = api.post("/api/v1/count", cards).get_json()
    body = {key: counted[key] for key in ("out", "scores", "naturals")}

    kept = api.post(f"/api/v1/games/{game['id']}/deals", {**body, "cards": cards}).get_json()
    typed = api.post(
        f"/api/v1/games/{game['id']}/deals", {"out": 0, "scores": [35, 0], "cards": cards}
    ).get_json()

    assert kept["deals"][0]["scores"] == [60, -5]  # a natural going out
    assert kept["deals"][0]["cards"]["players"][0]["sets"][0]["rank"] == "K"
    assert typed["deals"][1]["cards"] is None


def test_a_scorekeeper_plays_a_whole_game_and_the_audit_trail_names_the_tokens_user(app, api):
    game = api.start_game()
    keeper = api.as_("scorekeeper")
    game = keeper.play(game["id"], [(0, (1000, 50), (0, 0)), (0, (250, 0), (0, 0))])
    assert keeper.post(f"/api/v1/games/{game['id']}/paid").status_code == 200

    history = api.as_("viewer").get(f"/api/v1/games/{game['id']}/history").get_json()

    assert [event["action"] for event in history] == [
        "payment_marked",
        "game_finished",
        "deal_recorded",
        "deal_recorded",
    ]
    with app.app_context():
        users = db.session.scalars(
            db.select(User.username)
            .join(AuditEvent, AuditEvent.user_id == User.id)
            .where(AuditEvent.game_id == game["id"])
        ).all()
        db.session.remove()
    assert len(users) == 4
    assert {event["user"] for event in history} == set(users) == {users[0]}
    assert users[0].startswith("scorekeeper-")


def test_a_page_and_the_api_see_the_same_game(api, table):
    game = api.start_game()
    api.play(game["id"], [(1, (140, 350), (0, 0))])
    table.record(game["id"], 0, (290, 160))

    found = api.get(f"/api/v1/games/{game['id']}").get_json()

    assert found["totals"] == [430, 510]
    assert "430" in table.page(game["id"])


def test_an_optional_field_sent_as_null_is_as_if_left_out(api):
    """README: an optional field may be left out or sent as null."""
    game = api.start_game()
    deal = api.post(
        f"/api/v1/games/{game['id']}/deals",
        {"out": 0, "scores": [140, 50], "naturals": None, "version": None, "cards": None},
    )
    assert deal.status_code == 201, deal.get_json()
    assert deal.get_json()["deals"][0]["naturals"] == [0, 0]
    league = api.post("/api/v1/leagues", {"name": "Null club", "public": None})
    assert league.status_code == 201, league.get_json()
    assert league.get_json()["public"] is True
