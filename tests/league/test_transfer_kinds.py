"""Games of every kind go out of a league and come back whole: the JSON export and import
(round trip byte-identical), and the CSV export and import (a section per game)."""

import copy
import io
import json
import re

import pytest
from sqlalchemy import select

from scorekeeper.engine import Rules, Seat, Stakes, Tally
from scorekeeper.engine.games import KINDS, kind_named
from scorekeeper.league import service as league_service
from scorekeeper.league.kind_standings import kind_standings
from scorekeeper.league.transfer import export_csv, export_json
from scorekeeper.league.transfer.kind_csv import columns_of
from scorekeeper.league.transfer.plan import ImportProblems
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.read_json import parse_json
from scorekeeper.league.transfer.save import import_all
from scorekeeper.models import MILLE, Deal, Game, League, Movement, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import closing, kind_service, starting
from scorekeeper.table import service as game_service
from tests.conftest import WIKIPEDIA_CARD

#: A game of each other kind: its players, rules, stakes (cents), deals, and what happens to
#: it once they are recorded ("finish" a sitting, mark it "paid", "abandon" it).
OTHER_GAMES = [
    (
        "rummy",
        ["Ana", "Ben", "Cy"],
        {},
        {"point": 5},
        [{"out": 1, "counts": [23, 0, 7]}, {"out": 0, "counts": [0, 12, 30], "rummy": True}],
        (),
    ),
    (
        "boathouse-rummy",
        ["Ana", "Ben"],
        {},
        {"point": 10},
        [{"out": 0, "counts": [0, 45]}, {"out": 1, "counts": [104, 0]}],
        ("finish", "paid"),
    ),
    (
        "continental-rummy",
        ["Ana", "Ben", "Cy", "Dan", "Eve"],
        {},
        {"unit": 25},
        [{"out": 2, "jokers": 2}, {"out": 4, "jokers": 0}],
        ("finish",),
    ),
    (
        "gamblers-rummy",
        ["Ana", "Ben", "Cy", "Dan"],
        {},
        {"point": 10},
        [{"out": None, "counts": [12, 30, 4, 9]}, {"out": 3, "counts": [5, 8, 2, 0]}],
        ("abandon",),
    ),
    (
        "knock-rummy",
        ["Ana", "Ben", "Cy"],
        {},
        {"point": 10},
        [{"knocker": 0, "counts": [6, 6, 14]}, {"knocker": 2, "counts": [20, 15, 0]}],
        (),
    ),
    (
        "scotch-whist",
        ["Ana", "Ben", "Cy", "Dan"],
        {"target": 41, "partnerships": True},
        {"game": 100},
        [
            {"honours": {"jack": 0, "ace": 0, "king": 0, "queen": 0, "ten": 0}, "cards": [28, 8]},
            {"honours": {"jack": 0, "ace": 1, "king": 1, "queen": 1, "ten": 1}, "cards": [20, 16]},
        ],
        ("paid",),
    ),
    (
        "scotch-whist",
        ["Cy", "Dan", "Eve"],
        {},
        {"game": 50},
        [{"honours": {"jack": 2, "ace": 0, "king": 1, "queen": 0, "ten": 2}, "cards": [12, 6, 18]}],
        (),
    ),
    (
        "spoil-five",
        ["Ana", "Ben", "Cy", "Dan"],
        {},
        {"ante": 25, "maximum": 200},
        [
            {"winner": None},
            {"winner": 3, "jink": "none"},
            {"winner": 1, "jink": "won"},
            {"winner": 2, "jink": "failed"},
            {"winner": None},
        ],
        ("finish",),
    ),
    ("knock-rummy", ["Eve", "Ana"], {}, {"point": 1}, [], ()),  # no deal yet
]


