"""The league's derived numbers never drift, and its games go out and come back whole."""

import io
import json
import random
import re
import zlib
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import selectinload

from scorekeeper import json_stream
from scorekeeper.engine import PRESETS, Preset, Rules, Seat, Stakes, Tally, replay, settle
from scorekeeper.engine.rating import START, Rated, new_ratings
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import seasons
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league.transfer import export_csv, export_json
from scorekeeper.league.transfer.formats import JSON_FORMAT
from scorekeeper.league.transfer.plan import ImportProblems
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.read_json import parse_json
from scorekeeper.league.transfer.save import import_all
from scorekeeper.models import (
    MILLE,
    Deal,
    Game,
    GameResult,
    League,
    PairRecord,
    Player,
    PlayerRecord,
    SeasonRecord,
    db,
)
from scorekeeper.records import results, skill
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.records.totals import season_range
from scorekeeper.table import closing, starting
from scorekeeper.table import service as game_service

PLAYERS = ["Ana", "Ben", "Cleo", "Dan"]
#: Ana beats Ben 1,300 to 650 — and Ben wins instead once deal 3 goes the other way.
MIDDLE_GAME = [(0, (500, 100), (0, 0)), (1, (100, 500), (0, 0)), (0, (700, 50), (0, 0))]


def play(league_id, names, deals, rules=None, small=100):
    game = starting.start_game(
        league_id, names, rules or Rules(), Stakes.from_small(small), Seat.FIRST
    )
    for out, scores, stars in deals:
        game_service.record_deal(game.id, Tally(Seat(out), scores, stars))
    return game.id


def random_deals(rng: random.Random, rules: Rules) -> list:
    """Deals that finish a game under ``rules``, with stars, chapeaux and the odd skunk."""
    deals: list = []
    while True:
        out = rng.choice((0, 1))
        scores, stars = [0, 0], [0, 0]
        scores[out] = rng.randrange(3, 160) * 5
        scores[1 - out] = rng.randrange(-40, 90) * 5
        if rng.random() < 0.2:
            stars[out] = 1
        deals.append((out, tuple(scores), tuple(stars)))
        tallies = [Tally(Seat(o), s, st) for o, s, st in deals]
        if replay(rules, Seat.FIRST, tallies).finished:
            return deals


@pytest.fixture
def history(app):
    """A league of 37 games among four players, the 19th of them MIDDLE_GAME; some paid."""
    rng = random.Random(4)
    with app.app_context():
        league = league_by_slug("our-table").id
        today = date.today()
        seasons.add_season(league, "This year", today - timedelta(days=200), today + timedelta(1))
        seasons.add_season(league, "Long ago", date(2001, 1, 1), date(2001, 12, 31))
        ids = []
        for n in range(36):
            if n == 18:
                ids.append(play(league, ("Ana", "Ben"), MIDDLE_GAME))
                continue
            a, b = rng.sample(PLAYERS, 2)
            rules = PRESETS[Preset.MARKS] if n % 7 == 0 else Rules()
            ids.append(
                play(league, (a, b), random_deals(rng, rules), rules, small=25 * (n % 3 + 1))
            )
            if n % 5 == 0:
                closing.mark_paid(ids[-1])
        play(league, ("Cleo", "Dan"), [(0, (300, 200), (0, 0))])  # in progress
        db.session.remove()
    return {"league": league, "ids": ids, "middle": ids[18]}


# A recomputation from nothing but the deals and the engine ---------------------------------------


def recompute(league_id: int) -> dict:
    """Everything derived, worked out again from the deals alone, for comparison."""
    games = db.session.scalars(
        select(Game)
        .where(Game.league_id == league_id, Game.kind == MILLE)  # Elo and pairs are Mille's
        .options(selectinload(Game.deals))
    ).all()
    finished = []
    for game in games:
        card = replay(game.rules, Seat(game.first_dealer), [deal.tally for deal in game.deals])
        if card.finished and game.abandoned_at is None:  # an abandoned game counts for nothing
            finished.append((game, card, settle(card, game.stakes)))
    finished.sort(key=lambda item: (item[0].finished_at, item[0].id))
    results, running, skills = {}, {}, {}
    for game, card, settlement in finished:
        players = (game.player0_id, game.player1_id)
        winner, loser = int(card.winner), 1 - int(card.winner)
        before = {seat: running.get(players[seat], (0, START, 0)) for seat in (0, 1)}
        # OpenSkill's skill, each player's widened first for their days since their last game.
        widened = {}
        for seat in (0, 1):
            was, last_at = skills.get(players[seat], (skill.FIRST, None))
            widened[seat] = skill.away(was, skill.days_between(last_at, game.finished_at))
        rated = dict(
            zip((winner, loser), skill.after_game(widened[winner], widened[loser]), strict=True)
        )
        ratings = dict(
            zip(
                (winner, loser),
                new_ratings(
                    Rated(before[winner][1], before[winner][0]),
                    Rated(before[loser][1], before[loser][0]),
                ),
                strict=True,
            )
        )
        for seat in (0, 1):
            won = seat == winner
            net = settlement.total if won else -settlement.total
            games_before, rating_before, net_before = before[seat]
            results[game.id, players[seat]] = {
                "opponent_id": players[1 - seat],
                "seat": seat,
                "finished_at": game.finished_at,
                "won": won,
                "net": net,
                "total": card.totals[seat],
                "opponent_total": card.totals[1 - seat],
                "margin": card.totals[seat] - card.totals[1 - seat],
                "naturals": card.stars[seat],
                "chapeaux": card.chapeaux[seat],
                "skunk_given": won and settlement.skunk,
                "skunk_taken": not won and settlement.skunk,
                "deals": len(card.lines),
                "number": games_before + 1,
                "rating_before": rating_before,
                "rating_after": ratings[seat],
                "net_after": net_before + net,
                "skill_mu_after": rated[seat].mu,
                "skill_sigma_after": rated[seat].sigma,
            }
            running[players[seat]] = (games_before + 1, ratings[seat], net_before + net)
            skills[players[seat]] = (rated[seat], game.finished_at)
    unpaid = [(game, settlement) for game, _, settlement in finished if game.paid_at is None]
    return {"results": results, "unpaid": unpaid}


