"""Schema post-processing: the formats of path, query and header parameters, and the 400
every operation can give.

Views declare what each parameter means; the exact shapes the service accepts are written
here once (the same expressions the parsers use), so generated clients and schemathesis
send meaningful values and know which ones are refused.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from games import engine

from .openapi import problem_schema
from .params import DAY_PATTERN, WEEK_PATTERN
from .problems import PROBLEM_CONTENT_TYPE

# Days and weeks exactly as the parsers take them (config.web.params): 2000-2999, February
# 29th of leap years only, week 53 of the years that have one. "today", "current" and
# "this" are words, so the date parameters carry a pattern, not ``format: date``.
DAY = DAY_PATTERN
WEEK = WEEK_PATTERN
NO_CONTROL = r"[^\x00-\x1f\x7f-\x9f]"
OPTION = (
    "(" + "|".join(sorted({o for rules in engine.PRESETS.values() for o in rules.options})) + ")"
)
# Preset names are lower-case words and hyphens, written as they are: re.escape's ``\-``
# is no valid escape in an ECMAScript ``u``-flag pattern (what JSON Schema validators use).
assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) for name in engine.PRESETS)
PRESET = "|".join(engine.PRESETS)

PARAMETER_SCHEMAS: dict[tuple[str, str], dict[str, Any]] = {
    ("path", "date"): {"type": "string", "pattern": f"^({DAY}|today)$"},
    ("path", "week"): {"type": "string", "pattern": f"^({WEEK}|current|this)$"},
    ("path", "preset"): {"type": "string", "enum": list(engine.PRESETS)},
    ("path", "username"): {"type": "string", "pattern": r"^[\w.@+-]+$", "maxLength": 150},
    ("path", "group_id"): {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
    ("query", "options"): {"type": "string", "pattern": f"^({OPTION}(,{OPTION})*)?$"},
    ("query", "cursor"): {"type": "string", "pattern": r"^[A-Za-z0-9_-]*$"},  # base64url
    ("query", "group"): {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
    # ?lang stays the enum config.web.openapi declares: generated clients type it (the
    # Python client's PresetsListLang), so a plain pattern here broke them.
    ("query", "page_size"): {"type": "integer", "minimum": 1, "maximum": 100},
    ("query", "n"): {"type": "integer", "minimum": 0, "maximum": 50},
    ("header", "Idempotency-Key"): {"type": "string", "pattern": r"^[!-~]{1,255}$"},
}

# Request body properties whose rules the serializers check beyond their type.
PROPERTY_SCHEMAS: dict[tuple[str, str], dict[str, Any]] = {
    ("CredentialsRequest", "username"): {"pattern": r"^[\w.@+-]+$"},
    ("CredentialsRequest", "password"): {"minLength": 8},
    ("GroupCreateRequest", "name"): {
        "pattern": f"^{NO_CONTROL}*[^\\s\\x00-\\x1f\\x7f-\\x9f]{NO_CONTROL}*$"
    },
    # The presets as a pattern, not an enum: generated clients turn an enum into a type of
    # their own (the Python client's StartPlayRequestPreset), which broke their callers;
    # a pattern keeps the field a string while saying which strings are accepted.
    ("StartPlayRequest", "preset"): {"pattern": f"^({PRESET})$"},
    ("StartPlayRequest", "daily"): {"pattern": f"^({DAY}|today)$"},
    # The deck: config.web.schema_bodies (52 cards, each once).
    ("RefreshRequest", "refresh"): {"pattern": r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$"},
    ("GroupJoinRequest", "code"): {"pattern": r"^[A-Za-z0-9]+$"},
    ("StartPlayRequest", "seed"): {"minimum": 0, "maximum": 2**63 - 1},
    ("StartPlayRequest", "pysol_deal"): {"minimum": 1, "maximum": 2**63 - 1},
    ("Move", "from"): {"pattern": r"^(t[0-9]|c[0-3]|f|w|s)$"},
    ("Move", "to"): {"pattern": r"^(t[0-9]|c[0-3]|f|w|s)$"},
}


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
