"""What the tests of the other games' pages share: a game of each, started as the API
would start it, and its deals sent through the page's form as a browser without a script
sends them (the form's fields are named after the deal's body: ``counts_2`` for
``counts.2``)."""

import html
import re
import uuid
from collections.abc import Mapping
from typing import Any

from flask import Flask

from scorekeeper.engine.games import kind_named
from scorekeeper.models import Game, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import starting

NAMES = ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]

#: Each game: its players, rules and stakes (cents), and two deals as the page sends them,
#: with the body the API takes for each (the page's numbers are compared with the API's).
GAMES: dict[str, tuple[int, dict[str, Any], dict[str, int], list[dict[str, str]]]] = {
    "rummy": (3, {}, {"point": 5}, [
        {"out": "1", "counts_0": "23", "counts_1": "", "counts_2": "7"},
        {"out": "0", "counts_0": "", "counts_1": "12", "counts_2": "9", "rummy": "y"},
    ]),
    "boathouse-rummy": (3, {}, {"point": 5}, [
        {"out": "1", "counts_0": "23", "counts_1": "0", "counts_2": "11"},
        {"out": "2", "counts_0": "4", "counts_1": "30", "counts_2": ""},
    ]),
    "continental-rummy": (9, {}, {"unit": 25}, [
        {"out": "2", "jokers": "2"},
        {"out": "4", "jokers": "0"},
    ]),
    "gamblers-rummy": (4, {}, {"point": 10}, [
        {"out": "nobody", "counts_0": "12", "counts_1": "30", "counts_2": "4", "counts_3": "9"},
        {"out": "2", "counts_0": "5", "counts_1": "6", "counts_2": "", "counts_3": "9"},
    ]),
    "knock-rummy": (4, {}, {"point": 10}, [
        {"knocker": "0", "counts_0": "6", "counts_1": "6", "counts_2": "14", "counts_3": "20"},
        {"knocker": "1", "counts_0": "9", "counts_1": "0", "counts_2": "20", "counts_3": "31"},
    ]),
    "scotch-whist": (4, {"partnerships": True}, {"game": 500}, [
        {"honours_jack": "0", "honours_ace": "1", "honours_king": "1", "honours_queen": "0",
         "honours_ten": "0", "cards_0": "20", "cards_1": "16"},
        {"honours_jack": "0", "honours_ace": "0", "honours_king": "1", "honours_queen": "0",
         "honours_ten": "0", "cards_0": "24", "cards_1": "12"},
    ]),
    "spoil-five": (5, {}, {"ante": 100}, [
        {"winner": "spoilt", "jink": "none"},
        {"winner": "2", "jink": "won"},
    ]),
}  # fmt: skip


def start(app: Flask, kind: str, players: int | None = None, **setup: Any) -> int:
    """A new game of ``kind`` in the first league (seat 0 deals first); its id."""
    count, rules, stakes, _deals = GAMES[kind]
    with app.app_context():
        league = league_by_slug("our-table")
        assert league is not None
        game = starting.start_game_of(
            kind_named(kind),
            league.id,
            NAMES[: players or count],
            setup.get("rules", rules),
            setup.get("stakes", stakes),
            0,
        )
        db.session.remove()
    return game.id


def post_deal(
    client: Any, game_id: int, fields: Mapping[str, str], headers: Any = None, **extra: str
) -> Any:
    """The deal form sent as a browser without a script sends it, with a new token."""
    data = {**fields, "token": uuid.uuid4().hex, **extra}
    return client.post(f"/games/{game_id}/deals", data=data, headers=headers or {})


def deal_count(app: Flask, game_id: int) -> int:
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        count = game.deal_count
        db.session.remove()
    return count


def words(page: str) -> str:
    """The page's words, tags gone, entities read, spaces squeezed (a no-break space kept)."""
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def confirmation_in(page: str) -> str:
    """The value "Yes, save it as typed" would send."""
    found = re.search(r'name="confirm" value="([^"]*)"', page)
    assert found, "no question asked"
    return html.unescape(found.group(1))


def standings(page: str) -> list[str]:
    """Each player's balance (or side's total) as the page's summary shows it."""
    start = page.index('<section class="summary')
    summary = page[start : page.index("</section>", start)]
    amounts = r'<span class="amount[^"]*"><span class="sr">[^<]*</span>([^<]*)</span>'
    found = re.findall(amounts, summary)
    return [html.unescape(amount).strip() for amount in found]


def as_api(amount: str) -> str:
    """A page's amount ("−$1.00", "+$7.70", "$0.00") as the API writes it ("-1.00")."""
    return amount.replace("−", "-").replace("+", "").replace("$", "").replace(",", "")