def fill(league_id: int) -> None:
    """Mille (finished and paid, and in progress) and every other game, as the app keeps
    them: a finished Spoil Five sitting with its pool given back, Scotch Whist in
    partnerships, a paid game and an abandoned one."""
    mille = starting.start_game(league_id, ("Ana", "Ben"), Rules(), Stakes.from_small(100), Seat(0))
    for out, scores, stars in WIKIPEDIA_CARD:
        game_service.record_deal(mille.id, Tally(Seat(out), scores, stars))
    closing.mark_paid(mille.id)
    for kind, names, rules, stakes, deals, then in OTHER_GAMES:
        game = starting.start_game_of(kind_named(kind), league_id, names, rules, stakes, 1)
        for entry in deals:
            kind_service.record(game.id, entry)
        for step in then:
            {"finish": kind_service.finish, "paid": closing.mark_paid, "abandon": closing.abandon}[
                step
            ](game.id)
    progress = starting.start_game(
        league_id, ("Cy", "Dan"), Rules(), Stakes.from_small(25), Seat(1)
    )
    game_service.record_deal(progress.id, Tally(Seat(1), (-20, 300), (0, 0)))
    db.session.remove()


@pytest.fixture
def every_game(app):
    with app.app_context():
        league_id = league_by_slug("our-table").id
        fill(league_id)
    return league_id


def exported(slug: str) -> str:
    league = db.session.scalars(select(League).where(League.slug == slug)).one()
    return "".join(export_json.export_json(league))


def without_head(text: str) -> str:
    """The export but for when it was made and the league's name and address."""
    text = re.sub(r'\n "exported_at": "[^"]*",', "", text)
    return re.sub(r'\n "league": \{[^}]*\},', "", text)


def without_ids(text: str) -> str:
    """… and the ids the games have in this database."""
    return re.sub(r'\n +"id": \d+,', "", without_head(text))


def stored(league_id: int) -> list:
    """Every row a game keeps, as the game service wrote it (but its id and version)."""
    games = db.session.scalars(
        select(Game).where(Game.league_id == league_id).order_by(Game.id)
    ).all()
    found = []
    for game in games:
        row = {c.name: getattr(game, c.name) for c in Game.__table__.columns}
        for column in ("id", "league_id", "player0_id", "player1_id", "version", "paid_by_id"):
            row.pop(column)
        row.pop("abandoned_by_id")
        deals = [
            {
                c.name: getattr(d, c.name)
                for c in Deal.__table__.columns
                if c.name not in ("id", "game_id")
            }
            for d in game.deals
        ]
        movements = db.session.execute(
            select(
                Movement.deal_number,
                Movement.payer_seat,
                Movement.payee_seat,
                Movement.amount,
                Movement.reason,
            )
            .where(Movement.game_id == game.id)
            .order_by(Movement.id)
        ).all()
        seats = [(s.seat, s.player.name) for s in game.seats]
        found.append((row, deals, [tuple(m) for m in movements], seats))
    return found


def answers(league_id: int) -> list:
    """What the API answers for each game of another kind, but its id, league and version."""
    from scorekeeper.api.kind_answers import game_answer

    games = db.session.scalars(
        select(Game).where(Game.league_id == league_id, Game.kind != MILLE).order_by(Game.id)
    ).all()
    return [
        {k: v for k, v in game_answer(game).items() if k not in ("id", "league", "version")}
        for game in games
    ]


def standings(league_id: int) -> dict:
    return {
        kind: [(r.name, r.played, r.won, r.net) for r in kind_standings(league_id, kind)]
        for kind in KINDS
        if kind != MILLE
    }


def test_every_game_makes_the_json_round_trip_byte_for_byte(app, every_game):
    with app.app_context():
        first = exported("our-table")
        games = json.loads(first)["games"]
        assert sum("game" in game for game in games) == len(OTHER_GAMES)  # Mille's say nothing
        plan = parse_json(json.loads(first))
        copy_id = league_service.create_league("Copy").id
        assert import_all(copy_id, plan) == "Imported 11 games (26 deals)."
        again = exported("copy")
        assert without_ids(again) == without_ids(first)
        assert stored(copy_id) == stored(every_game)
        assert answers(copy_id) == answers(every_game)
        assert standings(copy_id) == standings(every_game)
        assert any(rows for rows in standings(every_game).values())


