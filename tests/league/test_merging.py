"""Two players who are one person, made one (issue 37): a merge followed by a recomputation
equals a league that always had one player; a refused merge changes nothing; renaming.

These run on SQLite and, with ``DATABASE_URL``, on PostgreSQL.
"""

import random
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import select, update

from scorekeeper.engine import PRESETS, Preset, Rules, Seat, Tally
from scorekeeper.engine.games import kind_named
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import seasons
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league.kind_standings import kind_standings
from scorekeeper.models import (
    AuditAction,
    AuditEvent,
    Game,
    GameSeat,
    LeagueRound,
    Player,
    Season,
    User,
    db,
)
from scorekeeper.records import merging, results
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.records.payment_handles import handle_of, read_handle, set_handle
from scorekeeper.table import closing, kind_service, starting
from scorekeeper.table import service as game_service
from tests.conftest import Api, run_together
from tests.league.test_leagues_data import assert_no_drift, play, random_deals, shown, stored

#: League A's players: Benn is Ben, typed wrong; league B always had Ben alone.
PLAYERS = ["Ana", "Ben", "Benn", "Cleo"]
ONE_PERSON = {"Benn": "Ben"}
KNOCK = kind_named("knock-rummy")
FIRST_DAY = datetime(2024, 1, 8, 20, 0)


def the_evenings(seed: int = 37) -> list[dict]:
    """Games of Mille and sittings of Knock Rummy among PLAYERS, none seating Ben and Benn
    together: each with its players, deals, stakes, whether paid, and the day it ended."""
    rng = random.Random(seed)
    games, day = [], 0
    for n in range(28):
        names = rng.sample(PLAYERS, 2)
        while set(names) == {"Ben", "Benn"}:
            names = rng.sample(PLAYERS, 2)
        day += rng.choice((0, 1, 3, 9, 40))
        if n % 6 == 5:
            trio = ["Ana", rng.choice(("Ben", "Benn")), "Cleo"]
            deals = [
                {"knocker": rng.randrange(3), "counts": [rng.randrange(0, 30) for _ in trio]}
                for _ in range(rng.randrange(1, 4))
            ]
            games.append({"kind": KNOCK.name, "names": trio, "deals": deals, "day": day})
            continue
        rules = PRESETS[Preset.MARKS] if n % 7 == 0 else Rules()
        deals = random_deals(rng, rules)
        games.append(
            {"kind": "mille", "names": names, "deals": deals, "rules": rules, "day": day}
            | {"small": 25 * (n % 3 + 1), "paid": n % 4 == 0}
        )
    return games


def play_the_evenings(league_id: int, games: list[dict], names: dict[str, str]) -> list[int]:
    """Every game played in the league (each name through ``names``), ended on its day; the
    games' ids in order. A last game of Mille stays in progress, Benn (or Ben) against Cleo."""
    ids = []
    for game in games:
        seated = [names.get(name, name) for name in game["names"]]
        if game["kind"] == "mille":
            ids.append(play(league_id, seated, game["deals"], game["rules"], game["small"]))
            if game["paid"]:
                closing.mark_paid(ids[-1])
        else:
            started = starting.start_game_of(KNOCK, league_id, seated, {}, {"point": 10}, 0)
            for deal in game["deals"]:
                kind_service.record(started.id, deal)
            kind_service.finish(started.id)
            ids.append(started.id)
        ended = FIRST_DAY + timedelta(days=game["day"], minutes=len(ids))
        db.session.execute(
            update(Game).where(Game.id == ids[-1]).values(finished_at=ended, played_at=ended)
        )
        db.session.commit()
    benn = names.get("Benn", "Benn")
    ids.append(play(league_id, [benn, "Cleo"], [(0, (300, 200), (0, 0))]))
    seasons.add_season(league_id, "2024", date(2024, 1, 1), date(2024, 12, 31))
    seasons.add_season(league_id, "Spring", date(2024, 3, 1), date(2024, 5, 31))
    for sat_out in ("Ana", benn):  # Tonight's rounds, each with who sat it out
        round_ = LeagueRound(league_id=league_id, sitting_out_id=_id(league_id, sat_out))
        db.session.add(round_)
        round_.token = f"{league_id}-{sat_out}"
    db.session.commit()
    results.rebuild_league(league_id)  # the days set above: every derived row from them
    db.session.commit()
    return ids


