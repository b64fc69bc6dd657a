"""Who plays whom tonight: one round of two-player games for the players who are here.

Pure and typed: it takes who is here and what they have done (how often and how
lately each two have met this season, when each last sat out) and returns the
round; no database, no Flask. The same inputs always give the same round.

The rules, in the order they weigh:

1. **Everyone plays.** With an odd number here, one sits out: whoever has sat out
   least recently (never, before anyone who has).
2. **Least met first.** Among all ways to pair the others, the round keeps meetings
   at the highest count as few as possible, then those at the next count, and so on:
   no two meet a third time while some two of them could meet a second time instead.
3. **Least recently met next**: the pairs whose last game together is the oldest.
4. **Then the round robin's order.** The players here are placed on a round robin
   table (the circle method, by player id); among pairings still equal, the one
   nearest its first rounds wins, and an odd player out is the one whose bye comes
   first. So rounds of the same players from scratch go through the round robin
   itself, every two meeting once before any two meet again, and, once everyone has
   met, rules 2 and 3 keep it going in the same order: a round robin again.

The best pairing is a minimum-cost perfect matching: Edmonds' blossom algorithm
(networkx's ``max_weight_matching``), in whole numbers, weighted so that each rule
outweighs the next. ``tests/league/test_pairing.py`` checks it against every possible
pairing of up to 8 players.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations

PlayerId = int
Pair = frozenset[PlayerId]


def pair(first: PlayerId, second: PlayerId) -> Pair:
    """Two players, in no order: a key of :attr:`History.met`."""
    return frozenset((first, second))


@dataclass(frozen=True)
class History:
    """What the pairing weighs: how many times two players met this season, when they
    last met, and when each last sat out a round. Pairs and players absent have never."""

    met: Mapping[Pair, int] = field(default_factory=dict)
    last_met: Mapping[Pair, datetime] = field(default_factory=dict)
    last_sat_out: Mapping[PlayerId, datetime] = field(default_factory=dict)


@dataclass(frozen=True)
class Round:
    """One round: its games (each pair lower id first, games in order of their first
    player) and who sits it out (None with an even number of players)."""

    games: tuple[tuple[PlayerId, PlayerId], ...]
    sitting_out: PlayerId | None


class TooFewPlayers(ValueError):
    """A round needs at least two players."""


def round_robin(players: Sequence[PlayerId]) -> list[list[tuple[PlayerId | None, PlayerId | None]]]:
    """The circle method's rounds for ``players`` (an odd number gets a bye, ``None``):
    every two meet exactly once, in ``len(players) - 1`` rounds (or ``len`` if odd)."""
    seats: list[PlayerId | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    count = len(seats)
    rounds = []
    for number in range(count - 1):
        turned = seats[1:]
        turned = turned[len(turned) - number :] + turned[: len(turned) - number]
        circle = [seats[0], *turned]
        rounds.append([(circle[i], circle[count - 1 - i]) for i in range(count // 2)])
    return rounds


@dataclass(frozen=True)
class _Table:
    """The round robin table of the players here: the round of each pair and of each bye."""

    round_of: dict[Pair, int]
    bye_round: dict[PlayerId, int]

    @classmethod
    def of(cls, players: Sequence[PlayerId]) -> "_Table":
        round_of: dict[Pair, int] = {}
        bye_round: dict[PlayerId, int] = {}
        for number, games in enumerate(round_robin(players)):
            for first, second in games:
                if first is not None and second is not None:
                    round_of[pair(first, second)] = number
                elif (bye := first if second is None else second) is not None:
                    bye_round[bye] = number
        return cls(round_of, bye_round)


def sit_out(players: Collection[PlayerId], history: History) -> PlayerId | None:
    """Who sits the round out: None for an even number; otherwise whoever has sat out least
    recently (never first), and among those equal, whose bye comes first in the round
    robin table."""
    here = sorted(set(players))
    if len(here) % 2 == 0:
        return None
    table = _Table.of(here)
    return min(
        here,
        key=lambda player: (
            player in history.last_sat_out,
            history.last_sat_out.get(player, datetime.min),
            table.bye_round[player],
        ),
    )


@dataclass(frozen=True)
class Cost:
    """How good a pairing is, compared rule by rule (lower is better): ``repeats`` holds
    how many of its games are at each meeting count, highest count first; ``recency``
    adds up how recent each pair's last meeting is (its rank among the last meetings
    of the players here; never met is 0); ``order`` adds up each game's round in the
    round robin table."""

    repeats: tuple[int, ...]
    recency: int
    order: int

    def key(self) -> tuple[tuple[int, ...], int, int]:
        return (self.repeats, self.recency, self.order)


class _Weigher:
    """The cost of each possible game among the players here, and of a whole pairing."""

    def __init__(self, players: Sequence[PlayerId], history: History, table: _Table) -> None:
        self.history = history
        self.table = table
        moments = sorted(
            {
                moment
                for first, second in combinations(players, 2)
                if (moment := history.last_met.get(pair(first, second))) is not None
            }
        )
        self.rank = {moment: number for number, moment in enumerate(moments, start=1)}
        self.highest = max((history.met.get(pair(a, b), 0) for a, b in combinations(players, 2)))

    def met(self, game: Pair) -> int:
        return self.history.met.get(game, 0)

    def recency(self, game: Pair) -> int:
        moment = self.history.last_met.get(game)
        return 0 if moment is None else self.rank[moment]

    def cost(self, games: Collection[Pair]) -> Cost:
        counts = [self.met(game) for game in games]
        return Cost(
            repeats=tuple(counts.count(level) for level in range(self.highest, -1, -1)),
            recency=sum(self.recency(game) for game in games),
            order=sum(self.table.round_of[game] for game in games),
        )

    def weights(self, players: Sequence[PlayerId]) -> dict[Pair, int]:
        """One whole number per game such that the pairing whose games' numbers add up
        to the least has the least :class:`Cost`: each rule's sum, at its largest, stays
        below one step of the rule before it."""
        games = len(players) // 2
        pairs = [pair(a, b) for a, b in combinations(players, 2)]
        # A game's round in the table is below the number of players.
        recency_step = games * len(players) + 1
        # A pair's recency rank is at most the number of pairs.
        met_step = (games * len(pairs) + 1) * recency_step
        # One game at one more meeting outweighs every game of the round at one fewer.
        base = games + 1
        return {
            game: base ** self.met(game) * met_step
            + self.recency(game) * recency_step
            + self.table.round_of[game]
            for game in pairs
        }


def pairing_cost(players: Collection[PlayerId], history: History, round_: Round) -> Cost:
    """The :class:`Cost` of ``round_``'s games, among ``players``, given ``history``."""
    here = sorted(set(players))
    playing = [player for player in here if player != round_.sitting_out]
    weigher = _Weigher(playing, history, _Table.of(here))
    return weigher.cost([pair(*game) for game in round_.games])


def pair_round(players: Collection[PlayerId], history: History) -> Round:
    """Tonight's next round for ``players`` (two or more), by the rules of this module."""
    here = sorted(set(players))
    if len(here) < 2:
        raise TooFewPlayers("A round needs at least two players.")
    out = sit_out(here, history)
    playing = [player for player in here if player != out]
    weights = _Weigher(playing, history, _Table.of(here)).weights(playing)
    heaviest = max(weights.values()) + 1
    import networkx as nx  # loaded by the first pairing, not at every start (issue 26)

    graph: nx.Graph[PlayerId] = nx.Graph()
    graph.add_nodes_from(playing)
    for game, weight in sorted(weights.items(), key=lambda item: sorted(item[0])):
        graph.add_edge(*sorted(game), weight=heaviest - weight)  # the lightest, the heaviest
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    games = sorted((min(a, b), max(a, b)) for a, b in matching)
    assert len(games) * 2 == len(playing), "a complete graph has a perfect matching"
    return Round(tuple(games), out)
