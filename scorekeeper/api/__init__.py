"""JSON API v1 (shared/API.md): everything a page can do with a league or a game, for scripts.

* :mod:`.core` — the blueprint, bearer tokens, JSON errors and bodies;
* :mod:`.shapes` and :mod:`.answers` — every request and answer, declared once (pydantic);
* :mod:`.reading` — a request read into its shape, its problems as API.md's 422;
* :mod:`.leagues`, :mod:`.games`, :mod:`.seats`, :mod:`.count` — the views;
* :mod:`.idempotency` — ``Idempotency-Key`` on ``POST``;
* :mod:`.openapi` — the OpenAPI 3.1 description at ``/api/v1/openapi.json``, generated.
"""

from scorekeeper.urls import is_api_request

from . import count, games, leagues, openapi, seats  # noqa: F401  (each registers its views on bp)
from .core import PREFIX, ApiError, bp, http_error, json_body

__all__ = ["PREFIX", "ApiError", "bp", "http_error", "is_api_request", "json_body"]
