"""No input can stall the server (issue 21, point 1): every field a page takes is sent
100 KB of hostile text, in English and in French, and the work it costs is counted.

Work is counted, not timed: the interpreter's line events while the request is handled
(they must not grow from 50 KB to 100 KB: every field is bounded before it is read), and
the characters handed to each regular expression of the app (never more than
:data:`PATTERN_BUDGET`: a pattern's backtracking is bounded by the length of its input,
so a bounded input is a bounded cost, whatever the pattern). A pattern handed more is
not run — the field is reported instead, so a quadratic pattern fails this test at once
rather than stalling it.
"""

import re
import sys
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.models import Player, User, db
from tests.conftest import Table

pytestmark = pytest.mark.slow  # a few hundred requests, some of them traced line by line

SIZE = 100 * 1024
#: The most characters any one pattern of the app may be handed from a request.
PATTERN_BUDGET = 1000
#: Line events a request may gain when its field doubles from 50 KB to 100 KB: none is
#: expected, 2% allows for caches warming up (the count page gained 1.3% once in a full
#: run, none alone). A loop over what was sent would add at least one line per character:
#: 51,200, 15% of the largest page's 341,000.
GROWTH_ALLOWED = 0.02
#: The hostile text whose work is counted line by line, at 50 KB and then at 100 KB.
LINES_COUNTED = "a French decimal in spaces"


def hostile(size: int) -> dict[str, str]:
    """Text that costs a backtracking pattern most: runs that several parts of a pattern
    can each take (spaces around a French decimal, digits, thousands separators)."""
    half = size // 2
    return {
        "spaces then x": " " * (size - 1) + "x",
        "a French decimal in spaces": " " * half + "1,00" + " " * (size - half - 5) + "x",
        "digits": "1" * size,
        "thousands": "1," * half,
    }


# Every form on the pages, found as a browser finds them -------------------------------

TYPED = {"text", "number", "password", "hidden", "date", "search", "tel", "email", "url"}


class Forms(HTMLParser):
    """The POST forms of a page: action, the typed fields, and what a browser sends."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                self.forms.append({"action": a.get("action", ""), "data": {}, "typed": []})
            else:
                self.forms.append({"action": None, "data": {}, "typed": []})
            return
        if not self.forms or "name" not in a:
            return
        form, name = self.forms[-1], a["name"]
        kind = a.get("type", "text" if tag == "input" else tag).lower()
        if tag == "textarea" or (tag == "input" and kind in TYPED):
            form["data"].setdefault(name, a.get("value", ""))
            if name != "csrf_token":
                form["typed"].append(name)
        elif tag == "input" and kind in ("radio", "checkbox"):
            if "checked" in a or (kind == "radio" and name not in form["data"]):
                form["data"][name] = a.get("value", "on")
        elif kind == "submit":
            # The button that sends the form on (not "Fill in these rules" and the like).
            if not form.get("submit") or name.endswith("submit"):
                form["data"].pop(form.get("submit"), None)
                form["submit"] = name
                form["data"][name] = a.get("value", "1")
        elif tag == "select":
            self._select = name
        elif (
            tag == "option"
            and self._select
            and (self._select not in form["data"] or "selected" in a)
        ):
            form["data"][self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


#: What a person types in the fields that start empty, so that the form gets as far as it can.
FILLED = {"player0": "Ana", "player1": "Ben"}


def forms_on(client: FlaskClient, path: str) -> list[tuple[str, dict[str, str], list[str]]]:
    """(where it posts, what it sends untouched, its typed fields) for each POST form."""
    response = client.get(path)
    assert response.status_code == 200, path
    parser = Forms()
    parser.feed(response.get_data(as_text=True))
    found = []
    for form in parser.forms:
        if form["action"] is None or not form["typed"]:
            continue
        action = form["action"] or path
        data = {**form["data"], **{k: v for k, v in FILLED.items() if form["data"].get(k) == ""}}
        found.append((action, data, sorted(set(form["typed"]))))
    return found


# Counting what a request costs --------------------------------------------------------


class TooMuchForAPattern(Exception):
    """A pattern was about to read more than the budget: reported, not run."""


def _within_budget(where: str, *args: Any, **kwargs: Any) -> None:
    longest = max((len(a) for a in (*args, *kwargs.values()) if isinstance(a, str)), default=0)
    if longest > PATTERN_BUDGET:
        raise TooMuchForAPattern(f"{where} handed {longest} characters")


class PatternSpy:
    """A compiled pattern of the app that refuses to read more than the budget."""

    def __init__(self, pattern: re.Pattern[str], where: str) -> None:
        self._pattern, self._where = pattern, where

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._pattern, name)
        if not callable(method):
            return method

        def spied(*args: Any, **kwargs: Any) -> Any:
            _within_budget(self._where, *args, **kwargs)
            return method(*args, **kwargs)

        return spied


@pytest.fixture
def patterns_spied(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every regular expression the app keeps, and every ``re`` function it calls, spied."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("scorekeeper"):
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, re.Pattern):
                monkeypatch.setattr(module, attribute, PatternSpy(value, f"{name}.{attribute}"))
    for function in ("match", "fullmatch", "search", "sub", "subn", "split", "findall"):
        monkeypatch.setattr(re, function, _spied(getattr(re, function)))


def _spied(original: Callable[..., Any]) -> Callable[..., Any]:
    """``re.sub`` and the like, within the budget when the app calls them."""

    def spied(pattern: Any, *args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if caller.startswith("scorekeeper"):
            _within_budget(f"re.{original.__name__} in {caller}", *args, **kwargs)
        return original(pattern, *args, **kwargs)

    return spied


def line_events(send: Callable[..., Any], *args: Any) -> tuple[int, Any]:
    """How many lines the interpreter ran to answer ``send(*args)``, and the answer. The page's
    templates are left out (writing out what was sent is escaping it, in C, once): counting
    them would only make the count slower."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        count += 1
        return local

    def global_(frame: Any, event: str, arg: Any) -> Any:
        where = frame.f_code.co_filename
        return None if where.endswith(".html") or "/jinja2/" in where else local

    sys.settrace(global_)
    try:
        answer = send(*args)
    finally:
        sys.settrace(None)
    return count, answer


