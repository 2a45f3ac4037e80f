"""Schema post-processing: the request bodies' rules across fields, stated in the schema.

The serializers check one field at a time; these rules span fields, so drf-spectacular
cannot see them. Each is written here so that a body the schema accepts is one the server
accepts (schemathesis' positive data, a request validator, a generated client's types):

* ``POST /plays``: exactly one of ``daily``, ``seed``, ``deck`` or ``pysol_deal`` (one
  variant per source, each refusing the others with ``not``); options per preset (a
  preset's options are its own: ``partial_runs`` is not Seahaven's); a deck is a
  permutation of the 52 cards.
* ``POST /plays/{id}/moves``: exactly one of ``move`` and ``moves``.
* A move has no keys beyond its type's; a hint's move is a ``Move``.

Generators read the variants (a union of plain objects) and skip the ``not`` clauses, so
their types stay simple; validators read both.
"""

from __future__ import annotations

from typing import Any

from config.web.openapi import MOVE_REF
from games import engine

SOURCES = {
    "daily": "DailyStartRequest",
    "seed": "SeedStartRequest",
    "deck": "DeckStartRequest",
    "pysol_deal": "PysolDealStartRequest",
}
MOVE_BODIES = {"move": "OneMoveRequest", "moves": "MoveBatchRequest"}
CARD = {
    "type": "string",
    "enum": list(engine.NAMES),
    "description": "rank (A 2-9 T J Q K) then suit (S H D C); the server also takes 10 for T",
}
DECK = {
    "type": "array",
    "items": {"$ref": "#/components/schemas/Card"},
    "minItems": 52,
    "maxItems": 52,
    "uniqueItems": True,
    "description": "the 52 cards, each once, deck[0] dealt first",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def preset_options() -> dict[str, Any]:
    """Every option of any preset; which preset has which is in ``_options_of_other_presets``."""
    names = sorted({name for rules in engine.PRESETS.values() for name in rules.options})
    owners = {
        name: [preset for preset, rules in engine.PRESETS.items() if name in rules.options]
        for name in names
    }
    return {
        "type": "object",
        "description": "options that are on or off; each preset has its own (see /presets): "
        + "; ".join(f"`{name}`: {', '.join(owners[name])}" for name in names),
        "properties": {
            name: {"type": "boolean", "description": "an option of " + ", ".join(owners[name])}
            for name in names
        },
        "additionalProperties": False,
    }


def _options_of_other_presets() -> list[dict[str, Any]]:
    """One clause per option: a preset that lacks it, with the option set."""
    clauses = []
    names = sorted({name for rules in engine.PRESETS.values() for name in rules.options})
    for name in names:
        lacking = [preset for preset, rules in engine.PRESETS.items() if name not in rules.options]
        if lacking:
            clauses.append(
                {
                    "required": ["preset", "options"],
                    "properties": {
                        "preset": {"type": "string", "enum": lacking},
                        "options": {"type": "object", **_present(name)},
                    },
                }
            )
    return clauses


def _present(name: str) -> dict[str, Any]:
    """The clause "``name`` is in the body" (its property named, so linters see it)."""
    return {"required": [name], "properties": {name: {}}}


def _start_variants(schemas: dict[str, Any]) -> None:
    start = schemas.get("StartPlayRequest")
    if start is None or "oneOf" in start:
        return
    properties = start["properties"]
    properties["deck"] = dict(DECK)
    properties["options"] = _ref("StartOptions")
    schemas["Card"] = dict(CARD)
    schemas["StartOptions"] = preset_options()
    for source, name in SOURCES.items():
        others = [_present(other) for other in SOURCES if other != source]
        schemas[name] = {
            "type": "object",
            "description": f"start a play from `{source}` (and no other source)",
            "properties": {
                "preset": properties["preset"],
                "options": properties["options"],
                source: properties[source],
            },
            "required": ["preset", source],
            "not": {"anyOf": others + _options_of_other_presets()},
        }
    schemas["StartPlayRequest"] = {
        "description": start.get("description", ""),
        "oneOf": [_ref(name) for name in SOURCES.values()],
    }


def _move_request_variants(schemas: dict[str, Any]) -> None:
    body = schemas.get("PlayMoveRequest")
    if body is None or "oneOf" in body:
        return
    properties = body["properties"]
    properties["seq"]["description"] = (
        "the play's current seq (that of the first move); may be left out when If-Match "
        "names the play's version"
    )
    for field, name in MOVE_BODIES.items():
        other = next(key for key in MOVE_BODIES if key != field)
        schemas[name] = {
            "type": "object",
            "properties": {"seq": properties["seq"], field: properties[field]},
            "required": [field],
            "not": _present(other),
        }
    schemas["PlayMoveRequest"] = {
        "description": body.get("description", ""),
        "oneOf": [_ref(name) for name in MOVE_BODIES.values()],
    }


def _closed_moves(schemas: dict[str, Any]) -> None:
    for name in ("CardMove", "DealMove", "UndoMove", "ResignMove"):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    hint = schemas.get("Hint", {}).get("properties", {})
    if "move" in hint:
        hint["move"] = {  # made anyOf [Move, null] by config.web.schema_contract
            "allOf": [MOVE_REF],
            "nullable": True,
            "description": hint["move"].get("description", ""),
        }


def state_body_rules(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """``POSTPROCESSING_HOOKS`` entry, after ``config.web.schema``'s property formats."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    _start_variants(schemas)
    _move_request_variants(schemas)
    _closed_moves(schemas)
    return result