def add_up(results: dict, period=None) -> dict:
    records: dict = {}
    for (_, player), row in sorted(results.items(), key=lambda item: item[1]["number"]):
        if period and not period[0] <= row["finished_at"] < period[1]:
            continue
        record = records.setdefault(
            player,
            {
                "played": 0,
                "won": 0,
                "net": 0,
                "naturals": 0,
                "chapeaux": 0,
                "skunks_given": 0,
                "skunks_taken": 0,
                "margin_won": 0,
                "deals": 0,
                "points": 0,
                "rating_start": row["rating_before"],
            },
        )
        record["played"] += 1
        record["won"] += row["won"]
        record["net"] += row["net"]
        record["naturals"] += row["naturals"]
        record["chapeaux"] += row["chapeaux"]
        record["skunks_given"] += row["skunk_given"]
        record["skunks_taken"] += row["skunk_taken"]
        record["margin_won"] += row["margin"] if row["won"] else 0
        record["deals"] += row["deals"]
        record["points"] += row["total"]
        record["rating"] = row["rating_after"]
        record["skill_mu"] = row["skill_mu_after"]
        record["skill_sigma"] = row["skill_sigma_after"]
        record["career_games"] = row["number"]
        record["last_played_at"] = row["finished_at"]
    return records


def pairs_of(results: dict) -> dict:
    pairs: dict = {}
    for (_, player), row in results.items():
        pair = pairs.setdefault((player, row["opponent_id"]), {"played": 0, "won": 0, "net": 0})
        pair["played"] += 1
        pair["won"] += row["won"]
        pair["net"] += row["net"]
    return pairs


def owed(unpaid: list) -> dict:
    """{(debtor, creditor): (cents, games)} netted per pair, from the unpaid settlements."""
    between: dict = {}
    for game, settlement in unpaid:
        payee = game.player(int(settlement.payee)).name
        payer = game.player(int(settlement.payer)).name
        key = tuple(sorted((payee, payer)))
        cents, count = between.get(key, (0, 0))
        between[key] = (
            cents + (settlement.total if payee == key[0] else -settlement.total),
            count + 1,
        )
    found = {}
    for (first, second), (cents, count) in between.items():
        found[(second, first) if cents > 0 else (first, second)] = (abs(cents), count)
    return found


def columns(row, names) -> dict:
    return {name: getattr(row, name) for name in names}


RECORD = [
    "played",
    "won",
    "net",
    "naturals",
    "chapeaux",
    "skunks_given",
    "skunks_taken",
    "margin_won",
    "deals",
    "points",
    "rating_start",
    "rating",
    "skill_mu",
    "skill_sigma",
    "career_games",
    "last_played_at",
]


def stored(league_id: int) -> dict:
    """What the derived tables and the league pages' queries say now."""
    results = {
        (row.game_id, row.player_id): columns(
            row,
            [
                c.name
                for c in GameResult.__table__.columns
                if c.name not in ("game_id", "player_id", "league_id")
            ],
        )
        for row in db.session.scalars(select(GameResult).where(GameResult.league_id == league_id))
    }
    seasons_now = {
        season.id: {
            row.player_id: columns(row, RECORD)
            for row in db.session.scalars(
                select(SeasonRecord).where(SeasonRecord.season_id == season.id)
            )
        }
        for season in seasons.seasons_of(league_id)
    }
    return {
        "results": results,
        "records": {
            row.player_id: columns(row, RECORD)
            for row in db.session.scalars(
                select(PlayerRecord).where(PlayerRecord.league_id == league_id)
            )
        },
        "seasons": seasons_now,
        "pairs": {
            (row.player_id, row.opponent_id): columns(row, ["played", "won", "net"])
            for row in db.session.scalars(
                select(PairRecord).where(PairRecord.league_id == league_id)
            )
        },
        "owed": {
            (b.debtor.name, b.creditor.name): (b.amount, b.games)
            for b in balance_queries.balances(league_id)
        },
    }


#: The moment the standings' certainty is read for: fixed, so two reads compare equal.
SHOWN_AT = datetime(2030, 1, 1)


