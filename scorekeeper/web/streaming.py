"""A streamed page whose every part must reach the browser when it is made: the import's
progress, a line per batch of games saved.

Flask-Compress compresses a streamed answer as it goes (the exports), but holds what it
compresses until its compressor's block is full — brotli keeps a whole small page to the
end. A page made to be watched is compressed here instead, with gzip flushed after each
part (``Z_SYNC_FLUSH``: every byte so far can be decoded), and its ``Content-Encoding``
tells Flask-Compress to leave it alone.
"""

import zlib
from collections.abc import Iterable, Iterator

from flask import Response, request


def sent_as_made(parts: Iterable[str], mimetype: str = "text/html") -> Response:
    """``parts`` streamed, each sent as soon as it is made; gzip when the client takes it."""
    if not request.accept_encodings.quality("gzip"):
        return Response(parts, mimetype=mimetype)
    response = Response(_gzipped(parts), mimetype=mimetype)
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def _gzipped(parts: Iterable[str]) -> Iterator[bytes]:
    compressor = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)  # a gzip member
    for part in parts:
        yield compressor.compress(part.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
    yield compressor.flush()
