"""A JSON backup is written and read a batch at a time (issue 26): what comes back is the
league as it was, whatever the batches, the layout or the order of the file, and a file
damaged anywhere changes nothing."""

import io
import json

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import json_stream
from scorekeeper.models import Deal, db
from scorekeeper.ops import backup, bulk, restore
from scorekeeper.ops.cli import ProgressBar
from tests.ops.test_backup import every_row, fill_every_table


@pytest.fixture
def small_pieces(monkeypatch):
    """Batches of 3 rows and reads of 64 bytes: every row of a small league crosses one."""
    monkeypatch.setattr(bulk, "BATCH", 3)
    monkeypatch.setattr(json_stream, "CHUNK", 64)
    monkeypatch.setattr(json_stream, "MARGIN", 16)


@pytest.fixture
def league(app, table, api, auth, wikipedia_card):
    """Rows in every table; the administrator's API token still works."""
    fill_every_table(app, table, api, auth, wikipedia_card)
    return every_row(app)


def nulls(app):
    """How each kind of None is kept: SQL NULL (a deal's cards) or JSON null (an event's
    ``before``), which a query can tell apart."""
    with app.app_context():
        counts = [
            db.session.scalar(sa.text(f"SELECT count(*) FROM {table} WHERE {column} IS NULL"))
            for table, column in (("deal", "cards"), ("audit_event", "before"))
        ]
        db.session.remove()
    return counts


def test_a_backup_written_and_read_in_small_pieces_brings_every_row_back(
    app, league, small_pieces, tmp_path
):
    file = tmp_path / "league.json"
    told = []
    with app.app_context():
        summary = backup.backup(str(file), lambda done, total, unit: told.append((done, total)))
    assert summary == "1 league, 7 players, 4 games, 10 deals, 2 users"  # one of Spoil Five
    rows = sum(len(table) for name, table in league.items() if name != "alembic_version")
    assert told[0] == (0, rows)
    assert told[-1] == (rows, rows)
    assert [done for done, _ in told] == sorted(done for done, _ in told)
    assert len(told) > rows / 3  # a report per batch
    kept_as = nulls(app)
    assert kept_as == [9, 0]  # deals typed in: SQL NULL; no "before" yet: JSON null
    table_rows = json.loads(file.read_text())["tables"]
    assert list(table_rows)[:2] == ["league", "user"]  # parents before children
    with app.app_context():  # what changed since the backup goes
        db.session.execute(sa.text("DELETE FROM deal WHERE number > 3"))
        db.session.commit()
    told.clear()
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code == 0, result.output
    assert every_row(app) == league
    assert nulls(app) == kept_as


def write_as_before_streaming(app, path):
    """A backup as the app wrote them before it streamed: indented, keys sorted (so the
    tables in alphabetical order, children before their parents)."""
    with app.app_context():
        data = backup.dump()
    path.write_text(json.dumps(data, indent=1, sort_keys=True))
    return data


def test_a_backup_laid_out_as_before_streaming_is_restored(app, league, small_pieces, tmp_path):
    file = tmp_path / "old-layout.json"
    data = write_as_before_streaming(app, file)
    assert next(iter(data["tables"])) == "league"
    assert sorted(data["tables"])[0] == "api_token"  # which needs "user" in first
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code == 0, result.output
    assert every_row(app) == league


def test_a_backup_with_its_tables_before_its_format_is_restored(app, league, tmp_path):
    with app.app_context():
        data = backup.dump()
    file = tmp_path / "tables-first.json"
    file.write_text(json.dumps({"tables": data["tables"], "schema": data["schema"], **data}))
    assert next(iter(json.loads(file.read_text()))) == "tables"
    with app.app_context():
        restore.restore(str(file))
    assert every_row(app) == league


def damaged(data, change):
    copy = json.loads(json.dumps(data))
    change(copy["tables"])
    return json.dumps(copy)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda tables: tables["deal"][-1].update(created_at="yesterday"),
            "This backup is damaged: Invalid isoformat string: 'yesterday'",
        ),
        (
            lambda tables: tables["deal"].append("a deal"),
            "This backup is damaged: its tables are not lists of rows",
        ),
        (
            lambda tables: tables["deal"][-1].update(game_id=999),
            "The database refused this backup:",
        ),
        (
            lambda tables: tables.update(scores=[]),
            "This backup has tables the schema",
        ),
    ],
)
def test_a_backup_damaged_in_its_last_rows_changes_nothing(
    app, league, small_pieces, tmp_path, change, message
):
    with app.app_context():
        data = backup.dump()
    file = tmp_path / "damaged.json"
    file.write_text(damaged(data, change))
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert every_row(app) == league


