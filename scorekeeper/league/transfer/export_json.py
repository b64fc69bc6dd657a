"""The league as JSON: every game, lossless, so an import makes it again."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import joinedload

from scorekeeper.engine import format_money
from scorekeeper.league.transfer.formats import JSON_FORMAT
from scorekeeper.models import Deal, Game, League, Season, User, db


def _league_games(league_id: int) -> Any:
    return (
        select(Game)
        .options(joinedload(Game.player0), joinedload(Game.player1))
        .where(Game.league_id == league_id)
        .order_by(Game.id)
    )


def export_json(league: League) -> dict[str, Any]:
    """Everything needed to make the league's games again, and what they came to."""
    games = list(db.session.scalars(_league_games(league.id)))
    deals: dict[int, list[Deal]] = {}
    for deal in db.session.scalars(
        select(Deal)
        .join(Game)
        .where(Game.league_id == league.id)
        .order_by(Deal.game_id, Deal.number)
    ):
        deals.setdefault(deal.game_id, []).append(deal)
    payers = dict(
        db.session.execute(
            select(Game.id, User.username)
            .join(User, User.id == Game.paid_by_id)
            .where(Game.league_id == league.id)
        ).all()
    )
    seasons = db.session.scalars(
        select(Season).where(Season.league_id == league.id).order_by(Season.starts_on, Season.id)
    )
    return {
        "format": JSON_FORMAT,
        "exported_at": _iso(datetime.now(UTC).replace(tzinfo=None)),
        "league": {"name": league.name, "slug": league.slug, "public": league.public},
        "players": [player.name for player in league.players],
        "seasons": [
            {"name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat()}
            for s in seasons
        ],
        "games": [_game_json(game, deals.get(game.id, []), payers.get(game.id)) for game in games],
    }


def _game_json(game: Game, deals: list[Deal], paid_by: str | None) -> dict[str, Any]:
    return {
        "id": game.id,
        "players": [game.player0.name, game.player1.name],
        "preset": game.preset,
        "rules": {
            "target": game.target,
            "progressive": game.progressive,
            "natural_needed": game.natural_needed,
            "skunk": game.skunk,
            "difference": game.difference,
        },
        "stakes": {"small": format_money(game.small_stake), "big": format_money(game.big_stake)},
        "first_dealer": game.first_dealer,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "paid_at": _iso(game.paid_at),
        "paid_by": paid_by,
        "deals": [_deal_json(deal) for deal in deals],
        # What the deals come to, for a reader; an import checks them again.
        "status": game.status,
        "totals": [game.total0, game.total1],
        "winner": game.winner_seat,
        "amount_due": None if game.amount_due is None else format_money(game.amount_due),
    }


def _deal_json(deal: Deal) -> dict[str, Any]:
    data: dict[str, Any] = {
        "out": deal.out_seat,
        "scores": [deal.score0, deal.score1],
        "stars": [deal.stars0, deal.stars1],
        "created_at": _iso(deal.created_at),
    }
    if deal.cards is not None:
        data["cards"] = deal.cards
    return data


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(sep=" ")
