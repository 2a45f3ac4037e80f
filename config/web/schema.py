"""Schema post-processing: the formats of path, query and header parameters, and the 400
every operation can give.

Views declare what each parameter means; the exact shapes the service accepts are written
here once (the same expressions the parsers use), so generated clients and schemathesis
send meaningful values and know which ones are refused.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from .openapi import problem_schema
from .params import DAY_PATTERN, WEEK_PATTERN
from .problems import PROBLEM_CONTENT_TYPE

# Days and weeks exactly as the parsers take them (config.web.params): 2000-2999, February
# 29th of leap years only, week 53 of the years that have one. "today", "current" and
# "this" are words, so the date parameters carry a pattern, not ``format: date``.
DAY = DAY_PATTERN
WEEK = WEEK_PATTERN
NO_CONTROL = r"[^\x00-\x1f\x7f-\x9f]"

PARAMETER_SCHEMAS: dict[tuple[str, str], dict[str, Any]] = {
    ("path", "date"): {"type": "string", "pattern": f"^({DAY}|today)$"},
    ("path", "week"): {"type": "string", "pattern": f"^({WEEK}|current|this)$"},
    ("path", "username"): {"type": "string", "pattern": r"^[\w.@+-]+$", "maxLength": 150},
    ("path", "group_id"): {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
    ("query", "cursor"): {"type": "string", "pattern": r"^[A-Za-z0-9_-]*$"},  # base64url
    ("query", "group"): {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
    # ?lang stays the enum config.web.openapi declares: generated clients type it (the
    # Python client's PresetsListLang), so a plain pattern here broke them.
    ("query", "page_size"): {"type": "integer", "minimum": 1, "maximum": 100},
    ("query", "n"): {"type": "integer", "minimum": 0, "maximum": 50},
    ("header", "Idempotency-Key"): {"type": "string", "pattern": r"^[!-~]{1,255}$"},
}

# Request body properties whose rules the serializers check beyond their type.
# Apps add the parts only they know (the games app: the presets and their options, from the
# engine) with register_parameter_schema / register_property_schema at ready().
PROPERTY_SCHEMAS: dict[tuple[str, str], dict[str, Any]] = {
    ("CredentialsRequest", "username"): {"pattern": r"^[\w.@+-]+$"},
    ("CredentialsRequest", "password"): {"minLength": 8},
    ("GroupCreateRequest", "name"): {
        "pattern": f"^{NO_CONTROL}*[^\\s\\x00-\\x1f\\x7f-\\x9f]{NO_CONTROL}*$"
    },
    ("StartPlayRequest", "daily"): {"pattern": f"^({DAY}|today)$"},
    # The deck: games.api.schema_bodies (52 cards, each once).
    ("RefreshRequest", "refresh"): {"pattern": r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$"},
    ("GroupJoinRequest", "code"): {"pattern": r"^[A-Za-z0-9]+$"},
    ("StartPlayRequest", "seed"): {"minimum": 0, "maximum": 2**63 - 1},
    ("StartPlayRequest", "pysol_deal"): {"minimum": 1, "maximum": 2**63 - 1},
    ("Move", "from"): {"pattern": r"^(t[0-9]|c[0-3]|f|w|s)$"},
    ("Move", "to"): {"pattern": r"^(t[0-9]|c[0-3]|f|w|s)$"},
}


def register_parameter_schema(location: str, name: str, schema: dict[str, Any]) -> None:
    """The schema of every ``location`` (path, query, header) parameter called ``name``."""
    PARAMETER_SCHEMAS[(location, name)] = schema


def register_property_schema(component: str, name: str, extra: dict[str, Any]) -> None:
    """What the schema of a request body's property adds to its type (a pattern, a range)."""
    PROPERTY_SCHEMAS[(component, name)] = extra


# Every operation can answer these 400s: a control character in its URL, a ``?lang`` other
# than the three the parameter's enum lists (config.web.middleware).
EVERY_OPERATION_400 = ("invalid_url", "unsupported_language")


def _answers_url_problems(responses: dict[str, Any]) -> None:
    """Add ``EVERY_OPERATION_400`` to the operation's 400 (made if it has none)."""
    bad = responses.setdefault(
        "400",
        {
            "description": "problem",
            "content": {PROBLEM_CONTENT_TYPE: {"schema": problem_schema([])}},
        },
    )
    schema = bad.get("content", {}).get(PROBLEM_CONTENT_TYPE, {}).get("schema", {})
    enum = schema.get("properties", {}).get("code", {}).get("enum")
    if enum is None:
        return
    for code in EVERY_OPERATION_400:
        if code not in enum:
            enum.append(code)
            bad["description"] = bad.get("description", "problem") + f", `{code}`"


def describe_parameters(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """``POSTPROCESSING_HOOKS`` entry: parameter formats, and 400 on every operation."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = PARAMETER_SCHEMAS.get((parameter["in"], parameter["name"]))
                if schema is not None:
                    parameter["schema"] = dict(schema)
            _answers_url_problems(operation.setdefault("responses", {}))
    components = result.get("components", {}).get("schemas", {})
    for (component, name), extra in PROPERTY_SCHEMAS.items():
        properties = components.get(component, {}).get("properties", {})
        if name in properties:
            properties[name].update(extra)
    return result


class SwaggerView(SpectacularSwaggerSplitView):
    """The Swagger UI page, without the OPTIONS metadata its HTML renderer cannot draw
    (a 500 before): OPTIONS is a 405 problem like any other unsupported method."""

    metadata_class = None


class RedocView(SpectacularRedocView):
    """The ReDoc page, OPTIONS refused as on the Swagger page."""

    metadata_class = None
