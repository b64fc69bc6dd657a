"""JSON API v1 (shared/API.md): everything a page can do with a league or a game, for scripts.

* :mod:`.core` — the blueprint, bearer tokens, JSON errors and bodies;
* :mod:`.shapes` and :mod:`.answers` — every request and answer, declared once (pydantic);
* :mod:`.reading` — a request read into its shape, its problems as API.md's 422;
* :mod:`.leagues`, :mod:`.games`, :mod:`.seats`, :mod:`.count` — the views, each declared
  under its route (:mod:`.declared`: what it reads, answers and refuses);
* :mod:`.idempotency` — ``Idempotency-Key`` on ``POST``;
* :mod:`.openapi` — the OpenAPI 3.1 description derived from the declared routes, served at
  ``/api/v1/openapi.json`` (:mod:`.description`) and loaded when first asked for.
"""

from scorekeeper.urls import is_api_request

from . import count, description, games, leagues, seats, settle_up  # noqa: F401  (each registers its views on bp)
from .core import PREFIX, ApiError, bp, http_error, json_body

__all__ = ["PREFIX", "ApiError", "bp", "http_error", "is_api_request", "json_body"]
