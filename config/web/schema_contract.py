"""Schema post-processing, last of the hooks: what a strict reader of the schema (a linter,
a generator, a request validator) needs on every operation.

* Security on every operation: ``[]`` on public ones, ``[{}, {jwtAuth: []}]`` where a token
  changes the answer (a view with ``token_optional = True``: the boards' ``around=me`` and
  ``group``), ``[{jwtAuth: []}]`` where one is required. A generator that sees no security
  never sends the token, so an optional one must be declared as such.
* A summary (the first sentence of the description) and declared tags on every operation.
* One ``Problem`` component, referenced by every error response; the codes an operation
  can answer with a status are listed in the response's ``x-problem-codes`` and its
  description (inlined copies made generators emit a class per response).
* OpenAPI links from a play's answers to the operations on that play, so stateful
  clients and schemathesis' stateful phase can follow them.
* A nullable reference as ``anyOf: [$ref, null]`` (``nullable`` with no ``type`` is invalid).
"""

from __future__ import annotations

import re
from typing import Any

from .openapi import problem_schema
from .problems import PROBLEM_CONTENT_TYPE

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
OPTIONAL_TOKEN: list[dict[str, list[str]]] = [{}, {"jwtAuth": []}]
REQUIRED_TOKEN: list[dict[str, list[str]]] = [{"jwtAuth": []}]
TAGS = {
    "auth": "register, guests and linking, sign in and out, tokens, password",
    "presets": "the games and their rules",
    "daily": "the daily deals",
    "plays": "a player's plays: start, read, move, hint",
    "leaderboards": "daily, weekly and all-time boards",
    "players": "player profiles; deleting and exporting one's account",
    "groups": "private groups and their boards",
    "streams": "live Server-Sent Event streams: boards, groups, a player's own events",
    "tournaments": "tournaments: windows, joining, live and final standings",
    "health": "liveness and readiness",
}
# The relative root: the paths carry /api/v1, so the schema's own host serves them.
SERVERS = [{"url": "/", "description": "the server that serves this schema"}]
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)`'])\.(\s|$)")


_PLAY_ID = {"play_id": "$response.body#/id"}
# What a client does next with a play it was given: (path, method, status) → links.
_ON_A_PLAY = {
    "ReadThePlay": {"operationId": "plays_retrieve", "parameters": _PLAY_ID},
    "MoveInThePlay": {"operationId": "plays_moves_create", "parameters": _PLAY_ID},
    "ReadItsMoves": {"operationId": "plays_moves_list", "parameters": _PLAY_ID},
    "AskForAHint": {"operationId": "plays_hint", "parameters": _PLAY_ID},
}
LINKS = {
    ("/api/v1/plays", "post", "201"): _ON_A_PLAY,
    ("/api/v1/plays/{play_id}", "get", "200"): _ON_A_PLAY,
    ("/api/v1/plays/{play_id}/moves", "post", "200"): _ON_A_PLAY,
}


def _declare_links(paths: dict[str, Any]) -> None:
    for (path, method, status), links in LINKS.items():
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None:
            response["links"] = {
                name: {**link, "parameters": dict(link["parameters"])}
                for name, link in links.items()
            }


def _token_optional_operations(generator: Any) -> set[tuple[str, str]]:
    found = set()
    for path, _regex, method, callback in generator.endpoints or []:
        if getattr(getattr(callback, "cls", None), "token_optional", False):
            found.add((path, method.lower()))
    return found


def _security(operation: dict[str, Any], token_optional: bool) -> list[dict[str, list[str]]]:
    declared = operation.get("security") or []
    if token_optional:
        return OPTIONAL_TOKEN
    if not declared or {} in declared:  # no authentication, or AllowAny: public
        return []
    return REQUIRED_TOKEN


def summary_of(operation: dict[str, Any]) -> str:
    """The description's first sentence, else the operation id in words."""
    text = " ".join((operation.get("description") or "").split())
    match = _SENTENCE_END.search(text)
    sentence = text[: match.start()] if match else text
    if not sentence:
        sentence = operation["operationId"].replace("_", " ").capitalize()
    return sentence if len(sentence) <= 120 else sentence[:119].rsplit(" ", 1)[0] + "…"


def _problem_codes(response: dict[str, Any]) -> list[str] | None:
    schema = response.get("content", {}).get(PROBLEM_CONTENT_TYPE, {}).get("schema")
    if not isinstance(schema, dict) or "$ref" in schema:
        return None
    return list(schema.get("properties", {}).get("code", {}).get("enum") or [])


def _reference_problem(response: dict[str, Any]) -> None:
    codes = _problem_codes(response)
    if codes is None:
        return
    response["content"][PROBLEM_CONTENT_TYPE]["schema"] = dict(PROBLEM_REF)
    response["x-problem-codes"] = codes
    if codes:
        response["description"] = "problem: " + ", ".join(f"`{code}`" for code in codes)


# OpenAPI 3.0's null: ``nullable`` needs a ``type`` beside it (linters), and generators
# read ``anyOf: [X, null]`` as ``X | None`` where they drop the null of ``allOf`` + ``type``
# (anyOf, not oneOf: Redocly's example check counts null as matching both branches).
NULL = {"type": "object", "nullable": True, "enum": [None]}


def _typed_nullables(node: Any) -> None:
    """``{allOf: [$ref], nullable: true}`` (a nullable serializer) becomes ``anyOf: [$ref,
    null]``, which both strict linters and generators read as "that, or null"."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if (
                isinstance(value, dict)
                and value.get("nullable")
                and "type" not in value
                and len(value.get("allOf", [])) == 1
            ):
                rest = {k: v for k, v in value.items() if k not in ("allOf", "nullable")}
                node[key] = {**rest, "anyOf": [value["allOf"][0], dict(NULL)]}
            _typed_nullables(node[key])
    elif isinstance(node, list):
        for value in node:
            _typed_nullables(value)


def declare_contract(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """``POSTPROCESSING_HOOKS`` entry, the last: security, summaries, tags, servers, the
    one Problem component, typed nullables."""
    optional = _token_optional_operations(generator)
    used_tags: list[str] = []
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            operation["security"] = _security(operation, (path, method) in optional)
            operation.setdefault("summary", summary_of(operation))
            for tag in operation.get("tags", []):
                if tag not in used_tags:
                    used_tags.append(tag)
            for response in operation.get("responses", {}).values():
                _reference_problem(response)
    _declare_links(result.get("paths", {}))
    result["tags"] = [{"name": tag, "description": TAGS.get(tag, tag)} for tag in used_tags]
    result["servers"] = SERVERS
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = problem_schema()
    _typed_nullables(result["components"]["schemas"])
    return result