def shown(league_id: int) -> dict:
    """What the standings and the player pages show of each rating: the Elo headline, its
    ±, the conservative rating and why it is provisional — all time and per season."""

    def sureness(row) -> tuple:
        return (row.rating, row.spread, row.conservative, row.provisional)

    found = {
        None: {
            row.player_id: sureness(row)
            for row in standing_queries.standings(league_id, now=SHOWN_AT)
        }
    }
    for season in seasons.seasons_of(league_id):
        found[season.id] = {
            row.player_id: sureness(row)
            for row in standing_queries.standings(league_id, season, now=SHOWN_AT)
        }
    for player in db.session.scalars(select(Player).where(Player.league_id == league_id)):
        record = standing_queries.player_summary(player, now=SHOWN_AT).record
        if record is not None:
            assert sureness(record) == found[None][player.id]
    return found


def sureness_from(record: dict, as_of: datetime) -> tuple:
    """What a record, worked out from the deals alone, shows of its rating at ``as_of``."""
    widened = skill.away(
        skill.Skill(record["skill_mu"], record["skill_sigma"]),
        skill.days_between(record["last_played_at"], as_of),
    )
    return (
        record["rating"],
        skill.spread(widened.sigma),
        skill.conservative_points(widened),
        skill.provisional(record["career_games"], record["last_played_at"], as_of),
    )


def assert_no_drift(league_id: int) -> dict:
    now = stored(league_id)
    expected = recompute(league_id)
    assert now["results"] == expected["results"]
    assert now["records"] == add_up(expected["results"])
    for season in seasons.seasons_of(league_id):
        assert now["seasons"][season.id] == add_up(expected["results"], season_range(season))
    assert now["pairs"] == pairs_of(expected["results"])
    assert now["owed"] == owed(expected["unpaid"])
    standings = standing_queries.standings(league_id)
    assert {s.player_id: s.net for s in standings} == {
        p: r["net"] for p, r in add_up(expected["results"]).items()
    }
    # What the pages show of each rating follows the stored values exactly.
    now["shown"] = shown(league_id)
    assert now["shown"][None] == {
        p: sureness_from(r, SHOWN_AT) for p, r in add_up(expected["results"]).items()
    }
    for season in seasons.seasons_of(league_id):
        end = season_range(season)[1]
        assert now["shown"][season.id] == {
            p: sureness_from(r, min(SHOWN_AT, end))
            for p, r in add_up(expected["results"], season_range(season)).items()
        }
    return now


def test_editing_a_game_in_the_middle_updates_everything_after_it(app, history):
    with app.app_context():
        league = history["league"]
        before = assert_no_drift(league)
        game_service.edit_deal(history["middle"], 3, Tally(Seat.SECOND, (50, 700)))
        game = db.session.get(Game, history["middle"])
        assert game.winner_seat == 1  # Ben wins now
        after = assert_no_drift(league)
        later = [gid for gid in history["ids"][19:] if (gid, game.player0_id) in after["results"]]
        assert later, "Ana plays again after the edited game"
        # Ana's ratings after the edited game all moved: they are re-rated in game order.
        assert all(
            after["results"][gid, game.player0_id]["rating_after"]
            != before["results"][gid, game.player0_id]["rating_after"]
            for gid in later[:1]
        )
        assert after["records"] != before["records"]
        # The from-scratch rebuild agrees with what the edits kept up to date.
        results.rebuild_league(league)
        db.session.commit()
        assert stored(league) | {"shown": shown(league)} == after


def test_skills_widened_by_time_away_replay_exactly_after_an_edit(app, history):
    """The games spread over a year and a half, with long breaks: an edit in the middle
    re-rates the skills after it, each widened by its player's time away, exactly as a
    rebuild from nothing does."""
    with app.app_context():
        league = history["league"]
        start = datetime(2024, 1, 5, 20, 0)
        for n, game_id in enumerate(history["ids"]):
            # Mostly a week apart; a 4-month break after the 10th game and 6 months after the 25th.
            when = start + timedelta(days=7 * n + 120 * (n >= 10) + 180 * (n >= 25))
            db.session.execute(
                update(Game).where(Game.id == game_id).values(finished_at=when, played_at=when)
            )
        results.rebuild_league(league)
        db.session.commit()
        before = assert_no_drift(league)
        sigmas = {p: r["skill_sigma_after"] for (g, p), r in before["results"].items()}
        assert max(sigmas.values()) < skill.FIRST.sigma  # everyone has played
        game = db.session.get(Game, history["middle"])
        ana = game.player0_id
        game_service.edit_deal(history["middle"], 3, Tally(Seat.SECOND, (50, 700)))
        after = assert_no_drift(league)
        next_game = next(g for g in history["ids"][19:] if (g, ana) in after["results"])
        moved = after["results"][next_game, ana]["skill_mu_after"]
        assert moved != before["results"][next_game, ana]["skill_mu_after"]
        results.rebuild_league(league)
        db.session.commit()
        assert stored(league) | {"shown": shown(league)} == after


