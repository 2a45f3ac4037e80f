"""What the OpenAPI schema says beyond the serializers, so generated clients need no edits.

* Error responses: per operation and status, the codes that operation can answer with that
  status (from ``config.web.catalogue``); ``config.web.schema_contract`` makes each one a
  reference to the one ``Problem`` component, with its codes in ``x-problem-codes``.
* Headers: ``ETag`` / ``Cache-Control`` on cacheable answers, ``Location`` on 201,
  ``Idempotent-Replayed`` on idempotent POSTs, ``Retry-After`` on 429; ``If-None-Match``,
  ``If-Match``, ``Accept-Language`` and ``?lang`` as request parameters.
* Moves: one discriminated union on ``type`` (``Move``), the same schema for a request's
  ``move`` and for ``legal_moves`` and the logs.
* Security: declared on every operation by ``config.web.schema_contract``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from .catalogue import CATALOGUE, codes_for
from .problems import PROBLEM_CONTENT_TYPE

MOVE_REF = {"$ref": "#/components/schemas/Move"}

_PROBLEM_PROPERTIES: dict[str, Any] = {
    "type": {"type": "string", "description": "URI of the problem type"},
    "title": {"type": "string", "description": "short summary, in the response language"},
    "status": {"type": "integer"},
    "detail": {"type": "string", "description": "this occurrence, in the response language"},
    "code": {"type": "string", "description": "stable machine-readable code, never translated"},
    "rule": {"type": "string", "description": "illegal_move only: the engine's rule code"},
    "seq": {"type": "integer", "description": "stale_sequence only: the play's current seq"},
    "errors": {
        "type": "object",
        "additionalProperties": {},
        "description": "validation_error only: messages per field",
    },
    "index": {
        "type": "integer",
        "description": "a batch of moves only: the position of the refused move, from 0",
    },
}


def problem_schema(codes: list[str] | None = None) -> dict[str, Any]:
    """An RFC 9457 problem document; ``code`` limited to ``codes`` (all codes if None)."""
    properties = {name: dict(value) for name, value in _PROBLEM_PROPERTIES.items()}
    properties["code"]["enum"] = list(codes if codes is not None else CATALOGUE)
    return {
        "type": "object",
        "description": "RFC 9457 problem details, `application/problem+json`",
        "properties": properties,
        "required": ["type", "title", "status", "detail", "code"],
    }


def problems(*codes: str | int) -> dict[tuple[int, str], OpenApiResponse]:
    """Schema entries for an operation's error ``codes``, grouped by their statuses.

    A bare status (``problems(404)``, the older spelling) stands for every catalogued code
    of that status: valid, but vaguer than naming the codes the operation can answer.
    """
    names_: list[str] = []
    for code in codes:
        names_.extend(codes_for(code) if isinstance(code, int) else [code])
    by_status: dict[int, list[str]] = defaultdict(list)
    order = list(CATALOGUE)
    for code in sorted(set(names_), key=order.index):
        by_status[CATALOGUE[code].status].append(code)
    return {
        (status, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            problem_schema(names),
            description="problem: " + ", ".join(f"`{name}`" for name in names),
        )
        for status, names in sorted(by_status.items())
    }


# Codes every operation of a kind can answer with.
AUTH_REQUIRED = ("not_authenticated", "authentication_failed", "token_not_valid")
BODY = ("malformed_json", "invalid_json", "payload_too_large", "unsupported_media_type")
THROTTLED = ("throttled",)


def _header(name: str, description: str, statuses: list[int]) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=statuses,
        description=description,
    )


def caching_headers(*statuses: int) -> list[OpenApiParameter]:
    statuses_ = list(statuses or (200, 304))
    return [
        _header(
            "ETag", "strong validator of this answer; send it back in If-None-Match", statuses_
        ),
        _header("Cache-Control", "how long the answer holds (docs: ETags and caching)", statuses_),
    ]


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="an ETag from an earlier answer: 304 without a body if it still holds",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="the play's ETag: the move applies only to that version of the play "
    "(412 `precondition_failed` otherwise); an alternative to checking `seq` yourself",
)
LANG = OpenApiParameter(
    "lang",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    required=False,
    enum=["en", "de", "ru"],
    description="response language; overrides Accept-Language (default English)",
)
LOCATION = _header("Location", "URL of the created resource", [201])
IDEMPOTENT_REPLAYED = _header(
    "Idempotent-Replayed", "`true` when this is the stored answer to an earlier request", [200]
)
RETRY_AFTER = _header("Retry-After", "seconds to wait before retrying", [429])
LEADERBOARD_SOURCE = _header(
    "X-Leaderboard-Source", "`redis` or `postgres`: which store served the ranks", [200]
)
CONTENT_LANGUAGE = _header("Content-Language", "the language of the texts", [200])


# --- The move union -------------------------------------------------------------------------

_PILE = r"^(t[0-9]|c[0-3]|f|w|s)$"

MOVE_COMPONENTS: dict[str, Any] = {
    "CardMove": {
        "type": "object",
        "description": "cards from one pile to another",
        "properties": {
            "type": {"type": "string", "enum": ["move"]},
            "from": {
                "type": "string",
                "pattern": _PILE,
                "description": "pile id: t0…t9, c0…c3, w (f and s are never a source)",
            },
            "to": {"type": "string", "pattern": _PILE, "description": "pile id: t0…t9, c0…c3, f"},
            "count": {
                "type": "integer",
                "minimum": 1,
                "maximum": 52,
                "description": "cards moved together; defaults to 1 on POST, always present "
                "in `legal_moves`",
            },
        },
        "required": ["type", "from", "to"],
    },
    "DealMove": {
        "type": "object",
        "description": "deal from the stock (a row in Easthaven, one card to the waste in "
        "Westcliff)",
        "properties": {"type": {"type": "string", "enum": ["deal"]}},
        "required": ["type"],
    },
    "UndoMove": {
        "type": "object",
        "description": "take back the last effective move (counts as a move)",
        "properties": {"type": {"type": "string", "enum": ["undo"]}},
        "required": ["type"],
    },
    "ResignMove": {
        "type": "object",
        "description": "end the play as resigned",
        "properties": {"type": {"type": "string", "enum": ["resign"]}},
        "required": ["type"],
    },
}
_VARIANTS = {"move": "CardMove", "deal": "DealMove", "undo": "UndoMove", "resign": "ResignMove"}
MOVE_COMPONENTS["Move"] = {
    "description": "a move, discriminated by `type`",
    "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in _VARIANTS.values()],
    "discriminator": {
        "propertyName": "type",
        "mapping": {kind: f"#/components/schemas/{name}" for kind, name in _VARIANTS.items()},
    },
}


# Every operation speaks the three languages (problem titles and details at least).
_LANG_PARAMETER = {
    "in": "query",
    "name": "lang",
    "schema": {"type": "string", "enum": ["en", "de", "ru"]},
    "description": "response language; overrides Accept-Language (default English)",
}


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular hook: the move union and the Problem component, ``?lang`` on every
    operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(MOVE_COMPONENTS)
    schemas["Problem"] = problem_schema()
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == "lang" and p.get("in") == "query" for p in parameters):
                parameters.append(dict(_LANG_PARAMETER))
    return result
