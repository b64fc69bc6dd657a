"""``python -m bench.generate --players N --games G --db URL``: a realistic league.

Every deal is a legal tally (``validate_tally``) and every game is replayed by the
engine to find its end, so the rows are exactly what the app would have stored had
each deal been typed in: the game's derived columns come from
:func:`scorekeeper.table.service.derived_columns`, each deal has its audit event and
one-time token, finished games are paid some time later except the recent ones, and
the league's standings, ratings, head-to-head and balances are built once at the end
by :func:`scorekeeper.records.results.rebuild_league`.

Rows go in with bulk ``INSERT``s, one transaction per :data:`BATCH` games, never
through HTTP or a service call per deal. The same ``--seed`` makes the same league.
"""

import argparse
import hashlib
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import insert, text

from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.members import set_membership
from scorekeeper.database import writing
from scorekeeper.engine import (
    PRESETS,
    DealAfterEnd,
    Preset,
    Rules,
    Scorecard,
    Seat,
    Stakes,
    Tally,
    replay,
    validate_tally,
)
from scorekeeper.league import service as league_service
from scorekeeper.league.transfer.save import deal_row, seat_rows
from scorekeeper.models import (
    AuditAction,
    AuditEvent,
    Deal,
    Game,
    GameSeat,
    Player,
    Role,
    Season,
    SubmissionToken,
    db,
)
from scorekeeper.records import results
from scorekeeper.table import audit
from scorekeeper.table import service as game_service
from scorekeeper.table.forms import rules_data

from .common import ADMIN, PASSWORD, SCOREKEEPER, dialect_name, dispose, make_app

#: Generated games end before this moment: fixed, so a seed always makes the same league,
#: and in the past, so games finished while a benchmark runs come last in game order.
UNTIL = datetime(2025, 6, 1)
#: Games per transaction.
BATCH = 2000
#: Tallies generated at a time while looking for a game's end.
CHUNK = 24
MAX_DEALS = 2000

NAMES = [
    "Ana",
    "Ben",
    "Cleo",
    "Dan",
    "Eva",
    "Finn",
    "Gus",
    "Hana",
    "Ivo",
    "Jade",
    "Kai",
    "Lea",
    "Milo",
    "Nora",
    "Otto",
    "Pia",
    "Quinn",
    "Rosa",
    "Sam",
    "Tess",
    "Ugo",
    "Vera",
    "Walt",
    "Xia",
    "Yves",
    "Zoe",
    "Abe",
    "Bea",
    "Cal",
    "Dora",
    "Eli",
    "Faye",
    "Gil",
    "Hugo",
    "Iris",
    "Jon",
    "Kit",
    "Lou",
    "Max",
    "Nell",
    "Oli",
    "Pat",
    "Ray",
    "Sid",
    "Tom",
    "Uma",
    "Val",
    "Wes",
    "Yan",
    "Zac",
]

#: (weight, rules): mostly the standard game, some progressive, marks and natural-needed ones.
RULE_MIX: tuple[tuple[int, Rules], ...] = (
    (70, PRESETS[Preset.STANDARD]),
    (12, PRESETS[Preset.PROGRESSIVE]),
    (10, PRESETS[Preset.MARKS]),
    (8, Rules(natural_needed=True)),
)
#: (weight, stakes in cents).
STAKE_MIX: tuple[tuple[int, Stakes], ...] = (
    (60, Stakes(100, 300)),
    (20, Stakes(25, 75)),
    (15, Stakes(200, 600)),
    (5, Stakes(500, 1500)),
)
#: What a natural set adds: eight 5s, 10s, aces or 2s, counted double.
NATURAL_SETS = (80, 160, 240, 320)
#: Odds per deal: the player who stayed in ends below zero; the player who went out used
#: no two as a wild card; a player lays down a natural set.
CHAPEAU_ODDS = 0.04
NATURAL_OUT_ODDS = 0.02
NATURAL_SET_ODDS = 0.015
#: Players chasing a star (a natural is needed to win) find one more often.
NATURAL_SET_ODDS_NEEDED = 0.04


@dataclass
class Planned:
    """One game, played out by the engine, before it has an id."""

    seats: tuple[int, int]  # player indexes
    rules: Rules
    stakes: Stakes
    first_dealer: Seat
    tallies: list[Tally]
    card: Scorecard
    created_at: datetime
    deal_times: list[datetime]
    finished_at: datetime | None = None
    paid_at: datetime | None = None