def test_the_json_export_of_another_game_says_it_as_the_api_does(app, every_game):
    with app.app_context():
        data = json.loads(exported("our-table"))
    by_kind = {game.get("game", MILLE): game for game in data["games"]}
    assert "game" not in data["games"][0]
    spoil = by_kind["spoil-five"]
    assert spoil["players"] == ["Ana", "Ben", "Cy", "Dan"]
    assert spoil["rules"] == {}
    assert spoil["stakes"] == {"ante": "0.25", "dealer": "0.25", "maximum": "2.00"}
    assert spoil["first_dealer"] == 1
    assert spoil["deals"][0]["entry"] == {"winner": None, "jink": "none"}
    assert spoil["status"] == "finished"
    assert spoil["pool"] == "0.00"  # given back when the sitting ended
    assert sum(int(b.replace(".", "")) for b in spoil["balances"]) == 0
    whist = next(g for g in data["games"] if g.get("game") == "scotch-whist")
    assert whist["rules"] == {"target": 41, "partnerships": True}
    assert (whist["totals"], whist["winner"], whist["status"]) == ([53, 19], [0, 2], "finished")
    assert whist["paid_at"] is not None
    gamblers = by_kind["gamblers-rummy"]
    assert gamblers["abandoned_at"] is not None
    assert gamblers["deals"][0]["entry"] == {"out": None, "counts": [12, 30, 4, 9]}


@pytest.mark.slow
def test_every_game_is_the_same_file_in_another_database(app, every_game, sqlite_app):
    """Into a database of its own (SQLite; in the PostgreSQL run, from PostgreSQL), the same
    ids: byte for byte the same file but for when it was made."""
    with app.app_context():
        first = exported("our-table")
    with sqlite_app.app_context():
        league_id = league_by_slug("our-table").id
        assert import_all(league_id, parse_json(json.loads(first))).startswith("Imported 11")
        again = exported("our-table")
        db.session.remove()
    assert re.sub(r'"exported_at": "[^"]*"', "", again) == re.sub(
        r'"exported_at": "[^"]*"', "", first
    )


def refusal(app, data) -> list[str]:
    """What an import of ``data`` says, with nothing saved."""
    with app.app_context():
        before = db.session.scalar(select(db.func.count(Game.id)))
        with pytest.raises(ImportProblems) as refused:
            parse_json(data)
        assert db.session.scalar(select(db.func.count(Game.id))) == before
    return refused.value.problems


def other_game(data, kind):
    return next(i for i, g in enumerate(data["games"]) if g.get("game") == kind)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda g: g.update(game="poker"), "game is 'poker'; the games are rummy, "),
        (lambda g: g.update(players=["Ana", "Ana", "Cy", "Dan"]), "players: Each player can sit"),
        (lambda g: g.update(players=["Ana"]), "players: This game takes 2 to 10 players."),
        (lambda g: g["stakes"].update(ante=25), "can't be read"),
        (lambda g: g["stakes"].update(ante="0.00"), "stakes.ante: A stake must be from"),
        (lambda g: g["stakes"].update(tip="1.00"), "stakes.tip: There is no such field"),
        (lambda g: g.update(first_dealer=4), "first_dealer: The first dealer must be one of"),
        (lambda g: g["deals"][1]["entry"].update(winner=7), "deal 2: winner: This must be a seat"),
        (lambda g: g["deals"][1].update(entry=3), "deal 2: needs its entry"),
        (lambda g: g.update(balances=["0.00"] * 4), "balances is ['0.00', '0.00', '0.00', '0.00']"),
        (lambda g: g.update(pool="1.00"), "pool is '1.00' in the file, but its deals give '0.00'."),
        (lambda g: g.update(finished_at=None), "status is 'finished' in the file, but its deals"),
        (lambda g: g.update(created_at="9999-01-01"), "created_at is '9999-01-01'; give a day"),
        (lambda g: g.update(deals={}), "can't be read"),
    ],
)
def test_a_json_file_with_a_wrong_game_of_another_kind_is_refused(app, every_game, change, problem):
    with app.app_context():
        data = json.loads(exported("our-table"))
    data = copy.deepcopy(data)
    index = other_game(data, "spoil-five")
    change(data["games"][index])
    problems = refusal(app, data)
    assert all(found.startswith(f"game {index + 1} (id ") for found in problems), problems
    assert any(problem in found for found in problems), problems