def test_reopening_and_finishing_a_middle_game_moves_it_to_the_end(app, history):
    with app.app_context():
        league = history["league"]
        game_service.edit_deal(history["middle"], 3, Tally(Seat.FIRST, (100, 50)))  # 700 to 650
        game = db.session.get(Game, history["middle"])
        assert not game.finished
        now = assert_no_drift(league)
        assert not any(gid == history["middle"] for gid, _ in now["results"])
        game_service.record_deal(history["middle"], Tally(Seat.SECOND, (60, 900)))
        now = assert_no_drift(league)
        ben = db.session.get(Game, history["middle"]).player1_id
        numbers = [row["number"] for (gid, p), row in now["results"].items() if p == ben]
        assert now["results"][history["middle"], ben]["number"] == max(numbers)
        game_service.delete_deal(history["middle"], 4)
        assert_no_drift(league)


def no_walk(monkeypatch):
    """Fail if a change walks the results from a game on: the newest game of both its
    players changes its records by the difference (``results.change_newest``)."""

    def walked(*_args):
        raise AssertionError("the change walked the results from a game on")

    monkeypatch.setattr(results, "rerate", walked)
    monkeypatch.setattr(results.totals, "refresh_records", walked)


def test_changes_to_the_newest_game_match_a_walk_without_one(app, history, monkeypatch):
    """Corrections, undos, abandoning and restoring of the game that is the newest of both
    its players — the winner changing, the game reopening and ending again — leave every
    derived row as the deals alone say, without walking the history."""
    rng = random.Random(26)
    with app.app_context():
        league = history["league"]
        newest = history["ids"][-1]
        closing.unlock(newest)  # it was marked paid
        no_walk(monkeypatch)
        for _ in range(12):
            game = db.session.get(Game, newest)
            last = game.deal_count
            change = rng.choice(("correct", "undo", "abandon"))
            if change == "correct":  # the last deal won by either player, by a wide margin
                out = rng.choice((0, 1))
                scores = (900, 40) if out == 0 else (40, 900)
                game_service.edit_deal(
                    newest, last, Tally(Seat(out), scores, (rng.choice((0, 1)), 0))
                )
            elif change == "undo":
                game_service.delete_deal(newest, last)
                assert_no_drift(league)
                out = rng.choice((0, 1))
                game_service.record_deal(
                    newest, Tally(Seat(out), (1200, 0) if out == 0 else (0, 1200))
                )
            else:
                closing.abandon(newest)
                assert_no_drift(league)
                closing.restore(newest)
            assert db.session.get(Game, newest).finished
            assert_no_drift(league)
        after = stored(league) | {"shown": shown(league)}
        monkeypatch.undo()
        results.rebuild_league(league)
        db.session.commit()
        assert stored(league) | {"shown": shown(league)} == after


def test_undoing_a_players_first_game_leaves_them_no_record(app, history, monkeypatch):
    """A newcomer's first game, reopened: their records, all time and in the season, and
    their head-to-head are gone, not left at zero games."""
    with app.app_context():
        league = history["league"]
        game_id = play(league, ("Ana", "Eve"), [(1, (100, 1300), (0, 1))])
        eve = db.session.get(Game, game_id).player1_id
        assert eve in assert_no_drift(league)["records"]
        no_walk(monkeypatch)
        game_service.delete_deal(game_id, 1)
        now = assert_no_drift(league)
        assert eve not in now["records"]
        assert all(eve not in records for records in now["seasons"].values())
        assert not any(eve in pair for pair in now["pairs"])


def test_paying_and_unlocking_change_balances_but_not_standings(app, history):
    with app.app_context():
        league = history["league"]
        before = assert_no_drift(league)
        unpaid = [gid for gid in history["ids"] if db.session.get(Game, gid).paid_at is None]
        league_service.mark_games_paid(league, dict.fromkeys(unpaid[:5]))
        after = assert_no_drift(league)
        assert after["records"] == before["records"]
        assert after["owed"] != before["owed"]
        closing.unlock(unpaid[0])
        assert_no_drift(league)


# Export and import ------------------------------------------------------------------------------


def game_facts(game: Game) -> dict:
    return {
        "players": (game.player0.name, game.player1.name),
        "rules": game.rules,
        "stakes": game.stakes,
        "first_dealer": game.first_dealer,
        "deals": [deal.tally for deal in game.deals],
        "status": game.status,
        "totals": (game.total0, game.total1),
        "winner": game.winner_seat,
        "amount_due": game.amount_due,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "paid_at": game.paid_at,
    }


def league_facts(slug: str) -> dict:
    league = db.session.scalars(select(League).where(League.slug == slug)).one()
    games = db.session.scalars(
        select(Game).where(Game.league_id == league.id).order_by(Game.id)
    ).all()
    return {
        "games": [game_facts(game) for game in games],
        "standings": [
            {**vars(row), "player_id": None} for row in standing_queries.standings(league.id)
        ],
        "owed": {
            (b.debtor.name, b.creditor.name): (b.amount, b.games)
            for b in balance_queries.balances(league.id)
        },
        "players": [player.name for player in league.players],
        "seasons": [(s.name, s.starts_on, s.ends_on) for s in seasons.seasons_of(league.id)],
    }


