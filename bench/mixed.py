"""``python -m bench.generate --mixed``: a league that plays every game the table keeps.

Games are spread across the eight games of the engine (Mille and the seven of
``scorekeeper/engine/games/``): a game of Mille is played out as :mod:`.generate` plays
one; any other game seats 2 to 12 players within its kind's limits, each deal a random
body read by the kind (``read_deal``: a body it refuses is drawn again), the game
replayed by the kind (``replay``) until a game that ends itself has ended, or a sitting
has had its deals and is ended by its scorekeeper. The rows are what the app keeps: the
setup as the kind read it, each deal's entry and winner, the ledger
(:func:`scorekeeper.table.kind_service.movement_rows`), the derived columns, the audit
events, finished games paid within days but the recent ones; the league's records of
every game are built once at the end (:func:`scorekeeper.records.results.rebuild_league`).

Rows go in with bulk ``INSERT``s, as :mod:`.generate`'s do; the same seed makes the same
league.
"""

import random
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text

from scorekeeper.database import insert_many, writing
from scorekeeper.engine import DealAfterEnd, Seat
from scorekeeper.engine.games import KINDS, Entry, GameKind, Refused, Setup, Sitting
from scorekeeper.league import service as league_service
from scorekeeper.models import (
    FINISHED,
    MILLE,
    AuditAction,
    AuditEvent,
    Deal,
    Game,
    GameSeat,
    Movement,
    Player,
    SubmissionToken,
    db,
)
from scorekeeper.records import results
from scorekeeper.records.sittings import stored_setup
from scorekeeper.table import kind_service

from . import generate as mille

#: Each game's share of the league's games (in tenths): Mille the most played.
SHARES: Mapping[str, int] = {name: (3 if name == MILLE else 1) for name in KINDS}
#: Deals a sitting lasts (a game that ends itself lasts until it has ended).
SITTING_DEALS = (6, 18, 60)
#: The stakes each game is played for, in cents.
STAKES: Mapping[str, dict[str, int | None]] = {
    "rummy": {"point": 5},
    "boathouse-rummy": {"point": 5},
    "continental-rummy": {"unit": 25},
    "gamblers-rummy": {"point": 10},
    "knock-rummy": {"point": 10},
    "scotch-whist": {"game": 100},
    "spoil-five": {"ante": 25, "dealer": None, "maximum": None},
}
#: Draws of a deal's body before a refused one is a bug of this generator.
DRAWS = 50


@dataclass
class Sat:
    """A game of another kind than Mille, played out by its kind, before it has an id."""

    kind: str
    seats: tuple[int, ...]  # player indexes, in seat order
    setup: Setup
    first_dealer: int
    entries: list[Entry]
    sitting: Sitting
    created_at: datetime
    deal_times: list[datetime]
    finished_at: datetime | None = None
    paid_at: datetime | None = None


Planned = mille.Planned | Sat


@dataclass(frozen=True)
class MixedGenerated(mille.Generated):
    """What the mixed generator made: ``rules`` holds each game's count of games."""

    seats: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        kinds = ", ".join(
            f"{self.rules[name]:,} {name} ({self.seats[name]:.1f} seats)"
            for name in KINDS
            if name in self.rules
        )
        total = self.seconds_plan + self.seconds_insert + self.seconds_rebuild
        return (
            f"League /leagues/{self.slug}: {self.games:,} games ({self.finished:,} finished, "
            f"{self.in_progress:,} in progress, {self.unpaid:,} finished and unpaid), "
            f"{self.deals:,} deals ({self.deals / max(1, self.games):.1f} a game); "
            f"games: {kinds}.\n"
            f"Took {total:.1f} s: playing {self.seconds_plan:.1f} s, inserting "
            f"{self.seconds_insert:.1f} s, rebuilding the derived tables "
            f"{self.seconds_rebuild:.1f} s."
        )


def _players_for(rng: random.Random, kind: GameKind) -> int:
    """How many sit at a game of ``kind``: usually four to six, now and then its most."""
    low, high = kind.min_players, min(kind.max_players, 12)
    if rng.random() < 0.1:
        return high
    return max(low, min(high, round(rng.triangular(low, min(high, 7), 4))))


def _rules(rng: random.Random, kind: GameKind, players: int) -> dict[str, object]:
    if "partnerships" not in str(kind.rules_schema):
        return {}
    return {"partnerships": players in (4, 6, 8) and rng.random() < 0.6}


