"""The app's version: ``pyproject.toml``'s, the one place it is written, read from the
installed package's metadata (the footer of every page, the API's description, ``/healthz``)."""

from functools import cache
from importlib.metadata import PackageNotFoundError, version

#: The distribution's name in ``pyproject.toml``.
DISTRIBUTION = "mille-scorekeeper"


@cache
def app_version() -> str:
    """``0.2.0``, or ``unknown`` when the source runs without being installed."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"
