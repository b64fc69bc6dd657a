"""What the API answers: games, deals, settlements, leagues and standings as JSON.

Seats are 0 and 1 and every per-player list is in seat order; money is a
decimal string with two places; times are UTC, ISO 8601 with a ``Z``. A game
is replayed by the engine (:func:`~scorekeeper.table.service.scorecard`), exactly as
its page is; a game summary reads only the game's stored columns.
"""

from datetime import datetime
from typing import Any

from scorekeeper import audit
from scorekeeper.engine import Rules, Seat, Settlement, Stakes, format_money
from scorekeeper.league.queries import Standing
from scorekeeper.models import AuditEvent, Deal, Game, League, Player
from scorekeeper.table import service as game_service


def when(moment: datetime | None) -> str | None:
    """A stored UTC time as ``2025-03-14T21:30:00Z``."""
    return None if moment is None else moment.replace(microsecond=0).isoformat() + "Z"


def money(cents: int | None) -> str | None:
    return None if cents is None else format_money(cents)


def rules_json(rules: Rules) -> dict[str, Any]:
    return {
        "target": rules.target,
        "progressive": rules.progressive,
        "natural_needed": rules.natural_needed,
        "skunk": rules.skunk.value,
        "difference": rules.difference.value,
    }


def stakes_json(stakes: Stakes) -> dict[str, str]:
    return {"small": format_money(stakes.small), "big": format_money(stakes.big)}


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """The settlement: line amounts before the skunk multiplier, ``total`` after it."""
    return {
        "payer": int(settlement.payer),
        "payee": int(settlement.payee),
        "multiplier": settlement.multiplier,
        "total": format_money(settlement.total),
        "rounded": list(settlement.rounded),
        "lines": [
            {"kind": line.kind.value, "count": line.count, "amount": format_money(line.amount)}
            for line in settlement.lines
        ],
    }


def game_json(game: Game) -> dict[str, Any]:
    """A game as every game endpoint returns it (API.md), and a few fields more."""
    card = game_service.scorecard(game)
    settlement = game_service.settlement(game, card)
    deals: list[Deal] = game.deals
    return {
        "id": game.id,
        "league": game.league.slug,
        "players": [player.name for player in game.players],
        "preset": game.preset,
        "rules": rules_json(game.rules),
        "stakes": stakes_json(game.stakes),
        "status": game.status,
        "version": game.version,
        "first_dealer": game.first_dealer,
        "next_dealer": int(card.next_dealer),
        "deals": [
            {
                "number": line.number,
                "dealer": int(line.dealer),
                "out": int(line.tally.out),
                "scores": list(line.tally.scores),
                "naturals": list(line.tally.stars),
                "chapeau": [line.chapeau(seat) for seat in Seat],
                "totals": list(line.totals),
                "cards": deal.cards if deal.counted is not None else None,
            }
            for line, deal in zip(card.lines, deals, strict=True)
        ],
        "totals": list(card.totals),
        "naturals": list(card.stars),
        "chapeaux": list(card.chapeaux),
        "winner": None if card.winner is None else int(card.winner),
        "settlement": None if settlement is None else settlement_json(settlement),
        "locked": game.locked,
        "paid_at": when(game.paid_at),
        "created_at": when(game.created_at),
        "finished_at": when(game.finished_at),
    }


def game_summary(game: Game, league: League) -> dict[str, Any]:
    """A game in a list: its stored totals and result, without its deals."""
    winner = game.winner_seat
    return {
        "id": game.id,
        "league": league.slug,
        "players": [game.player0.name, game.player1.name],
        "preset": game.preset,
        "status": game.status,
        "version": game.version,
        "deal_count": game.deal_count,
        "totals": [game.total0, game.total1],
        "naturals": [game.stars0, game.stars1],
        "chapeaux": [game.chapeaux0, game.chapeaux1],
        "winner": winner,
        "amount": money(game.amount_due),
        "locked": game.locked,
        "created_at": when(game.created_at),
        "finished_at": when(game.finished_at),
    }


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


def league_json(league: League, players: list[Player]) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "public": league.public,
        "players": [player_json(player) for player in players],
    }


def standing_json(standing: Standing) -> dict[str, Any]:
    return {
        "player": standing.name,
        "played": standing.played,
        "won": standing.won,
        "lost": standing.lost,
        "net": format_money(standing.net),
        "naturals": standing.naturals,
        "chapeaux": standing.chapeaux,
        "skunks_given": standing.skunks_given,
        "skunks_taken": standing.skunks_taken,
        "rating": standing.rating,
    }


def event_json(event: AuditEvent) -> dict[str, Any]:
    return {
        "action": event.action,
        "summary": audit.summary(event),
        "user": event.user.username if event.user else None,
        "at": when(event.created_at),
        "before": event.before,
        "after": event.after,
    }