def _draw(rng: random.Random, kind: str, players: int, setup: Setup) -> dict[str, Any]:
    """A deal's body as a scorekeeper would send it (possibly refused: drawn again)."""
    seat = rng.randrange(players)

    def counts(out: int | None) -> list[int]:
        return [0 if s == out else round(rng.triangular(0, 60, 12)) for s in range(players)]

    if kind in ("rummy", "boathouse-rummy"):
        body: dict[str, Any] = {"out": seat, "counts": counts(seat)}
        if kind == "rummy" and rng.random() < 0.05:
            body["rummy"] = True
        return body
    if kind == "gamblers-rummy":
        out = None if rng.random() < 0.03 else seat
        return {"out": out, "counts": counts(out)}
    if kind == "continental-rummy":
        return {"out": seat, "jokers": rng.choice((0, 0, 0, 1, 1, 2))}
    if kind == "knock-rummy":
        return {"knocker": seat, "counts": counts(None)}
    if kind == "spoil-five":
        if rng.random() < 0.2:
            return {"winner": None}
        return {"winner": seat, "jink": rng.choice(("none",) * 18 + ("won", "failed"))}
    return _whist(rng, players, setup)


def _whist(rng: random.Random, players: int, setup: Setup) -> dict[str, Any]:
    """Scotch Whist: every trick to a side, each honour to a side that took a trick."""
    sides = players // 2 if setup.rules.get("partnerships") else players
    tricks = {2: 18, 3: 12, 4: 9, 5: 7, 6: 6, 7: 5, 8: 4}[players]
    taken = [0] * sides
    for _ in range(tricks):
        taken[rng.randrange(sides)] += 1
    winners = [side for side in range(sides) if taken[side]]
    honours = {name: rng.choice(winners) for name in ("jack", "ace", "king", "queen", "ten")}
    return {"honours": honours, "cards": [count * players for count in taken]}


def _deal(rng: random.Random, kind: GameKind, setup: Setup) -> Entry:
    for _ in range(DRAWS):
        try:
            return kind.read_deal(setup, _draw(rng, kind.name, setup.players, setup))
        except Refused:
            continue
    raise RuntimeError(f"no deal of {kind.name} drawn")  # pragma: no cover


def sit(
    rng: random.Random, kind: GameKind, seats: tuple[int, ...]
) -> tuple[Setup, int, list[Entry], Sitting]:
    """A game of ``kind`` played out: its setup, first dealer, deals and the replay."""
    setup = kind.setup(len(seats), _rules(rng, kind, len(seats)), STAKES[kind.name])
    dealer = rng.randrange(len(seats))
    if not kind.ends_itself:
        length = round(rng.triangular(*SITTING_DEALS[::2], SITTING_DEALS[1]))
        entries = [_deal(rng, kind, setup) for _ in range(max(1, length))]
        return setup, dealer, entries, kind.replay(setup, dealer, entries, ended=True)
    entries = []
    while len(entries) < mille.MAX_DEALS:
        entries.append(_deal(rng, kind, setup))
        try:
            sitting = kind.replay(setup, dealer, entries, ended=False)
        except DealAfterEnd:  # pragma: no cover (checked after every deal)
            entries.pop()
            break
        if sitting.finished:
            return setup, dealer, entries, sitting
    raise RuntimeError(f"a generated game of {kind.name} did not end")  # pragma: no cover