def upload(client, slug, content: str, name: str, kind: str):
    data = {"format": kind, "file": (io.BytesIO(content.encode()), name)}
    return client.post(f"/leagues/{slug}/import", data=data, content_type="multipart/form-data")


def test_json_export_imports_into_an_empty_league_losslessly(public, app, table, client, history):
    exported = client.get("/leagues/our-table/export.json")
    assert exported.headers["Content-Disposition"] == 'attachment; filename="our-table.json"'
    with app.app_context():
        league_service.create_league("Copy of our table")
    response = upload(
        table.client, "copy-of-our-table", exported.get_data(as_text=True), "our-table.json", "json"
    )
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Imported 37 games (" in page
    with app.app_context():
        original, copy = league_facts("our-table"), league_facts("copy-of-our-table")
        assert copy == original  # games, players, seasons, standings, balances
        copy_id = db.session.scalars(
            select(League.id).where(League.slug == "copy-of-our-table")
        ).one()
        assert_no_drift(copy_id)
    again = upload(
        table.client, "copy-of-our-table", exported.get_data(as_text=True), "our-table.json", "json"
    )
    assert again.status_code == 422
    assert "A league export is imported into a league without games" in again.get_data(as_text=True)


def test_a_deals_counted_cards_and_moment_come_back_from_a_json_export(public, app, table, client):
    """What a deal keeps beyond its tally goes in with the deals' bulk insert (issue 26),
    as the database would have kept it from the ORM: the cards' JSON, a moment's
    microseconds, and no cards as SQL NULL."""
    game_id = table.start_game()
    table.record(game_id, 0, (300, 200))
    table.record(game_id, 1, (100, 250))
    cards = {"out": 0, "players": [{"tens": 2}, {"kings": 1}], "note": "é"}
    recorded = datetime(2025, 3, 14, 20, 15, 0, 123456)
    with app.app_context():
        db.session.execute(
            update(Deal)
            .where(Deal.game_id == game_id, Deal.number == 1)
            .values(cards=cards, created_at=recorded)
        )
        db.session.commit()
        league_service.create_league("Copy")
    exported = client.get("/leagues/our-table/export.json").get_data(as_text=True)
    answer = upload(table.client, "copy", exported, "our-table.json", "json")  # read: it runs
    assert "Imported 1 games (2 deals)." in answer.get_data(as_text=True)
    with app.app_context():
        copy = league_by_slug("copy").id
        deals = db.session.scalars(
            select(Deal).join(Game).where(Game.league_id == copy).order_by(Deal.number)
        ).all()
        assert (deals[0].cards, deals[0].created_at) == (cards, recorded)
        assert deals[1].cards is None
        assert db.session.scalar(select(func.count()).where(Deal.cards.is_(None))) >= 1


def test_a_json_file_that_contradicts_its_deals_is_refused(
    public, app, table, client, wikipedia_card
):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game_id, out, scores, stars)
    data = client.get("/leagues/our-table/export.json").get_json()
    data["games"][0]["amount_due"] = "12.00"
    data["games"][0]["deals"][1]["scores"] = [291, 160]
    with app.app_context():
        league_service.create_league("Copy")
    response = upload(table.client, "copy", json.dumps(data), "x.json", "json")
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert f"game 1 (id {game_id}), deal 2: scores.0: Scores must be multiples of 5" in page


def test_a_json_file_reads_its_numbers_and_money_as_the_api_does(public, app, table, client):
    """Money a decimal string, whole numbers never true or "7": a file that says otherwise
    is refused, game by game, and nothing is imported."""
    table.record(table.start_game(), 0, (140, 350))
    data = client.get("/leagues/our-table/export.json").get_json()
    game = data["games"][0]
    changes = {
        "first-dealer": {"first_dealer": True},
        "target": {"rules": {**game["rules"], "target": "1200"}},
        "stakes": {"stakes": {**game["stakes"], "small": 1}},
    }
    for name, change in changes.items():
        with app.app_context():
            league_service.create_league(f"Copy {name}")
        copy = {**data, "games": [{**game, **change}]}
        slug = f"copy-{name}"
        response = upload(table.client, slug, json.dumps(copy), "x.json", "json")
        assert response.status_code == 422, change
        assert "can&#39;t be read" in response.get_data(as_text=True), change


CSV_WITH_MISTAKES = """game,date,player_a,player_b,preset,small,out,score_a,score_b,stars_a,stars_b
1,2025-02-01,Ana,Ben,standard,1,a,140,350,0,0
1,,,,,,a,291,160,0,0
1,,,,,,c,220,80,1,0
2,2025-02-02,Ana,Ben,standard,1,a,1200,100,0,0
2,,,,,,a,100,50,0,0
3,2025-02-03,Ana,Ana,,,a,100,50,0,0
4,2025-02-30,Cleo,Dan,standard,2,b,50,10,0,0
5,2025-02-05,Cleo,Dan,fancy,1,a,100,50,0,0
1,2025-02-01,Ana,Ben,standard,1,a,100,50,0,0
6,2025-02-06,Cleo,Dan,standard,3,a,100,50,0,20
"""