@dataclass(frozen=True)
class Generated:
    """What the generator made."""

    league_id: int
    slug: str
    games: int
    finished: int
    in_progress: int
    unpaid: int
    deals: int
    chapeaux: int
    stars: int
    rules: dict[str, int]
    seconds_plan: float
    seconds_insert: float
    seconds_rebuild: float

    def summary(self) -> str:
        rules = ", ".join(f"{count:,} {name}" for name, count in sorted(self.rules.items()))
        total = self.seconds_plan + self.seconds_insert + self.seconds_rebuild
        return (
            f"League /leagues/{self.slug}: {self.games:,} games ({self.finished:,} finished, "
            f"{self.in_progress:,} in progress, {self.unpaid:,} finished and unpaid), "
            f"{self.deals:,} deals ({self.deals / max(1, self.games):.1f} a game), "
            f"chapeaux in {100 * self.chapeaux / max(1, self.deals):.1f}% of deals, "
            f"{100 * self.stars / max(1, self.deals):.1f} stars per 100 deals; rules: {rules}.\n"
            f"Took {total:.1f} s: playing {self.seconds_plan:.1f} s, inserting "
            f"{self.seconds_insert:.1f} s, rebuilding the derived tables "
            f"{self.seconds_rebuild:.1f} s."
        )


# Playing the games ---------------------------------------------------------------------


def _weighted(rng: random.Random, mix: Sequence[tuple[int, Any]]) -> Any:
    return rng.choices([item for _, item in mix], weights=[weight for weight, _ in mix])[0]


def deal(rng: random.Random, out: int, natural_set_odds: float) -> Tally:
    """One legal tally: the player who went out scores their sets (at least one set of three
    5s), the other their sets minus their hand, now and then below zero (a chapeau)."""
    scores = [0, 0]
    stars = [0, 0]
    went_out = 5 * max(3, round(rng.triangular(3, 56, 14)))
    if rng.random() < NATURAL_OUT_ODDS:  # going out naturally: every card counts double
        went_out *= 2
        stars[out] += 1
    scores[out] = went_out
    stayed = 1 - out
    if rng.random() < CHAPEAU_ODDS:
        scores[stayed] = -5 * rng.randint(1, 30)
    else:
        scores[stayed] = 5 * round(rng.triangular(0, 46, 8))
    for seat in (0, 1):
        if rng.random() < natural_set_odds:
            scores[seat] += rng.choice(NATURAL_SETS)
            stars[seat] += 1
    return validate_tally(out, scores, stars)


def play(
    rng: random.Random, rules: Rules, first_dealer: Seat, out_odds: float
) -> tuple[list[Tally], Scorecard]:
    """Deals until the engine says the game is over: the tallies and the final score card."""
    odds = NATURAL_SET_ODDS_NEEDED if rules.natural_needed else NATURAL_SET_ODDS
    tallies: list[Tally] = []
    while len(tallies) < MAX_DEALS:
        tallies += [deal(rng, 0 if rng.random() < out_odds else 1, odds) for _ in range(CHUNK)]
        try:
            card = replay(rules, first_dealer, tallies)
        except DealAfterEnd as end:
            del tallies[end.ended_at :]
            return tallies, replay(rules, first_dealer, tallies)
        if card.finished:
            return tallies, card
    raise RuntimeError("a generated game did not end")  # pragma: no cover