def _id(league_id: int, name: str) -> int:
    player = player_service.find_player(league_id, name)
    assert player is not None
    return player.id


def by_name(league_id: int, ids: list[int]) -> dict:
    """Everything the league's pages show that a merge moves, with games by their place in
    ``ids`` and players, seasons and pairs by name: two leagues compare equal."""
    players = list(db.session.scalars(select(Player).where(Player.league_id == league_id)))
    names = {player.id: player.name for player in players}
    game_at = {game_id: place for place, game_id in enumerate(ids)}
    season_names = {
        s.id: s.name
        for s in db.session.scalars(select(Season).where(Season.league_id == league_id))
    }
    now = stored(league_id)
    results_now = {}
    for (game_id, player_id), row in now["results"].items():
        results_now[game_at[game_id], names[player_id]] = {
            **row,
            "opponent_id": names[row["opponent_id"]],
        }
    return {
        "players": sorted(names.values()),
        "results": results_now,
        "records": {names[p]: row for p, row in now["records"].items()},
        "seasons": {
            season_names[s]: {names[p]: row for p, row in rows.items()}
            for s, rows in now["seasons"].items()
        },
        "pairs": {(names[a], names[b]): row for (a, b), row in now["pairs"].items()},
        "owed": now["owed"],
        "shown": {
            season_names.get(s): {names[p]: row for p, row in rows.items()}
            for s, rows in shown(league_id).items()
        },
        "standings": [
            (row.name, row.played, row.won, row.net, row.rating, row.skunks_given)
            for row in standing_queries.standings(league_id)
        ],
        "knock-rummy": [
            (row.name, row.played, row.won, row.net)
            for row in kind_standings(league_id, KNOCK.name)
        ],
        "balances": [
            (b.debtor.name, b.creditor.name, b.amount, b.games)
            for b in balance_queries.balances(league_id)
        ],
        "seats": sorted(
            (game_at[seat.game_id], seat.seat, names[seat.player_id])
            for seat in db.session.scalars(select(GameSeat).where(GameSeat.game_id.in_(ids)))
        ),
        "sat out": sorted(
            names[row.sitting_out_id]
            for row in db.session.scalars(
                select(LeagueRound).where(LeagueRound.league_id == league_id)
            )
        ),
        "handles": {player.name: handle_of(player) for player in players},
    }


def test_a_merge_followed_by_a_recomputation_equals_a_league_that_always_had_one_player(
    app, monkeypatch
):
    games = the_evenings()
    with app.app_context():
        typed_wrong = league_by_slug("our-table").id
        always_one = league_service.create_league("Always one").id
        wrong_ids = play_the_evenings(typed_wrong, games, {})
        one_ids = play_the_evenings(always_one, games, ONE_PERSON)
        set_handle(_id(typed_wrong, "Benn"), read_handle("email", "ben@example.com"), by=None)
        set_handle(_id(always_one, "Ben"), read_handle("email", "ben@example.com"), by=None)
        before = by_name(typed_wrong, wrong_ids)
        assert "Benn" in before["players"]
        assert before != by_name(always_one, one_ids)
        assert_no_drift(typed_wrong)

        kept = merging.merge_players(
            typed_wrong, _id(typed_wrong, "Benn"), _id(typed_wrong, "Ben"), by=None
        )
        db.session.remove()

        assert kept.name == "Ben"
        merged = by_name(typed_wrong, wrong_ids)
        assert merged == by_name(always_one, one_ids)
        assert merged["handles"]["Ben"].handle == "ben@example.com"
        # The merge is what a recomputation from the deals alone says, and a rebuild again.
        assert_no_drift(typed_wrong)
        results.rebuild_league(typed_wrong)
        db.session.commit()
        assert by_name(typed_wrong, wrong_ids) == merged

        # The game in progress goes on as Ben's, in step with the league that always had Ben.
        the_end = FIRST_DAY + timedelta(days=400)
        monkeypatch.setattr(game_service, "utcnow", lambda: the_end)
        for ids in (wrong_ids, one_ids):
            game_service.record_deal(ids[-1], Tally(Seat(1), (100, 1000), (0, 0)))
        db.session.remove()
        assert by_name(typed_wrong, wrong_ids) == by_name(always_one, one_ids)
        assert_no_drift(typed_wrong)