def test_a_csv_import_reports_every_problem_by_line_and_saves_nothing(app, table):
    response = upload(table.client, "our-table", CSV_WITH_MISTAKES, "cards.csv", "csv")
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#39;", "'")
    problems = re.findall(r"<li>(line \d+: [^<]*)</li>", page)
    lines = [int(re.match(r"line (\d+)", p)[1]) for p in problems]
    assert lines == sorted(lines)  # in file order
    expected = [
        "line 3: score_a: Scores must be multiples of 5",
        "line 4: out is 'c'; write a (player_a) or b (player_b).",
        "line 6: the game already ended with the deal on line 5 (deal 1); no deal can follow",
        "line 7: player_a and player_b are the same player.",
        "line 8: date is '2025-02-30'; write the day, like 2025-03-14.",
        "line 9: preset is 'fancy'; use standard, progressive or marks.",
        "line 10: game 1 started on line 2 and continues here after other games",
        "line 11: stars_b: A player who stayed in can have at most 13 stars in one deal.",
    ]
    for start in expected:
        assert any(p.startswith(start) for p in problems), start
    assert "Nothing was imported" in page
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Game.id))) == 0
        assert league_service.player_count(league_by_slug("our-table").id) == 0


def test_import_problems_are_in_file_order_whatever_numbers_their_messages_say(app):
    """The players come before the games in the file: their problem is first, though its
    message says 40 and the game's place says 1 (in each language)."""
    data = {"format": JSON_FORMAT, "players": ["A" * 41], "games": [{"id": 5}]}
    for language in ("en", "fr"):
        with (
            app.test_request_context(headers={"Accept-Language": language}),
            pytest.raises(ImportProblems) as refused,
        ):
            parse_json(data)
        assert [problem.split(":")[0].strip() for problem in refused.value.problems] == [
            "players",
            "game 1 (id 5)",
        ]


def test_a_csv_import_checks_its_header(table):
    response = upload(
        table.client, "our-table", "game,when,player_a\n1,2025-01-01,Ana\n", "cards.csv", "csv"
    )
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert "line 1: unknown column 'when'" in page
    assert "line 1: missing columns: date, player_b, out, score_a, score_b." in page


CSV_WITH_BAD_NAMES_AND_DATES = """game,date,player_a,player_b,out,score_a,score_b,paid
1,2025-02-01,B\x00en,Ana,a,1200,100,
2,2025-02-02,Ana,Cl\x1beo,a,1200,100,
3,2025-02-03,Ana\x7f,Ben,a,1200,100,
4,9999-12-31 23:59,Ana,Ben,a,1200,100,
5,0001-01-01,Ana,Ben,a,1200,100,
6,2025-02-06,Ana,Ben,a,1200,100,9999-12-31
7,2025-02-07,"Ana\tMaria",Ben,a,1200,100,
8,0001-01-01T00:00+01:00,Ana,Ben,a,1200,100,
"""


def test_a_csv_import_refuses_control_characters_in_names_and_unreasonable_days(app, table):
    response = upload(table.client, "our-table", CSV_WITH_BAD_NAMES_AND_DATES, "c.csv", "csv")
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert "\x00" not in page
    assert "\x1b" not in page
    problems = re.findall(r"<li>(line \d+: [^<]*)</li>", page)
    control = "A name can't contain control characters."
    assert problems == [
        f"line 2: player_a: {control}",
        f"line 3: player_b: {control}",
        f"line 4: player_a: {control}",
        "line 5: date is '9999-12-31 23:59'; give a day from 1900-01-01 up to today.",
        "line 6: date is '0001-01-01'; give a day from 1900-01-01 up to today.",
        "line 7: paid is '9999-12-31'; give a day from 1900-01-01 up to today.",
        # (line 8's tab is a space, as in any name typed)
        "line 9: date is '0001-01-01T00:00+01:00'; give a day from 1900-01-01 up to today.",
    ]
    assert "Nothing was imported" in page
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Game.id))) == 0
        assert league_service.player_count(league_by_slug("our-table").id) == 0


def test_a_csv_game_may_be_dated_today_or_tomorrow_for_time_zones(app):
    tomorrow = date.today() + timedelta(days=1)
    text = f"game,date,player_a,player_b,out,score_a,score_b\n1,{tomorrow},Ana,Ben,a,1200,100\n"
    with app.app_context():
        plan = parse_csv(text)
        assert import_all(league_id_of(app), plan) == "Imported 1 games (1 deals)."


