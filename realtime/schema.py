"""The stream endpoints in the OpenAPI schema (a ``POSTPROCESSING_HOOKS`` entry).

They are plain async Django views (DRF's views are synchronous), so drf-spectacular does
not see them; this hook states them as ``GET`` operations answering ``text/event-stream``,
with the API's Bearer scheme or a stream ticket (``?ticket=``) as security, the resume
inputs (``Last-Event-ID``, ``?last_event_id=``) and their problems. The hooks after it
(parameters, limits, the contract) treat them as any other operation.
"""

from __future__ import annotations

from typing import Any

TICKET_SCHEME = "streamTicket"

_PROBLEM = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
_EVENTS = (
    "A Server-Sent Events stream (docs/live.md): `snapshot` first (or, resuming, the events "
    "missed), then the channel's events, each with an `id` to resume from; comment lines "
    "keep it alive. Streams off (Redis unavailable, or a server that cannot hold one): one "
    "`fallback` event naming the URL to poll and a `retry:` in milliseconds, then the end."
)
# Any text without control characters (the URL guard refuses those): an id the stream did
# not give (it gives `<ms>-<n>`) starts over with a snapshot, a bad ticket is a 401.
_TEXT = {"type": "string", "pattern": "^[^\\x00-\\x1f\\x7f-\\x9f]*$"}
_RESUME = [
    {
        "in": "header",
        "name": "Last-Event-ID",
        "schema": {"type": "string"},
        "description": "the id of the last event received (`<ms>-<n>`): what followed it is "
        "replayed; any other value starts over with a snapshot",
    },
    {
        "in": "query",
        "name": "last_event_id",
        "schema": _TEXT,
        "description": "as Last-Event-ID, for clients that cannot set a header",
    },
    {
        "in": "query",
        "name": "ticket",
        "schema": _TEXT,
        "description": "a stream ticket (POST /api/v1/streams/tickets) instead of a Bearer token",
    },
]
# What a text/event-stream body holds, event by event (as SSE parsers read it).
_EVENT = {
    "type": "object",
    "properties": {
        "event": {
            "type": "string",
            "description": "snapshot, board, finish, score, standings or fallback",
        },
        "data": {"type": "string", "description": "a JSON document"},
        "id": {"type": "string", "description": "resume from here (Last-Event-ID)"},
        "retry": {"type": "integer", "description": "milliseconds before reconnecting"},
    },
}
_ID = {"type": "integer", "minimum": 1, "maximum": 9223372036854775807}


def _problem(*codes: str) -> dict[str, Any]:
    return {
        "description": "problem: " + ", ".join(f"`{c}`" for c in codes),
        "content": _PROBLEM,
        "x-problem-codes": list(codes),
    }


def _operation(
    operation_id: str,
    tag: str,
    text: str,
    path_params: list[dict[str, Any]],
    not_found: tuple[str, ...] = (),
    bad: tuple[str, ...] = (),
) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {
            "description": _EVENTS,
            "content": {"text/event-stream": {"schema": _EVENT}},
        },
        "401": _problem("not_authenticated", "authentication_failed", "token_not_valid"),
    }
    if not_found:
        responses["404"] = _problem(*not_found)
    if bad:
        responses["400"] = _problem(*bad)
    return {
        "operationId": operation_id,
        "description": text,
        "tags": [tag],
        "parameters": [*path_params, *_RESUME],
        "security": [{"jwtAuth": []}, {TICKET_SCHEME: []}],
        "responses": responses,
    }


def _path(name: str, schema: dict[str, Any], text: str = "") -> dict[str, Any]:
    found = {"in": "path", "name": name, "required": True, "schema": schema}
    return {**found, "description": text} if text else found


def describe_streams(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    paths = result.setdefault("paths", {})
    board_params = [
        _path("preset", {"type": "string"}, "a preset of RULES.md"),
        _path("date", {"type": "string"}, "YYYY-MM-DD (UTC) or 'today'"),
        {
            "in": "query",
            "name": "options",
            "schema": {"type": "string"},
            "description": "the board's options, comma-separated, as on the board itself",
        },
    ]
    paths["/api/v1/leaderboards/{preset}/daily/{date}/stream"] = {
        "get": _operation(
            "leaderboards_daily_stream",
            "streams",
            "A day's board as it changes: its top and the caller's own rank (`board` events).",
            board_params,
            bad=("invalid_date", "unknown_preset", "unknown_option"),
        )
    }
    paths["/api/v1/groups/{group_id}/stream"] = {
        "get": _operation(
            "groups_stream",
            "streams",
            "A group's members' finishes (`finish` events); members only.",
            [_path("group_id", _ID)],
            not_found=("group_not_found",),
        )
    }
    paths["/api/v1/players/me/stream"] = {
        "get": _operation(
            "players_me_stream",
            "streams",
            "The caller's own events: each of their results as it is recorded (`score`).",
            [],
        )
    }
    paths["/api/v1/tournaments/{tournament_id}/stream"] = {
        "get": _operation(
            "tournaments_stream",
            "tournaments",
            "A tournament's live standing (`standings` events).",
            [_path("tournament_id", _ID)],
            not_found=("tournament_not_found",),
        )
    }
    schemes = result.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes[TICKET_SCHEME] = {
        "type": "apiKey",
        "in": "query",
        "name": "ticket",
        "description": "a stream ticket from POST /api/v1/streams/tickets (streams only)",
    }
    return result
