"""A backup's JSON file, written and read a row at a time: one object, whatever its size,
never all in memory.

    {
     "format": "mille-scorekeeper-backup/1",
     "schema": "0011_audit_values",
     "tables": {
      "league": [
       {"id":1,"name":"Our table",…},
       …
      ],
      …
     }
    }

:class:`DumpWriter` writes the header first and then each table's rows as the database
gave them, one per line. :class:`DumpReader` reads any JSON of this shape, however it is
laid out or ordered (backups written before it were indented, their tables in
alphabetical order), with the standard library's own decoder, a row at a time.
"""

import codecs
import json
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, Final

#: Bytes read from the file at a time.
CHUNK: Final = 1 << 20
#: Text kept ahead of a value before decoding it, so that a number is never cut short.
MARGIN: Final = 1 << 16
_SPACE = re.compile(r"[ \t\n\r]*")


class DumpError(ValueError):
    """The file is not JSON of a backup's shape; says what was found instead."""


class NotAnObject(DumpError):
    """The file is not a JSON object at all."""

    def __init__(self) -> None:
        super().__init__("not a JSON object")


class DumpWriter:
    """Writes the header's values, then each table (:meth:`table`), then :meth:`close`."""

    def __init__(self, out: IO[str], header: dict[str, Any]) -> None:
        self.out = out
        self.tables = 0
        out.write("{\n")
        for key, value in header.items():
            out.write(f" {json.dumps(key)}: {json.dumps(value)},\n")
        out.write(' "tables": {')

    def table(self, name: str, batches: Iterable[list[str]]) -> int:
        """A table's rows, each already JSON text, a batch at a time; how many."""
        self.out.write(f"{',' if self.tables else ''}\n  {json.dumps(name)}: [")
        self.tables += 1
        count = 0
        for batch in batches:
            if batch:
                self.out.write(("\n   " if not count else ",\n   ") + ",\n   ".join(batch))
                count += len(batch)
        self.out.write("\n  ]" if count else "]")
        return count

    def close(self) -> None:
        self.out.write("\n }\n}\n")


class DumpReader:
    """Reads a backup from a binary file: :meth:`header`, then :meth:`tables`."""

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self._decoder = json.JSONDecoder()
        self._rewind()
        self._needed: frozenset[str] = frozenset()

    def rewind(self) -> None:
        """Back to the start of the tables, to read them again."""
        self._rewind()
        self.header(self._needed)

    def _rewind(self) -> None:
        self.file.seek(0)
        self._utf8 = codecs.getincrementaldecoder("utf-8-sig")()
        self._text = ""
        self._at = 0
        self._ended = False
        #: Bytes read from the file so far (to say how far a restore has got).
        self.bytes_read = 0

    def header(self, needed: frozenset[str]) -> dict[str, Any]:
        """The top-level values other than ``"tables"``, and the reader placed at the start
        of the tables. The values after the tables are read only if one of ``needed`` was not
        before them: then the tables are skipped (never kept) and read again by
        :meth:`tables`. ``"tables"`` is in the answer, as True, if the file has them."""
        self._needed = needed
        values = self._header(needed, stop_at_tables=True)
        if values.get("tables") is None and "tables" in values:  # skipped: find them again
            self._rewind()
            self._header(frozenset(), stop_at_tables=True)
            values["tables"] = True
        return values

    def _header(self, needed: frozenset[str], *, stop_at_tables: bool) -> dict[str, Any]:
        if self._peek() != "{":
            raise NotAnObject
        self._at += 1
        values: dict[str, Any] = {}
        while self._peek() != "}":
            if values:
                self._expect(",")
            key = self._value()
            if not isinstance(key, str):
                raise NotAnObject
            self._expect(":")
            if key != "tables":
                values[key] = self._value()
            elif stop_at_tables and needed <= values.keys():
                values[key] = True
                return values
            else:
                for _name, rows in self.tables():
                    for _row in rows:
                        pass
                values[key] = None  # skipped
        return values

    def tables(self) -> Iterator[tuple[str, Iterator[dict[str, Any]]]]:
        """Each table's name and its rows, in the file's order. A table's rows not taken
        before the next table is asked for are read and left."""
        if self._peek() != "{":
            raise DumpError("its tables are not lists of rows")
        self._at += 1
        first = True
        while self._peek() != "}":
            if not first:
                self._expect(",")
            first = False
            name = self._value()
            self._expect(":")
            if not isinstance(name, str) or self._peek() != "[":
                raise DumpError("its tables are not lists of rows")
            self._at += 1
            rows = self._rows()
            yield name, rows
            for _row in rows:
                pass
        self._at += 1

    def _rows(self) -> Iterator[dict[str, Any]]:
        if self._peek() == "]":
            self._at += 1
            return
        while True:
            row = self._value()
            if not isinstance(row, dict):
                raise DumpError("its tables are not lists of rows")
            yield row
            if self._peek() == "]":
                self._at += 1
                return
            self._expect(",")

    def _expect(self, char: str) -> None:
        found = self._peek()
        if found != char:
            raise DumpError(f"expected {char!r}, found {found or 'the end of the file'!r}")
        self._at += 1

    def _peek(self) -> str:
        """The next character that is not white space ("" at the end of the file)."""
        while True:
            self._at = _SPACE.match(self._text, self._at).end()  # type: ignore[union-attr]
            if self._at < len(self._text) or not self._read():
                return self._text[self._at : self._at + 1]

    def _value(self) -> Any:
        self._peek()
        while len(self._text) - self._at < MARGIN and self._read():
            pass
        while True:
            try:
                value, self._at = self._decoder.raw_decode(self._text, self._at)
                return value
            except json.JSONDecodeError as error:
                if not self._read():  # cut short by the end of what was read: read on
                    raise DumpError(error.msg) from None

    def _read(self) -> bool:
        """Read the next chunk of the file into the text; False at its end."""
        if self._ended:
            return False
        chunk = self.file.read(CHUNK)
        self.bytes_read += len(chunk)
        self._text = self._text[self._at :] + self._utf8.decode(chunk, final=not chunk)
        self._at = 0
        self._ended = not chunk
        return bool(chunk)