def foreign_keys(app):
    """Every foreign key of the schema, as the database describes it."""
    with app.app_context(), db.engine.connect() as connection:
        found = sa.inspect(connection)
        keys = {name: found.get_foreign_keys(name) for name in found.get_table_names()}
    return keys


def test_the_foreign_keys_are_as_before_after_a_restore_and_after_a_refused_one(
    app, league, small_pieces, tmp_path
):
    """PostgreSQL's restore drops the keys while the rows go in and adds them back, each
    checked once over its table (as pg_restore does): a restore, good or refused, leaves
    every key as it was, and the keys still refuse a row with no parent."""
    keys = foreign_keys(app)
    assert sum(len(each) for each in keys.values()) > 20
    file = tmp_path / "league.json"
    with app.app_context():
        data = backup.dump()
        restore.load(data)
    assert foreign_keys(app) == keys
    file.write_text(damaged(data, lambda tables: tables["deal"][-1].update(game_id=999)))
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert "The database refused this backup:" in result.output
    assert foreign_keys(app) == keys
    with app.app_context():
        orphan = dict(db.session.execute(sa.select(Deal.__table__)).mappings().first())
        orphan.update(id=orphan["id"] + 1000, game_id=999)
        with pytest.raises(sa.exc.IntegrityError, match=r"(?i)foreign key"):
            db.session.execute(sa.insert(Deal.__table__), orphan)
        db.session.rollback()


def test_a_backup_cut_short_changes_nothing(app, league, tmp_path):
    file = tmp_path / "league.json"
    with app.app_context():
        backup.backup(str(file))
    whole = file.read_bytes()
    file.write_bytes(whole[: len(whole) * 3 // 4])
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code == 1
    assert "This backup is damaged:" in result.output
    assert every_row(app) == league


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_command_line_shows_how_many_rows_how_fast_and_how_long_is_left(app, league, tmp_path):
    screen = Terminal()
    bar = ProgressBar("Backing up", file=screen)
    with app.app_context():
        backup.backup(str(tmp_path / "league.json"), bar)
    bar.close()
    drawn = screen.getvalue()
    rows = sum(len(table) for name, table in league.items() if name != "alembic_version")
    assert "Backing up: 100%" in drawn
    assert f"{rows}/{rows}" in drawn  # how many
    assert " rows/s]" in drawn  # how fast
    assert "<00:00," in drawn  # the time left, after the time taken


def test_no_bar_is_drawn_where_nobody_watches(app, league, tmp_path):
    """From cron, or piped: the summary line only."""
    result = app.test_cli_runner().invoke(args=["backup", str(tmp_path / "league.json")])
    assert result.exit_code == 0
    assert result.output.count("\n") == 1


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(timezones=st.none() | st.timezones()),
    timespec=st.sampled_from(["auto", "seconds", "milliseconds", "microseconds"]),
    sep=st.sampled_from(["T", " "]),
)
def test_a_moment_in_any_iso_form_goes_in_as_the_column_keeps_it(moment, timespec, sep):
    """A backup writes ``isoformat()`` (read without a second look); any other ISO form a
    person may have typed is read whole: both give the column's own text, zone dropped."""
    written = moment.isoformat(sep=sep, timespec=timespec)
    shown = {"seconds": 0, "milliseconds": moment.microsecond // 1000 * 1000}
    moment = moment.replace(microsecond=shown.get(timespec, moment.microsecond), tzinfo=None)
    kept = moment.isoformat(sep=" ", timespec="microseconds")
    assert bulk.moment_as_kept(written) == kept


_COLUMNS = ["id", "name", "created_at", "cards"]


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.sampled_from(_COLUMNS), min_size=1, max_size=4, unique=True),
    row=st.dictionaries(
        st.sampled_from([*_COLUMNS, "extra"]), st.none() | st.integers() | st.text(max_size=3)
    ),
    read=st.booleans(),
)
def test_a_rows_values_are_its_columns_in_order_and_none_for_a_column_it_lacks(names, row, read):
    """Taken in one call when the row has every column, by name when it lacks one: the
    same values either way, keys that are not columns left out, the readers applied."""
    readers = [(0, repr)] if read else []
    values = bulk._values(row, names, bulk._getter(names), readers)
    expected = [row.get(name) for name in names]
    if read:
        expected[0] = repr(expected[0])
    assert values == tuple(expected)
