"""The registry of games, and what every game shares (RULES-MORE-GAMES.md §0; API.md,
"The other games")."""

import ast
import re
from pathlib import Path

import pytest

from scorekeeper.engine.games import (
    CODES,
    KINDS,
    Entry,
    GameKind,
    Refused,
    kind_named,
    problems,
)
from scorekeeper.engine.tally import CODES as TALLY_CODES
from tests.engine.games_support import problems_of, setup_of

#: Each game with a setup and a body as the API sends it, and the entry it is stored as.
BODIES: dict[str, tuple[dict[str, object], dict[str, object], dict[str, object], Entry]] = {
    "mille": ({}, {"small": 100}, {"out": 0, "scores": [140, 350]},
              {"out": 0, "scores": [140, 350], "naturals": [0, 0]}),
    "rummy": ({}, {"point": 5}, {"out": 1, "counts": [23, 0]},
              {"out": 1, "counts": [23, 0], "rummy": False}),
    "boathouse-rummy": ({}, {"point": 5}, {"out": 1, "counts": [23, 0]},
                        {"out": 1, "counts": [23, 0]}),
    "continental-rummy": ({}, {"unit": 25}, {"out": 0, "jokers": 1}, {"out": 0, "jokers": 1}),
    "gamblers-rummy": ({}, {"point": 5}, {"out": None, "counts": [1, 2, 3, 4]},
                       {"out": None, "counts": [1, 2, 3, 4]}),
    "knock-rummy": ({}, {"point": 10}, {"knocker": 0, "counts": [6, 14]},
                    {"knocker": 0, "counts": [6, 14]}),
    "scotch-whist": ({}, {"game": 100},
                     {"honours": {"ten": 0, "jack": 0, "ace": 1, "king": 1, "queen": 0},
                      "cards": [20, 16]},
                     {"honours": {"jack": 0, "ace": 1, "king": 1, "queen": 0, "ten": 0},
                      "cards": [20, 16]}),
    "spoil-five": ({}, {"ante": 100}, {"winner": 1}, {"winner": 1, "jink": "none"}),
}  # fmt: skip


def players_for(kind: GameKind, body: dict[str, object]) -> int:
    counts = body.get("counts")
    return len(counts) if isinstance(counts, list) else kind.min_players


def test_the_games_are_registered_by_name_mille_first_in_the_apis_order() -> None:
    assert list(KINDS) == [
        "mille",
        "rummy",
        "boathouse-rummy",
        "continental-rummy",
        "gamblers-rummy",
        "knock-rummy",
        "scotch-whist",
        "spoil-five",
    ]
    assert all(kind.name == name for name, kind in KINDS.items())
    assert kind_named("knock-rummy") is KINDS["knock-rummy"]


def test_an_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        kind_named("poker")


def test_the_registry_cannot_be_changed() -> None:
    with pytest.raises(TypeError):
        KINDS["poker"] = KINDS["mille"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "low", "high", "ends_itself"),
    [
        ("mille", 2, 2, True),
        ("rummy", 2, 6, False),
        ("boathouse-rummy", 2, 6, False),
        ("continental-rummy", 2, 12, False),
        ("gamblers-rummy", 4, 4, False),
        ("knock-rummy", 2, 6, False),
        ("scotch-whist", 2, 8, True),
        ("spoil-five", 2, 10, False),
    ],
)
def test_each_game_takes_its_players_and_ends_by_its_rule_or_the_scorekeeper(
    name: str, low: int, high: int, ends_itself: bool
) -> None:
    kind = kind_named(name)
    assert (kind.min_players, kind.max_players, kind.ends_itself) == (low, high, ends_itself)


@pytest.mark.parametrize("name", list(BODIES))
def test_each_games_entry_is_its_api_body_with_the_defaults_filled_in(name: str) -> None:
    kind = kind_named(name)
    rules, stakes, body, entry = BODIES[name]
    setup = kind.setup(players_for(kind, body), rules, stakes)  # type: ignore[arg-type]
    assert kind.read_deal(setup, body) == entry
    assert list(kind.read_deal(setup, body)) == list(entry)
    assert kind.read_deal(setup, entry) == entry


