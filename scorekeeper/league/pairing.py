"""Who plays whom tonight: one round of two-player games of Mille for the players who are
here, or, for every other game, tables of the game's size (:func:`seat_tables`, below).

Pure and typed: it takes who is here and what they have done (how often and how
lately each two have met this season, when each last sat out) and returns the
round; no database, no Flask. The same inputs always give the same round.

Mille's rules, in the order they weigh:

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

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from itertools import combinations, product
from math import factorial

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


# Tables of more than two: every game but Mille ----------------------------------------
#
# The players here are split into tables of the game's size: as many seated as the sizes
# allow (Gambler's Rummy takes exactly four: the rest sit out, whoever has sat out least
# recently first, as Mille's odd player out), at the fewest tables, their sizes as even
# as can be (nine for Knock Rummy: five and four). Then who sits where: as few as can be
# of any two at one table have sat together this season, then as few times in all.
#
# That is a partition problem with no known fast exact method. Up to EXACT_UP_TO ways of
# seating every way is tried, the costliest branches cut early; past that, a heuristic:
# the players in some order, each to the table where they have sat least with those
# already there, then any swap of two players of different tables that lowers the cost,
# until none does; from STARTS orders, the best kept. Checked against every way of
# seating up to twelve players, it found the best 299 times in 300 (one start alone: 244).
# Both are deterministic: ties go to the first found, in the players' id order.

#: The most ways of seating tried one by one for the best (thirteen players at tables of
#: 5, 4 and 4: 45,045, a tenth of a second at worst); past it, the heuristic.
EXACT_UP_TO = 50_000
#: How many orders of the players the heuristic starts from.
STARTS = 8


@dataclass(frozen=True)
class Seating:
    """One round of a game of more than two: each table's players (by id, tables largest
    first), and who sits it out (by id)."""

    tables: tuple[tuple[PlayerId, ...], ...]
    sitting_out: tuple[PlayerId, ...]


def table_sizes(players: int, sizes: Collection[int]) -> tuple[int, ...]:
    """How many sit at each table, largest first, when ``players`` are here and a table
    may be any of ``sizes`` (a game's, from its fewest players to its most, less any its
    rules refuse: partnerships want 4, 6 or 8): as many seated as can be, at the fewest
    tables, their sizes as even as can be (differing by at most one when ``sizes`` has no
    gap). Empty when there are too few to seat a table."""
    allowed = tuple(sorted({size for size in sizes if size > 0}))
    if not allowed:
        return ()
    for seated in range(players, allowed[0] - 1, -1):
        for tables in range(-(-seated // allowed[-1]), seated // allowed[0] + 1):
            for spread in range(allowed[-1] - allowed[0] + 1):
                for low in allowed:
                    window = tuple(size for size in allowed if low <= size <= low + spread)
                    if window[-1] - low == spread and (found := _split(seated, tables, window)):
                        return found
    return ()


@lru_cache(maxsize=4096)
def _split(total: int, tables: int, window: tuple[int, ...]) -> tuple[int, ...] | None:
    """``total`` players at ``tables`` tables, each of a size in ``window`` (ascending),
    largest first; None if no such split."""
    if not tables * window[0] <= total <= tables * window[-1]:
        return None
    if tables == 0:
        return ()
    for size in reversed(window):
        # The largest size that leaves a split of the rest: the rest's are no larger.
        if (rest := _split(total - size, tables - 1, window)) is not None:
            return (size, *rest)
    return None


def sit_out_of_tables(players: Collection[PlayerId], count: int, history: History) -> list[int]:
    """The ``count`` players who sit out: those who have sat out least recently (never
    first), then in id order."""
    return sorted(
        sorted(set(players)),
        key=lambda player: (
            player in history.last_sat_out,
            history.last_sat_out.get(player, datetime.min),
        ),
    )[:count]


def seating_cost(tables: Collection[Collection[PlayerId]], history: History) -> tuple[int, int]:
    """How much a seating sets together players who sat together this season (lower is
    better, compared in order): how many two at one table have, then how many times."""
    counts = [
        history.met.get(pair(first, second), 0)
        for table in tables
        for first, second in combinations(sorted(table), 2)
    ]
    return (sum(1 for count in counts if count), sum(counts))


def seat_tables(players: Collection[PlayerId], sizes: Collection[int], history: History) -> Seating:
    """One round of a game whose tables may seat any of ``sizes``, for ``players``, by the
    rules above; TooFewPlayers when too few are here to seat one table."""
    here = sorted(set(players))
    shape = table_sizes(len(here), sizes)
    if not shape:
        raise TooFewPlayers("Too few players to seat a table.")
    out = sit_out_of_tables(here, len(here) - sum(shape), history)
    seated = [player for player in here if player not in out]
    weigh = _Mixer(seated, history)
    tables = weigh.best(shape) if _ways(shape) <= EXACT_UP_TO else weigh.good(shape)
    ordered = sorted((tuple(sorted(table)) for table in tables), key=lambda t: (-len(t), t))
    return Seating(tuple(ordered), tuple(sorted(out)))


def _ways(shape: Sequence[int]) -> int:
    """In how many ways ``sum(shape)`` players can be seated at tables of these sizes
    (tables of one size are alike)."""
    ways = factorial(sum(shape))
    for size, tables in Counter(shape).items():
        ways //= factorial(size) ** tables * factorial(tables)
    return ways


class _Mixer:
    """What seating two players together costs, and the ways of seating found with it: a
    whole number per two who sat together this season, above every sum of times."""

    def __init__(self, players: Sequence[PlayerId], history: History) -> None:
        self.players = list(players)
        counts = {(a, b): history.met.get(pair(a, b), 0) for a, b in combinations(self.players, 2)}
        above = sum(counts.values()) + 1  # one more two who sat together outweighs any sum
        self.weight = {player: dict.fromkeys(self.players, 0) for player in self.players}
        for (a, b), count in counts.items():
            self.weight[a][b] = self.weight[b][a] = (above if count else 0) + count

    def added(self, player: PlayerId, table: Sequence[PlayerId]) -> int:
        return sum(self.weight[player][other] for other in table)

    def best(self, shape: Sequence[int]) -> list[list[PlayerId]]:
        """The first seating of least cost in a search of every way (tables alike once)."""
        tables: list[list[PlayerId]] = [[] for _ in shape]
        found: list[tuple[int, list[list[PlayerId]]]] = []

        def place(index: int, cost: int) -> None:
            if found and cost >= found[0][0]:
                return
            if index == len(self.players):
                found[:] = [(cost, [list(table) for table in tables])]
                return
            player, empty_sizes = self.players[index], set()
            for table, size in zip(tables, shape, strict=True):
                if len(table) == size or (not table and size in empty_sizes):
                    continue
                if not table:
                    empty_sizes.add(size)  # an empty table is like any other of its size
                added = self.added(player, table)
                table.append(player)
                place(index + 1, cost + added)
                table.pop()

        place(0, 0)
        return found[0][1]

    def good(self, shape: Sequence[int]) -> list[list[PlayerId]]:
        """The heuristic's seating: the least costly of its starts, each improved."""
        found: list[tuple[int, list[list[PlayerId]]]] = []
        for start in range(STARTS):
            turn = start * len(self.players) // STARTS
            order = self.players[turn:] + self.players[:turn]
            tables = self.improved(self.greedy(shape, order[:: -1 if start % 2 else 1]), shape)
            cost = sum(self.added(p, table) for table in tables for p in table) // 2
            if not found or cost < found[0][0]:
                found[:] = [(cost, tables)]
        return found[0][1]

    def greedy(self, shape: Sequence[int], order: Sequence[PlayerId]) -> list[list[PlayerId]]:
        """Each player in turn at the table with room where they add the least."""
        tables: list[list[PlayerId]] = [[] for _ in shape]
        for player in order:
            room = [number for number, size in enumerate(shape) if len(tables[number]) < size]
            tables[min(room, key=lambda number: self.added(player, tables[number]))].append(player)
        return tables

    def improved(self, tables: list[list[PlayerId]], shape: Sequence[int]) -> list[list[PlayerId]]:
        """Swap two players of different tables while a swap lowers the cost."""
        at = [{player: self.added(player, table) for player in self.players} for table in tables]
        swapped = True
        while swapped:
            swapped = False
            for one, two in combinations(range(len(shape)), 2):
                for a, b in product(tables[one], tables[two]):
                    # a at b's table without b, b at a's without a; against where they are.
                    after = at[two][a] + at[one][b] - 2 * self.weight[a][b]
                    if after < at[one][a] + at[two][b]:
                        self._swap(tables, at, (one, a), (two, b))
                        swapped = True
                        break
                if swapped:
                    break
        return tables

    def _swap(
        self,
        tables: list[list[PlayerId]],
        at: list[dict[PlayerId, int]],
        first: tuple[int, PlayerId],
        second: tuple[int, PlayerId],
    ) -> None:
        (one, a), (two, b) = first, second
        tables[one][tables[one].index(a)] = b
        tables[two][tables[two].index(b)] = a
        for player in self.players:
            change = self.weight[player][b] - self.weight[player][a]
            at[one][player] += change
            at[two][player] -= change