def test_refused_merges_change_nothing(app):
    with app.app_context():
        league = league_by_slug("our-table").id
        play(league, ["Ana", "Benn"], [(0, (1250, 50), (0, 0))])
        shared = play(league, ["Ben", "Benn"], [(1, (50, 1250), (0, 0))])
        elsewhere = league_service.create_league("Elsewhere").id
        stranger = player_service.add_player(elsewhere, "Ben").id
        ben, benn = _id(league, "Ben"), _id(league, "Benn")
        db.session.remove()
    before = Api(app).snapshot()
    with app.app_context():
        with pytest.raises(Conflict, match="sat at the same game"):
            merging.merge_players(league, benn, ben, by=None)
        assert merging.plan_merge(league, benn, ben).shared == [shared]
        for into in (benn, stranger, 10**6):
            with pytest.raises(ServiceError) as refused:
                merging.merge_players(league, benn, into, by=None)
            assert refused.value.field == "into"
        with pytest.raises(NotFound):
            merging.merge_players(league, stranger, ben, by=None)
        with pytest.raises(NotFound):
            merging.merge_players(elsewhere, benn, ben, by=None)
        db.session.remove()
    assert Api(app).snapshot() == before


def test_the_history_keeps_the_merge_with_who_and_when(app):
    with app.app_context():
        league = league_by_slug("our-table").id
        play(league, ["Ana", "Benn"], [(0, (1250, 50), (0, 0))])
        play(league, ["Benn", "Cleo"], [(0, (1250, 50), (0, 0))])
        ben = player_service.add_player(league, "Ben").id
        benn = _id(league, "Benn")
        admin = db.session.scalar(select(User.id).where(User.username == "admin"))
        merging.merge_players(league, benn, ben, by=admin)
        event = db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == AuditAction.PLAYERS_MERGED)
        ).one()
        assert (event.league_id, event.game_id, event.user_id) == (league, None, admin)
        assert event.params == {
            "from": "Benn",
            "into": "Ben",
            "from_id": benn,
            "player_id": ben,
            "games": 2,
            "handle": None,
        }
        assert event.created_at is not None
        assert player_service.name_changes(league) == [event]
        history = player_service.name_history(db.session.get(Player, ben))
        assert (history.changes, history.former) == ([event], {ben, benn})
        assert player_service.former_ids(db.session.get(Player, ben)) == {ben, benn}
        # A player merged into one later merged again: both former ids lead to the last.
        cy = player_service.add_player(league, "Cy").id
        merging.merge_players(league, ben, cy, by=admin)
        assert player_service.former_ids(db.session.get(Player, cy)) == {cy, ben, benn}
        assert len(player_service.name_history(db.session.get(Player, cy)).changes) == 2
        db.session.remove()


@pytest.mark.slow  # real threads waiting on each other's locks
def test_a_merge_beside_games_ending_at_every_table_loses_nothing(app):
    """Games of Benn, of Ben and of others end while Benn is merged into Ben: every writer
    locks its games before the league (``records.merging``), so none waits for another
    for ever, and the league ends as a recomputation from the deals says."""
    with app.app_context():
        league = league_by_slug("our-table").id
        pairs = [("Benn", "Ana"), ("Ben", "Cleo"), ("Ana", "Cleo"), ("Cleo", "Benn")] * 2
        games = [play(league, list(pair), [(0, (600, 100), (0, 0))]) for pair in pairs]
        play(league, ["Ben", "Ana"], [(0, (1250, 50), (0, 0))])
        ben, benn = _id(league, "Ben"), _id(league, "Benn")
        db.session.remove()

    def work(index: int) -> object:
        with app.app_context():
            try:
                if index == len(games):
                    return merging.merge_players(league, benn, ben, by=None).id
                game_service.record_deal(games[index], Tally(Seat(0), (700, 100), (0, 0)))
                return "ended"
            finally:
                db.session.remove()

    assert run_together(work, len(games) + 1) == ["ended"] * len(games) + [ben]
    with app.app_context():
        assert db.session.get(Player, benn) is None
        assert assert_no_drift(league)["records"][ben]["played"] == 7
        db.session.remove()