def bad_json_export(client, table, app, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game_id, out, scores, stars)
    with app.app_context():
        seasons.add_season(league_id_of(app), "2025", date(2025, 1, 1), date(2025, 12, 31))
        league_service.create_league("Copy")
    return client.get("/leagues/our-table/export.json").get_json()


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (
            ("games", 0, "players", 0),
            "B\x00en",
            "game 1 (id 1): players: A name can't contain control characters.",
        ),
        (("players", None), "Cl\x07eo", "players: A name can't contain control characters."),
        (("players", None), "\ud800", "players: A name can't contain control characters."),
        (
            ("seasons", 0, "name"),
            "Fall\x00",
            "season 1: A name can't contain control characters.",
        ),
        (
            ("seasons", 0, "ends_on"),
            "9999-12-31",
            "season 1: Give a day from 1900-01-01 to 2999-12-31.",
        ),
        (
            ("seasons", 0, "starts_on"),
            "2026-01-01",
            "season 1: The season can't end before it starts.",
        ),
        (
            ("games", 0, "created_at"),
            "9999-12-31 23:59:00",
            "game 1 (id 1): created_at is '9999-12-31 23:59:00'; give a day from 1900-01-01 "
            "up to today.",
        ),
        (
            ("games", 0, "paid_at"),
            "0001-01-01T00:00:00+00:00",
            "game 1 (id 1): paid_at is '0001-01-01T00:00:00+00:00'; give a day from 1900-01-01 "
            "up to today.",
        ),
        (
            ("games", 0, "deals", 2, "created_at"),
            "9999-01-01",
            "game 1 (id 1), deal 3: created_at is '9999-01-01'; give a day from 1900-01-01 "
            "up to today.",
        ),
    ],
    ids=[
        "nul-in-a-game's-player",
        "bell-in-a-player",
        "lone-surrogate-in-a-player",
        "nul-in-a-season",
        "season-to-9999",
        "season-backwards",
        "game-in-9999",
        "paid-in-year-1",
        "deal-in-9999",
    ],
)
def test_a_json_import_refuses_control_characters_and_unreasonable_days(
    public, app, table, client, wikipedia_card, path, value, problem
):
    data = bad_json_export(client, table, app, wikipedia_card)
    *inside, last = path
    part = data
    for key in inside:
        part = part[key]
    if last is None:
        part.append(value)
    else:
        part[last] = value
    response = upload(table.client, "copy", json.dumps(data), "x.json", "json")
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert re.findall(r"<li>([^<]*)</li>", page) == [problem]
    with app.app_context():
        copy = league_by_slug("copy").id
        assert league_service.player_count(copy) == 0
        assert seasons.seasons_of(copy) == []


PAPER_CARDS = """game,date,player_a,player_b,out,score_a,score_b,stars_a,stars_b,paid
wiki,2024-05-01,Ana,Ben,b,140,350,0,0,yes
wiki,2024-05-01,Ana,Ben,a,290,160,0,0,yes
wiki,,,,a,220,80,1,0,
wiki,,,,a,150,-50,,,
wiki,,,,b,140,300,0,1,
wiki,,,,a,210,190,,,
wiki,,,,a,125,150,,,
close,2024-05-02,Ben,Ana,a,1235,1170,0,0,no
"""


def test_a_csv_of_paper_score_cards_imports_with_progress(public, app, table, client):
    response = upload(table.client, "our-table", PAPER_CARDS, "cards.csv", "csv")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<li>Saved 2 of 2 games…</li>" in page
    assert "<li>Imported 2 games (8 deals).</li>" in page
    owes = re.sub(
        r"\s+",
        " ",
        re.sub(r"<[^>]+>", " ", client.get("/leagues/our-table/owes").get_data(as_text=True)),
    )
    assert "Ana owes Ben $3.00 over 1 game" in owes  # the Wikipedia game was paid
    assert "Ben paid Ana $10.00" in owes
    with app.app_context():
        game = db.session.scalars(select(Game).order_by(Game.id)).first()
        assert (game.total0, game.total1, game.amount_due) == (1275, 1180, 1000)
        assert str(game.finished_at) == "2024-05-01 00:00:00"


def test_the_import_progress_reaches_a_browser_as_it_is_made(app, table):
    """Compressed for a browser (gzip, each part flushed), every part of the progress page
    can be read as it arrives: a brotli stream would hold it all to the end."""
    data = {"format": "csv", "file": (io.BytesIO(PAPER_CARDS.encode()), "cards.csv")}
    response = table.client.post(
        "/leagues/our-table/import",
        data=data,
        content_type="multipart/form-data",
        headers={"Accept-Encoding": "gzip, deflate, br, zstd"},  # Chromium's
        buffered=False,
    )
    assert response.headers["Content-Encoding"] == "gzip"
    decoder = zlib.decompressobj(zlib.MAX_WBITS | 16)
    parts = [decoder.decompress(chunk).decode() for chunk in response.response]
    response.close()
    assert len(parts) >= 3
    assert all(parts[:-1]), "a part arrived that could not be read yet"
    assert "Saved 2 of 2 games…" in "".join(parts[:-2])  # before the page's end
    assert "<li>Imported 2 games (8 deals).</li>" in "".join(parts)


@pytest.mark.slow
def test_a_large_csv_import_reports_progress_as_it_saves(app, table):
    rows = ["game,date,player_a,player_b,out,score_a,score_b"] + [
        f"{n},2024-01-{n % 28 + 1:02d},Ana,Ben,{'ab'[n % 2]},1200,100" for n in range(600)
    ]
    response = upload(table.client, "our-table", "\n".join(rows), "big.csv", "csv")
    page = response.get_data(as_text=True)
    assert re.findall(r"<li>(Saved [\d,]+ of 600 games…)</li>", page) == [
        "Saved 250 of 600 games…",
        "Saved 500 of 600 games…",
        "Saved 600 of 600 games…",
    ]
    assert "<li>Imported 600 games (600 deals).</li>" in page
    with app.app_context():
        assert_no_drift(league_by_slug("our-table").id)


