"""Mille Scorekeeper: the paper score card of Montreal Mille, done better.

``create_app`` (in :mod:`scorekeeper.app`) builds the app. Importing the package alone
loads none of it: a tool that only needs a piece (``scorekeeper.engine``, say) doesn't pay
for the whole app, and the app's own start is what ``python -m bench.startup`` measures.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorekeeper.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``scorekeeper.create_app``, imported when first asked for (PEP 562)."""
    if name == "create_app":
        from scorekeeper.app import create_app

        return create_app
    raise AttributeError(f"module 'scorekeeper' has no attribute {name!r}")
