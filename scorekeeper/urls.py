"""Which URLs are whose: the API's prefix, and the pages a redirect may go back to.

Imports nothing from the app, so that the language switch, sign-in and the API can all
use it without importing each other.
"""

from typing import Final
from urllib.parse import urlsplit

from flask import request, url_for

#: Where the JSON API lives; everything under it answers JSON, in English.
API_PREFIX: Final = "/api/v1"


def is_api_request() -> bool:
    """Whether this request is for the API, even one that matched no route."""
    return request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/")


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the home page: a redirect after
    signing in or switching language never sends anyone elsewhere. A line break or any
    other control character makes it unsafe too: no header may carry one (it was a 500)."""
    if not target or not target.isprintable():
        return url_for("leagues.front")
    if target.startswith("/") and not target.startswith("//"):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("leagues.front")