def plan_league(
    rng: random.Random,
    players: int,
    games: int,
    in_progress: int,
    unpaid_recent: int,
    forgotten: int,
) -> list[Planned]:
    """``games`` games among ``players`` players, oldest first, ending before :data:`UNTIL`.

    Some players play far more than others, and a better player goes out more often.
    The ``in_progress`` games are unfinished (half the newest, half abandoned long ago).
    Finished games are paid within days, except about ``unpaid_recent`` among the newest
    and ``forgotten`` older ones, so who-owes-whom looks the same whatever the size.
    """
    activity = [1 / (rank + 1) ** 0.6 for rank in range(players)]
    skill = [rng.gauss(0, 90) for _ in range(players)]
    span = timedelta(days=min(3 * 365, max(60, games / 15)))
    step = span / games
    start = UNTIL - span
    open_games = set(range(games - (in_progress + 1) // 2, games))
    while len(open_games) < min(in_progress, games):
        open_games.add(rng.randrange(games))
    planned = []
    for index in range(games):
        first, second = _pair(rng, activity)
        rules: Rules = _weighted(rng, RULE_MIX)
        out_odds = 1 / (1 + 10 ** ((skill[second] - skill[first]) / 400))
        dealer = Seat(rng.randrange(2))
        tallies, card = play(rng, rules, dealer, out_odds)
        if index in open_games:
            tallies = tallies[: rng.randrange(len(tallies))]
            card = replay(rules, dealer, tallies)
        created = start + step * index + step * rng.random() / 2
        times = [
            created + timedelta(minutes=4 * n + rng.random() * 2)
            for n in range(1, 1 + len(tallies))
        ]
        game = Planned(
            (first, second), rules, _weighted(rng, STAKE_MIX), dealer, tallies, card, created, times
        )
        if card.finished:
            game.finished_at = times[-1]
        planned.append(game)
    _pay(rng, planned, unpaid_recent, forgotten)
    return planned


def _pair(rng: random.Random, activity: list[float]) -> tuple[int, int]:
    first = rng.choices(range(len(activity)), weights=activity)[0]
    while (second := rng.choices(range(len(activity)), weights=activity)[0]) == first:
        pass
    return first, second


def _pay(rng: random.Random, planned: list[Planned], unpaid_recent: int, forgotten: int) -> None:
    finished = [game for game in planned if game.finished_at is not None]
    recent = set(range(max(0, len(finished) - 2 * unpaid_recent), len(finished)))
    older = [n for n in range(len(finished)) if n not in recent]
    unpaid = {n for n in recent if rng.random() < 0.5}
    unpaid |= set(rng.sample(older, min(forgotten, len(older))))
    for number, game in enumerate(finished):
        if number not in unpaid:
            assert game.finished_at is not None
            later = game.finished_at + timedelta(hours=rng.uniform(0.2, 72))
            game.paid_at = min(later, UNTIL)


# Storing them ----------------------------------------------------------------------------


def _game_row(game: Planned, league_id: int, player_ids: list[int], user_id: int) -> dict[str, Any]:
    return {
        "league_id": league_id,
        "player0_id": player_ids[game.seats[0]],
        "player1_id": player_ids[game.seats[1]],
        "first_dealer": int(game.first_dealer),
        "created_at": game.created_at,
        **rules_data(game.rules),
        "small_stake": game.stakes.small,
        "big_stake": game.stakes.big,
        # As if typed in: one version per deal, and one for the payment.
        "version": 1 + len(game.tallies) + (game.paid_at is not None),
        **game_service.derived_columns(
            game.card, game_service.settlement_of(game.card, game.stakes)
        ),
        "finished_at": game.finished_at,
        "paid_at": game.paid_at,
        "paid_by_id": user_id if game.paid_at else None,
    }


def _children(
    rng: random.Random, game: Planned, game_id: int, league_id: int, user_id: int, names: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The game's deals, audit events and one-time tokens, as the app would have made them."""
    deals, events, tokens = [], [], []
    event = {"league_id": league_id, "game_id": game_id, "user_id": user_id, "before": None}
    for number, (tally, moment) in enumerate(zip(game.tallies, game.deal_times, strict=True), 1):
        deals.append(deal_row(game_id, number, tally, moment))
        events.append(
            {
                **event,
                "action": AuditAction.DEAL_RECORDED,
                "params": {"number": number},
                "after": audit.tally_values(number, tally),
                "created_at": moment,
            }
        )
        token = f"{game_id:x}-{rng.getrandbits(96):024x}"  # unique as the game id is
        tokens.append({"token": token, "game_id": game_id, "created_at": moment})
    card = game.card
    if card.winner is None:
        return deals, events, tokens
    settlement = game_service.settlement_of(card, game.stakes)
    assert settlement is not None  # a card with a winner is finished
    winner, amount = int(card.winner), settlement.total
    events.append(
        {
            **event,
            "action": AuditAction.GAME_FINISHED,
            "params": {"winner": names[game.seats[winner]], "number": len(card.lines)},
            "after": {"winner": winner, "amount_due": amount},
            "created_at": game.finished_at,
        }
    )
    if game.paid_at is not None:
        payer = names[game.seats[1 - winner]]
        events.append(
            {
                **event,
                "action": AuditAction.PAYMENT_MARKED,
                "params": {"payer": payer, "amount": amount},
                "after": {"paid_at": game.paid_at.isoformat(), "amount": amount},
                "created_at": game.paid_at,
            }
        )
    return deals, events, tokens


def _bulk(model: Any, rows: list[dict[str, Any]], *, ids: bool = False) -> list[int]:
    """Rows inserted by plain Core ``executemany`` (no ORM unit of work); their new ids,
    in the order given, if ``ids``."""
    if not rows:
        return []
    table = model.__table__
    connection = db.session.connection()
    if ids:
        statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        return list(connection.execute(statement, rows).scalars())
    connection.execute(insert(table), rows)
    return []


def _accounts(league_id: int, scorekeepers: int) -> int:
    """The bench's accounts: a site admin, and scorekeepers of the league. Returns the id
    of the scorekeeper who recorded every generated deal."""
    if not user_service.has_users():
        user_service.create_first_admin(ADMIN, PASSWORD)
    elif user_service.user_by_name(ADMIN) is None:
        user_service.create_user(ADMIN, PASSWORD, admin=True)
    names = [SCOREKEEPER] + [f"{SCOREKEEPER}-{n}" for n in range(1, scorekeepers + 1)]
    ids = []
    for name in names:
        user = user_service.user_by_name(name) or user_service.create_user(name, PASSWORD)
        set_membership(league_id, user.id, Role.SCOREKEEPER)
        ids.append(user.id)
    return ids[0]


def _seasons(league_id: int, first: datetime) -> None:
    """One season per calendar year the league played in."""
    with writing():
        for year in range(first.year, UNTIL.year + 1):
            db.session.add(
                Season(
                    league_id=league_id,
                    name=str(year),
                    starts_on=date(year, 1, 1),
                    ends_on=date(year, 12, 31),
                )
            )


def generate(
    *,
    players: int,
    games: int,
    seed: int = 1,
    league_name: str = "Bench league",
    in_progress: int | None = None,
    unpaid_recent: int = 40,
    forgotten: int = 5,
    scorekeepers: int = 0,
) -> Generated:
    """Make the league in the app's database (call inside an app context)."""
    if not 2 <= players <= 5000:
        raise ValueError("--players must be from 2 to 5,000")
    rng = random.Random(seed)
    began = time.perf_counter()
    open_count = max(2, games // 400) if in_progress is None else in_progress
    planned = plan_league(rng, players, games, min(open_count, games), unpaid_recent, forgotten)
    planned_at = time.perf_counter()

    league = league_service.create_league(league_name)
    league_id, slug = league.id, league.slug
    user_id = _accounts(league_id, scorekeepers)
    names = [
        NAMES[n % len(NAMES)] + (f" {n // len(NAMES) + 1}" if n >= len(NAMES) else "")
        for n in range(players)
    ]
    with writing():
        first_seen = planned[0].created_at if planned else UNTIL
        player_ids = _bulk(
            Player,
            [
                {
                    "league_id": league_id,
                    "name": name,
                    "name_key": Player.key(name),
                    "created_at": first_seen,
                }
                for name in names
            ],
            ids=True,
        )
    _seasons(league_id, first_seen)
    for start in range(0, len(planned), BATCH):
        batch = planned[start : start + BATCH]
        with writing():
            rows = [_game_row(game, league_id, player_ids, user_id) for game in batch]
            game_ids = _bulk(Game, rows, ids=True)
            deals, events, tokens = [], [], []
            for game, game_id in zip(batch, game_ids, strict=True):
                more = _children(rng, game, game_id, league_id, user_id, names)
                deals += more[0]
                events += more[1]
                tokens += more[2]
            _bulk(GameSeat, seat_rows(game_ids, rows))
            for model, children in ((Deal, deals), (AuditEvent, events), (SubmissionToken, tokens)):
                _bulk(model, children)
    inserted_at = time.perf_counter()
    with writing():
        results.rebuild_league(league_id)
        if db.engine.dialect.name == "postgresql":
            # What autovacuum would do after such a load: without statistics the planner
            # takes the new tables for empty ones.
            db.session.execute(text("ANALYZE"))
    rebuilt_at = time.perf_counter()
    return _report(league_id, slug, planned, began, planned_at, inserted_at, rebuilt_at)


def _report(
    league_id: int,
    slug: str,
    planned: list[Planned],
    began: float,
    planned_at: float,
    inserted_at: float,
    rebuilt_at: float,
) -> Generated:
    tallies = [tally for game in planned for tally in game.tallies]
    rules: Counter[str] = Counter()
    for game in planned:
        preset = game.rules.matching_preset()
        rules[
            "natural needed" if game.rules.natural_needed else preset.value if preset else "custom"
        ] += 1
    finished = sum(game.card.finished for game in planned)
    return Generated(
        league_id=league_id,
        slug=slug,
        games=len(planned),
        finished=finished,
        in_progress=len(planned) - finished,
        unpaid=sum(game.card.finished and game.paid_at is None for game in planned),
        deals=len(tallies),
        chapeaux=sum(tally.chapeau(seat) for tally in tallies for seat in Seat),
        stars=sum(sum(tally.stars) for tally in tallies),
        rules=dict(rules),
        seconds_plan=planned_at - began,
        seconds_insert=inserted_at - planned_at,
        seconds_rebuild=rebuilt_at - inserted_at,
    )


def generate_into(app: Flask, *, mixed: bool = False, **options: Any) -> Generated:
    """A league made in ``app``'s database: of Mille alone, or ``mixed`` across every game
    (:mod:`.mixed`)."""
    from .mixed import generate_mixed  # it builds on this module

    with app.app_context():
        made = (generate_mixed if mixed else generate)(**options)
        db.session.remove()
    return made


#: Where the benchmarks keep the SQLite leagues they generate, between runs.
CACHE_DIR = Path(tempfile.gettempdir()) / "mille-bench-cache"


def fingerprint() -> str:
    """Changes whenever the generator or the schema does, so a stale league isn't reused."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    sources = [root / "bench" / "generate.py", root / "bench" / "mixed.py"]
    sources += sorted((root / "scorekeeper" / "engine" / "games").glob("*.py"))
    sources += sorted((root / "scorekeeper" / "records").glob("*.py"))  # the derived tables
    sources += sorted((root / "scorekeeper" / "migrations" / "versions").glob("*.py"))
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cached_sqlite_league(
    cache: Path, games: int, players: int, seed: int, *, mixed: bool = False
) -> Path:
    """An SQLite file holding a generated league (``mixed``: across every game), made once
    per size, seed and schema and kept in ``cache`` (copy it before writing to it); older
    generations are removed."""
    name = f"league-{'mixed-' if mixed else ''}{games}g-{players}p-seed{seed}"
    cached = cache / f"{name}-{fingerprint()}.sqlite"
    if cached.exists():
        print(f"  using the league cached in {cached}", flush=True)
        return cached
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as work:
        path = Path(work) / "league.sqlite"
        app = make_app(f"sqlite:///{path}")
        try:
            made = generate_into(app, players=players, games=games, seed=seed, mixed=mixed)
        finally:
            dispose(app)
        print("  " + made.summary().replace("\n", "\n  "), flush=True)
        # The app closed every connection, so the last one folded the WAL into the file.
        assert not path.with_name(path.name + "-wal").exists()
        path.rename(cached)
    for stale in cache.glob(f"{name}-*.sqlite"):
        if stale != cached:  # made by an older generator or schema
            stale.unlink()
    return cached


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Generate a realistic league of valid games.")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--db", required=True, help="a SQLAlchemy URL (sqlite:///…, postgresql://…)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--league", default="Bench league", help="the new league's name")
    parser.add_argument("--in-progress", type=int, default=None, help="games left unfinished")
    parser.add_argument(
        "--unpaid", type=int, default=40, help="about this many recent games unpaid"
    )
    parser.add_argument("--scorekeepers", type=int, default=0, help="extra scorekeeper accounts")
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="games of all eight games, not Mille alone (at least 12 players)",
    )
    args = parser.parse_args(argv)
    app = make_app(args.db)
    try:
        made = generate_into(
            app,
            players=args.players,
            games=args.games,
            seed=args.seed,
            league_name=args.league,
            in_progress=args.in_progress,
            unpaid_recent=args.unpaid,
            scorekeepers=args.scorekeepers,
            mixed=args.mixed,
        )
    finally:
        dispose(app)
    print(f"{dialect_name(args.db)}: {made.summary()}")
    print(f"Sign in as {ADMIN} or {SCOREKEEPER} with the password {PASSWORD}.")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
