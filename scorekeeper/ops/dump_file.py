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

import json
from collections.abc import Iterable, Iterator
from typing import IO, Any, Final

from scorekeeper.json_stream import JsonError, JsonStream, NotAnObject

NOT_ROWS: Final = "its tables are not lists of rows"

DumpError = JsonError  # the file is not JSON of a backup's shape
__all__ = ["DumpError", "DumpReader", "DumpWriter", "NotAnObject"]


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
        self.stream = JsonStream(file)
        self._needed: frozenset[str] = frozenset()

    @property
    def bytes_read(self) -> int:
        return self.stream.bytes_read

    def rewind(self) -> None:
        """Back to the start of the tables, to read them again."""
        self.stream.rewind()
        self.header(self._needed)

    def header(self, needed: frozenset[str]) -> dict[str, Any]:
        """The top-level values other than ``"tables"``, and the reader placed at the start
        of the tables. The values after the tables are read only if one of ``needed`` was not
        before them: then the tables are skipped (never kept) and found again afterwards.
        ``"tables"`` is in the answer, as True, if the file has them."""
        self._needed = needed
        values: dict[str, Any] = {}
        for key in self.stream.members():
            if key != "tables":
                values[key] = self.stream.value()
            elif needed <= values.keys():
                values[key] = True
                return values
            else:
                values[key] = False  # skipped, to be found again
                for _name, rows in self.tables():
                    for _row in rows:
                        pass
        if values.get("tables") is False:
            self.stream.rewind()
            for key in self.stream.members():
                if key == "tables":
                    break
                self.stream.skip()
            values["tables"] = True
        return values

    def tables(self) -> Iterator[tuple[str, Iterator[dict[str, Any]]]]:
        """Each table's name and its rows, in the file's order. A table's rows not taken
        before the next table is asked for are read and left."""
        for name in self.stream.members(error=NOT_ROWS):
            rows = self._rows()
            yield name, rows
            for _row in rows:
                pass

    def _rows(self) -> Iterator[dict[str, Any]]:
        for row in self.stream.items(error=NOT_ROWS):
            if not isinstance(row, dict):
                raise DumpError(NOT_ROWS)
            yield row