def test_a_scotch_whist_deal_after_its_end_and_a_sitting_ended_before_a_deal_are_refused(
    app, every_game
):
    with app.app_context():
        data = json.loads(exported("our-table"))
    whist = data["games"][other_game(data, "scotch-whist")]
    whist["deals"].append(whist["deals"][0])
    knock = data["games"][-2]
    assert (knock["game"], knock["deals"]) == ("knock-rummy", [])
    knock["finished_at"] = knock["created_at"]
    knock.pop("status")
    problems = refusal(app, data)
    assert "deal 3: " in problems[0]
    assert "A sitting ends after a deal" in problems[1]
    assert len(problems) == 2


def test_a_json_league_of_mille_alone_reads_no_seats(app, table, client, public):
    """A league of Mille's games exports as it always did: no statement for other games."""
    game = table.start_game()
    table.record(game, 0, (150, -50))
    statements = []

    def count(*args):
        statements.append(args[2])

    with app.app_context():
        engine = db.engine
        from sqlalchemy import event

        event.listen(engine, "before_cursor_execute", count)
        try:
            text = exported("our-table")
        finally:
            event.remove(engine, "before_cursor_execute", count)
    assert '"game"' not in text
    assert not any("game_seat" in statement for statement in statements)


# The CSV: a section per game ----------------------------------------------------------------


def exported_csv(slug: str) -> str:
    league = db.session.scalars(select(League).where(League.slug == slug)).one()
    return "".join(export_csv.export_csv(league.id))


def without_keys(text: str) -> str:
    """The CSV but for its games' keys (their ids in this database)."""
    return re.sub(r"(?m)^\d+,", "_,", text)


def test_every_game_makes_the_csv_round_trip(app, every_game):
    """A section per game, which the import reads back: the same games, deals and money
    (abandoned games and games without a deal are not on a score card)."""
    with app.app_context():
        first = exported_csv("our-table")
        sections = first.split("\n\n")
        assert sections[0].startswith("game,date,player_a,player_b,preset,")  # Mille's, as ever
        kinds = [section.split("\n")[1].split(",")[1] for section in sections[1:]]
        assert kinds == [k for k in KINDS if k not in (MILLE, "gamblers-rummy")]
        for section, kind in zip(sections[1:], kinds, strict=True):
            assert section.split("\n")[0] == ",".join(columns_of(kind_named(kind)))
        copy_id = league_service.create_league("From CSV").id
        assert import_all(copy_id, parse_csv(first)) == "Imported 9 games (24 deals)."
        assert without_keys(exported_csv("from-csv")) == without_keys(first)
        assert answers_by_csv(copy_id) == answers_by_csv(every_game)
        assert standings(copy_id) == standings(every_game)  # the abandoned game counts for none


def answers_by_csv(league_id: int) -> list:
    """What the CSV carries of each game of another kind: the API's answer, but for its
    moments (whole seconds, one date a game) and the games a CSV leaves out."""
    moments = ("created_at", "finished_at", "paid_at")
    return [
        {k: v for k, v in answer.items() if k not in moments} | {"paid": bool(answer["paid_at"])}
        for answer in answers(league_id)
        if answer["deals"] and answer["game"] != "gamblers-rummy"
    ]