def plan_mixed(
    rng: random.Random,
    players: int,
    games: int,
    in_progress: int,
    unpaid_recent: int,
    forgotten: int,
) -> list[Planned]:
    """``games`` games of every kind among ``players`` players, oldest first, as
    :func:`.generate.plan_league` plans Mille's: some players far more active, the
    ``in_progress`` ones unfinished, the finished ones paid but the newest and a few."""
    activity = [1 / (rank + 1) ** 0.6 for rank in range(players)]
    skill = [rng.gauss(0, 90) for _ in range(players)]
    span = timedelta(days=min(3 * 365, max(60, games / 15)))
    step = span / games
    start = mille.UNTIL - span
    open_games = set(range(games - (in_progress + 1) // 2, games))
    while len(open_games) < min(in_progress, games):
        open_games.add(rng.randrange(games))
    names = list(SHARES)
    weights = [SHARES[name] for name in names]
    planned: list[Planned] = []
    for index in range(games):
        created = start + step * index + step * rng.random() / 2
        kind = KINDS[rng.choices(names, weights=weights)[0]]
        game: Planned
        if kind.name == MILLE:
            game = _mille_game(rng, activity, skill, created, cut=index in open_games)
        else:
            game = _sitting(rng, kind, activity, players, created, cut=index in open_games)
        planned.append(game)
    mille._pay(rng, planned, unpaid_recent, forgotten)  # type: ignore[arg-type]
    return planned


def _mille_game(
    rng: random.Random, activity: list[float], skill: list[float], created: datetime, *, cut: bool
) -> mille.Planned:
    first, second = mille._pair(rng, activity)
    rules = mille._weighted(rng, mille.RULE_MIX)
    out_odds = 1 / (1 + 10 ** ((skill[second] - skill[first]) / 400))
    dealer = Seat(rng.randrange(2))
    tallies, card = mille.play(rng, rules, dealer, out_odds)
    if cut:
        tallies = tallies[: rng.randrange(len(tallies))]
        card = mille.replay(rules, dealer, tallies)
    times = _times(rng, created, len(tallies))
    game = mille.Planned(
        (first, second), rules, mille._weighted(rng, mille.STAKE_MIX), dealer, tallies, card,
        created, times,
    )  # fmt: skip
    if card.finished:
        game.finished_at = times[-1]
    return game


def _sitting(
    rng: random.Random,
    kind: GameKind,
    activity: list[float],
    players: int,
    created: datetime,
    *,
    cut: bool,
) -> Sat:
    count = min(_players_for(rng, kind), players)
    seats: list[int] = []
    while len(seats) < count:
        chosen = rng.choices(range(players), weights=activity)[0]
        if chosen not in seats:
            seats.append(chosen)
    setup, dealer, entries, sitting = sit(rng, kind, tuple(seats))
    if cut:
        entries = entries[: rng.randrange(len(entries))]
        sitting = kind.replay(setup, dealer, entries, ended=False)
    times = _times(rng, created, len(entries))
    game = Sat(kind.name, tuple(seats), setup, dealer, entries, sitting, created, times)
    if sitting.finished:
        game.finished_at = times[-1] if times else created
    return game


def _times(rng: random.Random, created: datetime, deals: int) -> list[datetime]:
    return [created + timedelta(minutes=4 * n + rng.random() * 2) for n in range(1, 1 + deals)]


# Storing them ----------------------------------------------------------------------------

#: A game row's Mille columns, for a game of another kind (every row of a bulk insert
#: names the same columns).
NOT_MILLE = {
    "preset": None,
    "target": None,
    "progressive": None,
    "natural_needed": None,
    "skunk": None,
    "difference": None,
    "small_stake": None,
    "big_stake": None,
    "total0": 0,
    "total1": 0,
    "stars0": 0,
    "stars1": 0,
    "chapeaux0": 0,
    "chapeaux1": 0,
    "winner_seat": None,
    "amount_due": None,
}


def _game_row(game: Planned, league_id: int, player_ids: list[int], user_id: int) -> dict[str, Any]:
    if isinstance(game, mille.Planned):
        # Every row names the other games' columns too: one INSERT of a batch takes its
        # columns from its first row and leaves out, unsaid, what later rows add.
        return {
            "kind": MILLE,
            "setup": None,
            "balances": None,
            "pool": 0,
            **mille._game_row(game, league_id, player_ids, user_id),
        }
    return {
        "kind": game.kind,
        "setup": stored_setup(game.setup),
        "league_id": league_id,
        "player0_id": player_ids[game.seats[0]],
        "player1_id": player_ids[game.seats[1]],
        "first_dealer": game.first_dealer,
        "created_at": game.created_at,
        **NOT_MILLE,
        "version": 1 + len(game.entries) + game.sitting.finished + (game.paid_at is not None),
        **kind_service.derived_columns(game.sitting),
        "finished_at": game.finished_at,
        "paid_at": game.paid_at,
        "paid_by_id": user_id if game.paid_at else None,
    }


def _seats(game: Planned, game_id: int, player_ids: list[int]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "seat": seat, "player_id": player_ids[index]}
        for seat, index in enumerate(game.seats)
    ]


def _children(
    rng: random.Random, game: Sat, game_id: int, league_id: int, user_id: int, names: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """A sitting's deals, ledger and audit events, as the app would have made them."""
    deals: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    event: dict[str, Any] = {
        "league_id": league_id,
        "game_id": game_id,
        "user_id": user_id,
        "before": None,
    }
    lines = game.sitting.lines
    for line, entry, moment in zip(lines, game.entries, game.deal_times, strict=True):
        deals.append(
            {
                "game_id": game_id,
                "number": line.number,
                "out_seat": None,
                "score0": None,
                "score1": None,
                "stars0": 0,
                "stars1": 0,
                "entry": dict(entry),
                "winner_seat": line.winner,
                "created_at": moment,
                "cards": None,
            }
        )
        events.append(
            {
                **event,
                "action": AuditAction.DEAL_RECORDED,
                "params": {"number": line.number},
                "after": dict(entry),
                "created_at": moment,
            }
        )
    if game.finished_at is not None:
        winners = [names[game.seats[seat]] for seat in game.sitting.winners or ()]
        events.append(
            {
                **event,
                "action": AuditAction.GAME_FINISHED,
                "params": {"winner": ", ".join(winners), "number": len(lines)},
                "after": {"status": FINISHED},
                "created_at": game.finished_at,
            }
        )
    if game.paid_at is not None:
        settlement = game.sitting.settlement or ()
        payers = dict.fromkeys(names[game.seats[t.payer]] for t in settlement)
        amount = sum(t.amount for t in settlement)
        events.append(
            {
                **event,
                "action": AuditAction.PAYMENT_MARKED,
                "params": {"payer": ", ".join(payers), "amount": amount},
                "after": {"paid_at": game.paid_at.isoformat(), "amount": None},
                "created_at": game.paid_at,
            }
        )
    return deals, kind_service.movement_rows(game_id, game.sitting), events


def _insert_batch(
    rng: random.Random,
    batch: list[Planned],
    league_id: int,
    user_id: int,
    player_ids: list[int],
    names: list[str],
) -> None:
    rows = [_game_row(game, league_id, player_ids, user_id) for game in batch]
    game_ids = mille._bulk(Game, rows, ids=True)
    seats, mille_deals, sat_deals, movements, events, tokens = [], [], [], [], [], []
    for game, game_id in zip(batch, game_ids, strict=True):
        seats += _seats(game, game_id, player_ids)
        if isinstance(game, mille.Planned):
            deals, more_events, more_tokens = mille._children(
                rng, game, game_id, league_id, user_id, names
            )
            mille_deals += deals
            events += more_events
            tokens += more_tokens
        else:
            deals, ledger, more_events = _children(rng, game, game_id, league_id, user_id, names)
            sat_deals += deals
            movements += ledger
            events += more_events
    mille._bulk(GameSeat, seats)
    # The sittings' deals and ledger name every column: the database's own bulk path.
    insert_many(db.session.connection(), Deal, sat_deals)
    insert_many(db.session.connection(), Movement, movements)
    for model, children in (
        (Deal, mille_deals),
        (AuditEvent, events),
        (SubmissionToken, tokens),
    ):
        mille._bulk(model, children)


def generate_mixed(
    *,
    players: int,
    games: int,
    seed: int = 1,
    league_name: str = "Bench league",
    in_progress: int | None = None,
    unpaid_recent: int = 40,
    forgotten: int = 5,
    scorekeepers: int = 0,
) -> MixedGenerated:
    """Make the mixed league in the app's database (call inside an app context)."""
    if not 12 <= players <= 5000:
        raise ValueError("--players must be from 12 to 5,000 for a mixed league")
    rng = random.Random(seed)
    began = time.perf_counter()
    open_count = max(2, games // 400) if in_progress is None else in_progress
    planned = plan_mixed(rng, players, games, min(open_count, games), unpaid_recent, forgotten)
    planned_at = time.perf_counter()
    league = league_service.create_league(league_name)
    league_id, slug = league.id, league.slug
    user_id = mille._accounts(league_id, scorekeepers)
    names = [
        mille.NAMES[n % len(mille.NAMES)]
        + (f" {n // len(mille.NAMES) + 1}" if n >= len(mille.NAMES) else "")
        for n in range(players)
    ]
    first_seen = planned[0].created_at if planned else mille.UNTIL
    with writing():
        player_ids = mille._bulk(
            Player,
            [
                {"league_id": league_id, "name": name, "name_key": Player.key(name),
                 "created_at": first_seen}
                for name in names
            ],
            ids=True,
        )  # fmt: skip
    mille._seasons(league_id, first_seen)
    for start in range(0, len(planned), mille.BATCH):
        with writing():
            _insert_batch(
                rng, planned[start : start + mille.BATCH], league_id, user_id, player_ids, names
            )
    inserted_at = time.perf_counter()
    with writing():
        results.rebuild_league(league_id)
        if db.engine.dialect.name == "postgresql":
            db.session.execute(text("ANALYZE"))
    rebuilt_at = time.perf_counter()
    return _report(league_id, slug, planned, (began, planned_at, inserted_at, rebuilt_at))


def _report(
    league_id: int, slug: str, planned: list[Planned], moments: tuple[float, float, float, float]
) -> MixedGenerated:
    began, planned_at, inserted_at, rebuilt_at = moments
    kinds: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    deals = 0
    for game in planned:
        name = game.kind if isinstance(game, Sat) else MILLE
        kinds[name] += 1
        seats[name] += len(game.seats)
        deals += len(game.entries) if isinstance(game, Sat) else len(game.tallies)
    finished = sum(game.finished_at is not None for game in planned)
    return MixedGenerated(
        league_id=league_id,
        slug=slug,
        games=len(planned),
        finished=finished,
        in_progress=len(planned) - finished,
        unpaid=sum(game.finished_at is not None and game.paid_at is None for game in planned),
        deals=deals,
        chapeaux=0,
        stars=0,
        rules=dict(kinds),
        seats={name: seats[name] / count for name, count in kinds.items()},
        seconds_plan=planned_at - began,
        seconds_insert=inserted_at - planned_at,
        seconds_rebuild=rebuilt_at - inserted_at,
    )