def test_the_csv_export_imports_back_into_another_league(public, app, table, client, history):
    exported = client.get("/leagues/our-table/export.csv")
    assert exported.mimetype == "text/csv"
    text = exported.get_data(as_text=True)
    assert text.startswith("game,date,player_a,player_b,preset,target,")
    with app.app_context():
        league_service.create_league("From CSV")
    response = upload(table.client, "from-csv", text, "deals.csv", "csv")
    assert "Imported 37 games" in response.get_data(as_text=True)
    with app.app_context():
        original, copy = league_facts("our-table"), league_facts("from-csv")

        # CSV keeps whole seconds and one date per game: compare what it carries.
        def carried(game):
            return {
                k: v for k, v in game.items() if k not in ("created_at", "finished_at", "paid_at")
            }

        assert [carried(g) for g in copy["games"]] == [carried(g) for g in original["games"]]
        assert [bool(g["paid_at"]) for g in copy["games"]] == [
            bool(g["paid_at"]) for g in original["games"]
        ]
        assert copy["owed"] == original["owed"]
        assert [(r["name"], r["played"], r["won"], r["net"]) for r in copy["standings"]] == [
            (r["name"], r["played"], r["won"], r["net"]) for r in original["standings"]
        ]


@pytest.mark.slow
def test_upgrading_an_install_with_played_games_derives_their_history(app, history):
    """Migration 0003 fills the derived tables from the games an older install played."""
    import flask_migrate

    from scorekeeper.database import MIGRATIONS_DIR

    with app.app_context():
        league = history["league"]
        before = assert_no_drift(league)
        db.session.remove()
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0002_accounts")
        try:
            assert not db.inspect(db.engine).has_table("game_result")
        finally:
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        after = stored(league)
        for part in ("results", "records", "pairs", "owed"):
            assert after[part] == before[part], part


def test_the_readme_example_of_a_paper_score_card_imports(app):
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme[readme.index("## Importing paper score cards") :]
    example = re.search(r"\n\n((?:    .*\n)+)", section)[1]
    text = "\n".join(line[4:] for line in example.splitlines())
    with app.app_context():
        plan = parse_csv(text)
        assert import_all(league_id_of(app), plan) == "Imported 2 games (8 deals)."
        games = db.session.scalars(select(Game).order_by(Game.id)).all()
        assert [(g.amount_due, g.paid_at is not None) for g in games] == [
            (1000, True),
            (100, False),
        ]


def league_id_of(app):
    return league_by_slug("our-table").id


# Exports and imports stream (issue 26): the same files and league, whatever the batches --


@pytest.fixture
def small_pieces(monkeypatch):
    monkeypatch.setattr(export_csv, "BATCH", 3)
    monkeypatch.setattr(export_json, "BATCH", 3)
    monkeypatch.setattr(json_stream, "CHUNK", 64)
    monkeypatch.setattr(json_stream, "MARGIN", 16)


def exported(client, kind):
    response = client.get(f"/leagues/our-table/export.{kind}")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    return text if kind == "csv" else text.split('"exported_at"')[0] + text.split('"league"')[1]


@pytest.mark.parametrize("kind", ["csv", "json"])
def test_an_export_read_in_small_batches_is_the_same_file_and_imports_back(
    public, app, table, client, history, monkeypatch, kind
):
    whole = exported(client, kind)
    monkeypatch.setattr(export_csv, "BATCH", 3)
    monkeypatch.setattr(export_json, "BATCH", 3)
    assert exported(client, kind) == whole
    monkeypatch.setattr(json_stream, "CHUNK", 64)
    monkeypatch.setattr(json_stream, "MARGIN", 16)
    with app.app_context():
        league_service.create_league("Copy")
    text = client.get(f"/leagues/our-table/export.{kind}").get_data(as_text=True)
    response = upload(table.client, "copy", text, f"league.{kind}", kind)
    assert response.status_code == 200
    assert "Imported 37 games (" in response.get_data(as_text=True)
    with app.app_context():
        original, copy = league_facts("our-table"), league_facts("copy")
    if kind == "json":
        assert copy == original
    else:  # CSV keeps whole seconds and one date per game
        assert copy["owed"] == original["owed"]
        assert copy["standings"] == original["standings"]


def test_a_json_import_with_its_games_before_its_format_is_read(
    public, app, table, client, history, small_pieces
):
    data = client.get("/leagues/our-table/export.json").get_json()
    games_first = json.dumps({"games": data.pop("games"), **data})
    with app.app_context():
        league_service.create_league("Copy")
    response = upload(table.client, "copy", games_first, "league.json", "json")
    assert "Imported 37 games (" in response.get_data(as_text=True)
    broken = games_first[: len(games_first) // 2]
    with app.app_context():
        league_service.create_league("Broken")
    response = upload(table.client, "broken", broken, "league.json", "json")
    assert response.status_code == 422
    assert "The file is not JSON:" in response.get_data(as_text=True)
