"""The benchmarks' league generator (bench/generate.py) stores what the app itself would
have stored, deal by deal — or its timings would measure a league the app can't make."""

import importlib.util
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorekeeper.engine import validate_tally
from scorekeeper.models import AuditEvent, Game, GameResult, PairRecord, PlayerRecord, db
from scorekeeper.records import results
from scorekeeper.records.sittings import sitting_of
from scorekeeper.table import kind_service
from scorekeeper.table import service as game_service

BENCH = Path(__file__).resolve().parents[2] / "bench"
DERIVED = [
    "deal_count",
    "total0",
    "total1",
    "stars0",
    "stars1",
    "chapeaux0",
    "chapeaux1",
    "winner_seat",
    "status",
    "amount_due",
]


@pytest.fixture(scope="module")
def generator():
    """``bench.generate``, loaded from the source tree (the tests run against the installed
    package, which doesn't ship the benchmarks)."""
    if not (BENCH / "generate.py").exists():
        pytest.skip("the benchmarks are not in this tree")
    spec = importlib.util.spec_from_file_location(
        "bench", BENCH / "__init__.py", submodule_search_locations=[str(BENCH)]
    )
    assert spec is not None
    assert spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["bench"] = package
    spec.loader.exec_module(package)
    from bench import generate

    return generate


def rows(model, league_id):
    columns = list(model.__table__.columns)
    return sorted(db.session.execute(select(*columns).where(model.league_id == league_id)).all())


def test_a_generated_league_is_what_the_app_would_have_stored(app, generator):
    with app.app_context():
        made = generator.generate(players=5, games=60, seed=3, in_progress=4, unpaid_recent=6)
        games = db.session.scalars(select(Game).where(Game.league_id == made.league_id)).all()
        assert len(games) == made.games == 60
        for game in games:
            for deal in game.deals:
                scores, stars = (deal.score0, deal.score1), (deal.stars0, deal.stars1)
                assert validate_tally(deal.out_seat, scores, stars) == deal.tally
            card = game_service.scorecard(game)  # the engine, replaying the stored deals
            expected = game_service.derived_columns(
                card, game_service.settlement_of(card, game.stakes)
            )
            assert {name: getattr(game, name) for name in DERIVED} == expected
            assert (game.finished_at is not None) == game.finished
            assert game.paid_at is None or game.finished
            events = db.session.scalar(select(func.count()).where(AuditEvent.game_id == game.id))
            assert events == game.deal_count + game.finished + (game.paid_at is not None)
        statuses = {game.status for game in games}
        assert statuses == {"finished", "in_progress"}
        assert sum(game.finished and game.paid_at is None for game in games) == made.unpaid > 0
        assert made.chapeaux > 0
        assert made.stars > 0
        assert {"standard", "progressive", "marks", "natural needed"} <= set(made.rules)
        # The derived tables are those a rebuild from the games makes.
        derived = [rows(model, made.league_id) for model in (GameResult, PlayerRecord, PairRecord)]
        results.rebuild_league(made.league_id)
        db.session.commit()
        assert [
            rows(model, made.league_id) for model in (GameResult, PlayerRecord, PairRecord)
        ] == (derived)


def test_the_same_seed_makes_the_same_league(app, generator):
    def deals(league_id):
        games = db.session.scalars(
            select(Game).where(Game.league_id == league_id).order_by(Game.id)
        ).all()
        return [[deal.tally for deal in game.deals] for game in games]

    with app.app_context():
        first = generator.generate(players=4, games=12, seed=9, league_name="First")
        second = generator.generate(players=4, games=12, seed=9, league_name="Second")
        third = generator.generate(players=4, games=12, seed=10, league_name="Third")
        assert deals(first.league_id) == deals(second.league_id)
        assert deals(first.league_id) != deals(third.league_id)


def test_a_mixed_league_keeps_each_game_s_balances_as_its_replay_says(app, generator):
    """Every game of a league across every game (``bench.mixed``) keeps what the app would
    have kept: its deal count, status, balances and pool, as its kind replays its deals."""
    from bench.mixed import generate_mixed  # loaded by ``generator`` from the source tree

    with app.app_context():
        made = generate_mixed(players=12, games=40, seed=5)
        games = db.session.scalars(select(Game).where(Game.league_id == made.league_id)).all()
        others = [game for game in games if not game.is_mille]
        assert len(games) == 40
        assert {game.kind for game in others} >= {"continental-rummy", "spoil-five"}
        for game in games:
            if game.is_mille:
                assert (game.balances, game.pool) == (None, 0)
                continue
            kept = kind_service.derived_columns(sitting_of(game))
            assert {name: getattr(game, name) for name in kept} == kept, game.kind
