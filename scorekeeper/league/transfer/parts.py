"""A file for an import too large for one request, received in parts.

Waitress receives a whole request before the app sees it, and can't be told a limit per
route: ``mille-scorekeeper`` tells it the pages' (``MAX_CONTENT_LENGTH``), so that no
route, anonymous ``/login`` included, makes it receive and spool megabytes before a 413.
The import page's script then sends a larger file in parts under that limit, each
appended to a file of its own upload, which the import names instead of a file.

An upload is a league admin's own: its file is named by their account and a random id
made here, in a folder of its own (``IMPORT_PARTS_FOLDER``, else ``imports`` in the
instance folder). Starting one lets go of that admin's earlier ones and of anyone's left
for a day; the import removes it once read.
"""

import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Final

from flask import current_app

from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.web.translation import gettext

#: The largest file an import reads (a season of thousands of games is far smaller).
MAX_IMPORT_BYTES: Final = 50 * 1024 * 1024
#: The most one part holds: its request stays well under the pages' 1 MiB.
PART_BYTES: Final = 512 * 1024
#: How long an upload nobody finished is kept.
STALE_SECONDS: Final = 24 * 3600
_UPLOAD: Final = re.compile(r"[0-9a-f]{32}")


def _folder() -> Path:
    configured = current_app.config.get("IMPORT_PARTS_FOLDER")
    folder = Path(configured or Path(current_app.instance_path) / "imports")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def _path(user_id: int, upload: str) -> Path:
    if not _UPLOAD.fullmatch(upload):
        raise NotFound(gone())
    return _folder() / f"{user_id}-{upload}.part"


def gone() -> str:
    return gettext("The file sent in parts is no longer here: choose it again.")


def too_large() -> str:
    return gettext("The file is larger than 50 MB; split it in parts.")


def receive(user_id: int, upload: str, offset: int, part: IO[bytes]) -> tuple[str, int]:
    """Append ``part`` to the user's upload (a new one when ``upload`` is empty), if it
    starts where the upload ends; the upload and how many bytes it holds now.

    Conflict if it doesn't start there (a part sent twice, or one lost), NotFound for an
    upload that isn't the user's or is gone, ServiceError for a part or a file too large."""
    if not upload:
        if offset != 0:
            raise Conflict(gettext("A file sent in parts starts with its first part."))
        upload = secrets.token_hex(16)
        _let_go_of_earlier(user_id)
        _path(user_id, upload).touch(mode=0o600, exist_ok=False)
    path = _path(user_id, upload)
    if not path.exists():
        raise NotFound(gone())
    held = path.stat().st_size
    if offset != held:
        raise Conflict(gettext("This part doesn't follow the last one received."))
    data = part.read(PART_BYTES + 1)
    if len(data) > PART_BYTES:
        raise ServiceError(gettext("A part of a file is at most 512 KB."), field="part")
    if held + len(data) > MAX_IMPORT_BYTES:
        path.unlink(missing_ok=True)
        raise ServiceError(too_large(), field="part")
    with path.open("ab") as out:
        out.write(data)
    return upload, held + len(data)


def _let_go_of_earlier(user_id: int) -> None:
    """The user's unfinished uploads, and anyone's older than :data:`STALE_SECONDS`."""
    oldest = time.time() - STALE_SECONDS
    for path in _folder().glob("*.part"):
        if path.name.startswith(f"{user_id}-") or path.stat().st_mtime < oldest:
            path.unlink(missing_ok=True)


@contextmanager
def taken(user_id: int, upload: str) -> Iterator[IO[bytes]]:
    """The whole file of the user's upload, to read; removed once read (NotFound if it
    isn't the user's, or is gone)."""
    path = _path(user_id, upload)
    try:
        file = path.open("rb")
    except FileNotFoundError:
        raise NotFound(gone()) from None
    try:
        with file:
            yield file
    finally:
        path.unlink(missing_ok=True)