@pytest.mark.parametrize("name", list(BODIES))
def test_every_game_refuses_a_key_its_body_does_not_have(name: str) -> None:
    kind = kind_named(name)
    rules, stakes, body, _ = BODIES[name]
    setup = kind.setup(players_for(kind, body), rules, stakes)  # type: ignore[arg-type]
    (problem,) = problems_of(kind, setup, {**body, "version": 3})
    assert (problem.field, problem.code) == ("version", "field.unknown")


@pytest.mark.parametrize("name", list(BODIES))
def test_every_game_refuses_an_unknown_rule_and_stake(name: str) -> None:
    kind = kind_named(name)
    rules, stakes, body, _ = BODIES[name]
    with pytest.raises(Refused) as caught:
        kind.setup(players_for(kind, body), {**rules, "wild": True}, {**stakes, "tip": 5})  # type: ignore[dict-item]
    fields = {(p.field, p.code) for p in caught.value.problems}
    assert fields == {("rules.wild", "field.unknown"), ("stakes.tip", "field.unknown")}


@pytest.mark.parametrize("name", list(BODIES))
def test_a_setup_is_read_back_as_itself(name: str) -> None:
    kind = kind_named(name)
    rules, stakes, body, _ = BODIES[name]
    setup = kind.setup(players_for(kind, body), rules, stakes)  # type: ignore[arg-type]
    assert kind.setup(setup.players, setup.rules, setup.stakes) == setup


def test_every_code_is_described_once_and_none_is_also_a_tally_code() -> None:
    described = re.findall(r"^\* ``([a-z_.]+)``", problems.__doc__ or "", re.MULTILINE)
    assert described == list(CODES)
    assert len(set(CODES)) == len(CODES)
    assert not set(CODES) & set(TALLY_CODES)


#: Where each call that raises a problem takes its code.
CODE_ARGUMENT = {"add": 1, "whole": 4, "seat": 3}


def codes_given(path: Path) -> set[str]:
    """The codes the module at ``path`` passes to the reader's calls that take one."""
    codes = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            place = CODE_ARGUMENT.get(node.func.attr)
            if place is not None and len(node.args) > place:
                argument = node.args[place]
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    codes.add(argument.value)
    return codes


def test_every_code_the_games_give_is_listed() -> None:
    source = Path(problems.__file__).parent
    given = set().union(*(codes_given(path) for path in source.glob("*.py")))
    assert {"count.range", "honour.no_trick", "warning.all_jokers"} <= given
    assert given - {"out.missing"} <= set(CODES)  # Mille's is the tally's


def test_the_sitting_games_are_finished_only_when_ended() -> None:
    for name, (rules, stakes, body, _) in BODIES.items():
        kind = kind_named(name)
        setup = kind.setup(players_for(kind, body), rules, stakes)  # type: ignore[arg-type]
        entry = kind.read_deal(setup, body)
        for ended in (False, True):
            sitting = kind.replay(setup, 0, [entry], ended=ended)
            assert sitting.finished == (ended and not kind.ends_itself), name
            assert (sitting.settlement is not None) == sitting.finished


def test_the_dealer_of_deal_i_is_the_first_dealer_plus_i_minus_1_in_every_game() -> None:
    for name, (rules, stakes, body, _) in BODIES.items():
        if name in ("mille", "scotch-whist"):
            continue  # these may end within a few deals
        kind = kind_named(name)
        players = players_for(kind, body)
        setup = setup_of(name, players, stakes, rules)  # type: ignore[arg-type]
        entry = kind.read_deal(setup, body)
        sitting = kind.replay(setup, players - 1, [entry] * 5, ended=False)
        assert [line.dealer for line in sitting.lines] == [
            (players - 1 + number - 1) % players for number in range(1, 6)
        ]
        assert sitting.next_dealer == (players - 1 + 5) % players
