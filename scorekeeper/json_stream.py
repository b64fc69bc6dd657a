"""Reading one large JSON object from a file a value at a time, so that a file of any size
never has to be all in memory: the backups (``ops/dump_file.py``) and the league imports
(``league/transfer/read_json.py``) are objects whose long arrays are read item by item.

The values themselves are decoded by the standard library's own decoder
(``JSONDecoder.raw_decode``); only the structure around them — braces, brackets, commas,
keys — is walked here.
"""

import codecs
import json
import re
from collections.abc import Iterator
from typing import IO, Any, Final

#: Bytes read from the file at a time.
CHUNK: Final = 1 << 20
#: Text kept ahead of a value before decoding it, so that a number is never cut short.
MARGIN: Final = 1 << 16
_SPACE = re.compile(r"[ \t\n\r]*")
#: What follows an item of an array: white space, then a comma (and the white space before
#: the next item) or the bracket that ends the array — one match a row of a backup.
_AFTER_ITEM = re.compile(r"[ \t\n\r]*(?:(,)[ \t\n\r]*|\])")


class JsonError(ValueError):
    """Not JSON of the shape asked for; says what was found instead."""


class NotAnObject(JsonError):
    """The file is not a JSON object at all."""

    def __init__(self) -> None:
        super().__init__("not a JSON object")


class JsonStream:
    """A JSON object in a binary file (UTF-8, with or without a byte order mark), read from
    the start: :meth:`members` walks its members, and for each the caller reads the value
    with :meth:`value`, :meth:`items` (an array, item by item) or :meth:`skip`."""

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self._decoder = json.JSONDecoder()
        self.rewind()

    def rewind(self) -> None:
        """Back to the start of the file."""
        self.file.seek(0)
        self._utf8 = codecs.getincrementaldecoder("utf-8-sig")()
        self._text = ""
        self._at = 0
        self._ended = False
        #: Bytes read from the file so far (to say how far a long job has got).
        self.bytes_read = 0

    def starts_an_object(self) -> bool:
        return self.peek() == "{"

    def members(self, error: str = "not a JSON object") -> Iterator[str]:
        """The keys of the object that comes next, each once its value is next to be read:
        the caller reads (or skips) it before asking for the next key."""
        if self.peek() != "{":
            raise NotAnObject if error == "not a JSON object" else JsonError(error)
        self._at += 1
        first = True
        while self.peek() != "}":
            if not first:
                self._expect(",")
            first = False
            key = self.value()
            if not isinstance(key, str):
                raise JsonError("a key that is not a string")
            self._expect(":")
            yield key
        self._at += 1

    def items(self, error: str = "not a list") -> Iterator[Any]:
        """The items of the array that comes next, one at a time."""
        if self.peek() != "[":
            raise JsonError(error)
        self._at += 1
        if self.peek() == "]":
            self._at += 1
            return
        while True:
            yield self.value()
            after = _AFTER_ITEM.match(self._text, self._at)
            if after is None or after.end() == len(self._text):  # odd, or at a chunk's end
                if self.peek() == "]":
                    self._at += 1
                    return
                self._expect(",")
                continue
            self._at = after.end()
            if after[1] is None:
                return

    def skip(self) -> None:
        """Read past the value that comes next, keeping none of it."""
        if self.peek() == "[":
            for _item in self.items():
                pass
        elif self.peek() == "{":
            for _key in self.members():
                self.skip()
        else:
            self.value()

    def value(self) -> Any:
        """The whole value that comes next, decoded."""
        if len(self._text) - self._at < MARGIN or self._text[self._at] in " \t\n\r":
            self.peek()
            while len(self._text) - self._at < MARGIN and self._read():
                pass
        while True:
            try:
                value, self._at = self._decoder.raw_decode(self._text, self._at)
                return value
            except json.JSONDecodeError as error:
                if not self._read():  # cut short by the end of what was read: read on
                    raise JsonError(error.msg) from None

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the file)."""
        while True:
            self._at = _SPACE.match(self._text, self._at).end()  # type: ignore[union-attr]
            if self._at < len(self._text) or not self._read():
                return self._text[self._at : self._at + 1]

    def _expect(self, char: str) -> None:
        found = self.peek()
        if found != char:
            raise JsonError(f"expected {char!r}, found {found or 'the end of the file'!r}")
        self._at += 1

    def _read(self) -> bool:
        """Read the next chunk of the file; False at its end."""
        if self._ended:
            return False
        chunk = self.file.read(CHUNK)
        self.bytes_read += len(chunk)
        self._text = self._text[self._at :] + self._utf8.decode(chunk, final=not chunk)
        self._at = 0
        self._ended = not chunk
        return bool(chunk)