def test_a_csv_section_reads_seats_by_letter_or_name_and_sides_by_a_seat(app):
    text = (
        "game,kind,date,player_a,player_b,player_c,player_d,target,partnerships,stake_game,"
        "finished,deal,honours_jack,honours_ace,honours_king,honours_queen,honours_ten,cards_a,"
        "cards_b\n"
        "w,Scotch-Whist,2025-03-14,Ana,Ben,Cy,Dan,,yes,1,,,a,c,Ben,b+d,a+c,28,8\n"
        "\n"
        "game,kind,date,player_a,player_b,player_c,stake_point,first_dealer,deal,knocker,"
        "counts_a,counts_b,counts_c\n"
        "k,knock-rummy,2025-03-15,Ana,Ben,Cy,0.10,cy,1,ana,6,6,14\n"
        "k,,,,,,,,2,c,20,15,0\n"
    )
    with app.app_context():
        league_id = league_by_slug("our-table").id
        assert import_all(league_id, parse_csv(text)) == "Imported 2 games (3 deals)."
        whist, knock = db.session.scalars(select(Game).order_by(Game.id)).all()
        assert whist.setup == {
            "rules": {"target": 41, "partnerships": True},
            "stakes": {"game": 100},
        }
        assert whist.deals[0].entry == {
            "honours": {"jack": 0, "ace": 0, "king": 1, "queen": 1, "ten": 0},
            "cards": [28, 8],
        }
        assert (knock.first_dealer, [d.entry["knocker"] for d in knock.deals]) == (2, [0, 2])
        assert [d.winner_seat for d in knock.deals] == [1, 2]
        assert knock.status == "in_progress"


MISTAKES = (
    "game,kind,date,player_a,player_b,player_c,stake_point,finished,paid,deal,out,counts_a,"
    "counts_b,counts_c,rummy,jokers\n"
    "1,rummy,2025-03-14,Ana,Ben,Cy,0.10,,,1,b,23,0,71,maybe,\n"  # line 2
    "1,,,,,,,,,3,z,1,2,3,,\n"  # line 3
    "2,poker,2025-03-14,Ana,Ben,,0.10,,,1,a,0,5,,,\n"  # line 4
    "3,continental-rummy,2025-03-14,Ana,Ben,Ana,,,,1,a,,,,,1\n"  # line 5
    "4,boathouse-rummy,2025-03-14,Ana,Ben,,1,no,yes,1,a,0,1,,,2\n"  # line 6
    "\n"
    "game,kind,date,player_a,player_b,stake_game,finished,deal,honours_jack,honours_ace,"
    "honours_king,honours_queen,honours_ten,cards_a,cards_b\n"  # line 8
    "5,scotch-whist,2025-03-14,Ana,Ben,1,no,1,a,a,a,a,a,36,0\n"  # line 9
    "5,,,,,,,2,b,b,b,b,b,0,36\n"  # line 10
    "6,scotch-whist,2025-03-14,Ana,Ben,1,,1,c,a,a,a,b+d,30,6\n"  # line 11
    "7,scotch-whist,2025-03-14,Ana,Ben,1,no,1,a,a,a,a,a,36,0\n"  # line 12
)


