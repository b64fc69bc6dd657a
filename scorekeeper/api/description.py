"""``GET /openapi.json``: the API's description (:mod:`.openapi`), made when first asked for."""

from flask import current_app, jsonify
from werkzeug.wrappers import Response

from .core import bp
from .declared import declared


@bp.get("/openapi.json")
@declared(200, {"type": "object"}, described_as="OpenAPI 3.1.")
def openapi() -> Response:
    """This description."""
    from .openapi import document  # pydantic's JSON Schema machinery: loaded when first used

    return jsonify(document(current_app))