# The pages ------------------------------------------------------------------------------


@pytest.fixture
def pages(app: Flask, table: Table) -> list[str]:
    """A page of every kind that has a form: a game with a deal, a finished game owed,
    a season, a member."""
    game = table.start_game()
    assert table.record(game, 0, (100, 50)).status_code == 302
    done = table.start_game("Cy", "Di")
    assert table.record(done, 0, (1250, 50), confirm=True).status_code == 302
    season = table.client.post(
        "/leagues/our-table/seasons",
        data={"name": "Spring", "starts_on": "2025-01-01", "ends_on": "2025-06-30"},
    )
    assert season.status_code == 302
    with app.app_context():
        cy, di = (
            db.session.scalar(db.select(Player.id).where(Player.name == name))
            for name in ("Cy", "Di")
        )
        season_id = db.session.scalar(db.text("SELECT max(id) FROM season"))
    return [
        "/leagues/our-table/games/new",
        f"/games/{game}",
        f"/games/{game}/deals/1",
        f"/games/{game}/count",
        f"/games/{game}/deals/1/count",
        "/leagues/our-table/players",
        "/leagues/our-table/settings",
        "/leagues/our-table/members",
        "/leagues/our-table/seasons",
        f"/leagues/our-table/seasons/{season_id}",
        f"/leagues/our-table/owes/{cy}/{di}",
        "/leagues/our-table/tonight",
        "/leagues/new",
        "/account",
    ]


@pytest.fixture
def invitation(table: Table) -> str:
    """The page an invitation link opens, for someone without an account."""
    made = table.client.post("/leagues/our-table/invitations", data={"role": "2"})
    assert made.status_code == 201
    link = re.search(r"https?://[^/]+(/invitations/[^<\s\"]+)", made.text)
    assert link, made.text[:500]
    return link.group(1)


def _post(client: FlaskClient, action: str, data: dict[str, str]) -> Any:
    return client.post(action, data=data)


def _fields(client: FlaskClient, paths: list[str]) -> Iterator[tuple[str, dict[str, str], str]]:
    """Each typed field of each form: one of each row of a list (the counting help's sets
    ``p0-sets-3-naturals`` are one field declared once, repeated)."""
    seen = set()
    for path in paths:
        for action, data, typed in forms_on(client, path):
            for field in typed:
                kind = (action, re.sub(r"\d+", "#", field))
                if kind not in seen:
                    seen.add(kind)
                    yield action, data, field


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_field_costs_more_work_at_100_kb(
    app, table, pages, invitation, language, patterns_spied
):
    """Each typed field of every form, 100 KB of each hostile text: no pattern is handed
    more than its budget, nothing fails, and the lines run do not grow from 50 KB to 100 KB."""
    table.client.set_cookie("lang", language)
    signed_out = app.test_client()
    signed_out.set_cookie("lang", language)
    targets = [(table.client, *found) for found in _fields(table.client, pages)]
    targets += [(signed_out, *found) for found in _fields(signed_out, ["/login", invitation])]
    assert len(targets) > 40
    too_much: list[str] = []
    grew: list[str] = []

    def send(
        client: FlaskClient,
        action: str,
        data: dict[str, str],
        field: str,
        text: str,
        count: bool = False,
    ) -> Any:
        """Lines run to answer (when counted), or None when a pattern was handed too much."""
        data = {**data, field: text}
        try:
            if count:
                lines, answer = line_events(_post, client, action, data)
            else:
                lines, answer = 0, _post(client, action, data)
        except TooMuchForAPattern as refused:
            too_much.append(f"{action} {field}: {refused}")
            return None
        assert answer.status_code < 500, (action, field)
        return lines

    for client, action, data, field in targets:
        for shape, text in hostile(SIZE).items():
            if shape != LINES_COUNTED:
                send(client, action, data, field, text)
        lines = [
            send(client, action, data, field, hostile(size)[LINES_COUNTED], count=True)
            for size in (SIZE // 2, SIZE)
        ]
        if None not in lines and lines[1] - lines[0] > GROWTH_ALLOWED * lines[0] + 100:
            grew.append(f"{action} {field}: {lines[0]} lines at 50 KB, {lines[1]} at 100 KB")
    assert too_much == []
    assert grew == []


def test_the_setup_page_bounds_its_fields_too(app, patterns_spied):
    """Before the first account exists (the other pages need one): each field, 100 KB, is
    refused beside itself, in both languages."""
    with app.app_context():
        db.session.execute(db.delete(User))
        db.session.commit()
    client = app.test_client()
    for language in ("en", "fr"):
        client.set_cookie("lang", language)
        for action, data, typed in forms_on(client, "/setup"):
            for field in typed:
                for text in hostile(SIZE).values():
                    answer = _post(client, action, {**data, field: text})
                    assert answer.status_code == 200
                    assert f'id="{field}-error"' in answer.get_data(as_text=True)