def test_a_csv_section_with_mistakes_is_refused_line_by_line_and_saves_nothing(app, table):
    response = table.client.post(
        "/leagues/our-table/import",
        data={"format": "csv", "file": (io.BytesIO(MISTAKES.encode()), "cards.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True).replace("&#39;", "'").replace("&#34;", '"')
    found = re.findall(r"<li>(line \d+: [^<]*)</li>", page)
    expected = [
        "line 2: counts_c: A count is a whole number from 0 to 70.",
        "line 2: rummy: This must be true or false.",
        "line 3: deal is '3', but this row is deal 2 of game 1; keep a game's deals in order.",
        "line 3: out: 'z' is not a seat; write a seat's letter (a to c) or a player's name.",
        "line 4: kind: 'poker' is not one of rummy, boathouse-rummy, continental-rummy, "
        "gamblers-rummy, knock-rummy, scotch-whist, spoil-five (Mille's games go in a section "
        "of Mille's columns).",
        "line 5: player_c: Each player can sit at the table once: Ana is there already.",
        "line 6: counts_b: No card is worth 1 here, so a count can't be 1.",
        "line 6: jokers: boathouse-rummy has no such column; leave it empty.",
        "line 12: finished: by its deals, game 7 is finished: write yes.",
        "line 10: the game already ended with the deal on line 9 (deal 1); no deal can follow "
        "the end of a game.",
        "line 11: honours_jack: 'c' is not a side; write one of a, b.",
        "line 11: honours_ten: 'b+d' is not a side; write one of a, b.",
    ]
    assert sorted(found) == sorted(expected), "\n".join(found)
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Game.id))) == 0


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        ("game,kind,date,player_a,player_b,tip", "line 1: unknown column 'tip': no game has it."),
        ("game,kind,date,player_a", "line 1: missing column: player_b."),
        ("game,kind,date,player_a,player_b,deal,deal", "line 1: the column deal appears twice."),
    ],
)
def test_a_csv_section_header_is_checked(app, header, problem):
    with app.app_context(), pytest.raises(ImportProblems) as refused:
        parse_csv(header + "\n1,rummy,2025-03-14,Ana,Ben\n")
    assert refused.value.problems == [problem]


# Backups: generic over every table, so they carry every game -----------------------------


def test_a_backup_of_every_game_restores_to_the_same_backup_byte_for_byte(
    app, every_game, tmp_path
):
    from scorekeeper.ops import backup, restore

    first, again = tmp_path / "first.json", tmp_path / "again.json"
    with app.app_context():
        before = exported("our-table"), exported_csv("our-table"), answers(every_game)
        backup.backup(str(first))
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        restore.restore(str(first))
        backup.backup(str(again))
        after = exported("our-table"), exported_csv("our-table"), answers(every_game)
    assert again.read_bytes() == first.read_bytes()
    assert without_head(after[0]) == without_head(before[0])
    assert after[1:] == before[1:]


def test_the_readme_example_of_another_game_imports(app):
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    section = readme[readme.index("### The other games in a CSV") :]
    example = re.search(r"\n\n((?:    .*\n)+)", section)[1]
    text = "\n".join(line[4:] for line in example.splitlines())
    with app.app_context():
        league_id = league_by_slug("our-table").id
        assert import_all(league_id, parse_csv(text)) == "Imported 1 games (2 deals)."
        game = db.session.scalars(select(Game)).one()
        assert (game.kind, game.status, game.paid_at is not None) == (
            "knock-rummy",
            "finished",
            True,
        )
        assert [p["amount"] for p in answers(league_id)[0]["settlement"]["payments"]]


@pytest.mark.parametrize(
    "change",
    [
        {"game": None},
        {"game": ["rummy"]},
        {"players": "Ana"},
        {"players": [None, {"a": 1}, 3, "Dan"]},
        {"players": ["Ana", "Ben\x00", "Cy", "Dan"]},
        {"rules": "x"},
        {"rules": {"partnerships": "yes"}},
        {"stakes": []},
        {"stakes": {"ante": "1e400"}},
        {"first_dealer": "0"},
        {"first_dealer": 1e300},
        {"created_at": 5},
        {"deals": [None, [], {"entry": {"winner": {"a": 1}, "jink": 3}}]},
        {"deals": [{"entry": {"winner": 10**40}}]},
        {"id": "x"},
    ],
)
def test_a_hostile_json_game_of_another_kind_is_a_422_never_a_500(app, every_game, table, change):
    with app.app_context():
        data = json.loads(exported("our-table"))
        league_service.create_league("Copy")
    data["games"][other_game(data, "spoil-five")].update(change)
    response = table.client.post(
        "/leagues/copy/import",
        data={"format": "json", "file": (io.BytesIO(json.dumps(data).encode()), "l.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422, response.get_data(as_text=True)[-500:]
    with app.app_context():
        assert league_by_slug("copy").games == []
