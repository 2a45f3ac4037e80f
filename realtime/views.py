"""The stream endpoints (async views, served by uvicorn) and the ticket endpoint.

Each stream answers 200 ``text/event-stream``: a ``snapshot`` first (or, resuming, what
the client missed), then the channel's events. Refusals are problems as anywhere in the
API (401 without a valid token or ticket, 400 for a bad date or preset, 404 for a group the
caller is not in). Redis unavailable, or a WSGI worker (``make run``'s gunicorn) asked to
hold a stream: 200 with one ``fallback`` event naming the URL to poll (docs/live.md).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

from config.direct_asgi import served_directly
from config.errors import DomainError
from config.web.params import parse_day
from config.web.problems import Problem, domain_problem, problem_response, translated
from games import daily, engine
from leaderboard import groups
from leaderboard.refs import BoardRef

from . import access, channels, events, hub, sse
from .offloop import off_loop

EVENT_STREAM = "text/event-stream"


def problem_of(error: Exception) -> HttpResponse:
    if isinstance(error, DomainError):
        error = domain_problem(error) or error
    if not isinstance(error, Problem):
        raise error
    headers = {"WWW-Authenticate": 'Bearer realm="api"'} if error.status_code == 401 else None
    return problem_response(
        error.status_code, error.problem_code, str(error.detail), headers, **error.extra
    )


_REFUSALS = {
    "not_authenticated": "send a Bearer token or a stream ticket (?ticket=)",
    "token_not_valid": "the token or stream ticket is not valid (or has expired)",
    "authentication_failed": "the token's account cannot sign in",
}


def unauthenticated(code: str) -> HttpResponse:
    return problem_of(Problem(401, code, _REFUSALS[code]))


def _respond(request: HttpRequest, body: AsyncIterator[str | bytes] | str) -> HttpResponse:
    response: HttpResponse
    if isinstance(body, str):
        response = HttpResponse(body, content_type=EVENT_STREAM)
    else:
        response = StreamingHttpResponse(body, content_type=EVENT_STREAM)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx and friends: pass each event on at once
    return response


def open_stream(
    request: HttpRequest,
    channel: str,
    poll: str,
    snapshot: sse.Snapshot | None,
    personalise: sse.Personalise | None,
) -> HttpResponse:
    if not isinstance(request, ASGIRequest):  # a WSGI worker would be held for hours
        return _respond(request, sse.fallback(poll))
    last = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id", "")
    return _respond(request, sse.stream(channel, last[:64], snapshot, personalise, poll))


def _board_ref(preset: str, date: str, options: str) -> tuple[engine.Rules, BoardRef]:
    names = [name.strip() for name in options.split(",") if name.strip()]
    try:
        rules = engine.get_rules(preset, dict.fromkeys(names, True))
    except engine.RulesError as error:
        raise translated(error) from None
    day = parse_day(date, daily.utc_today())
    return rules, BoardRef.daily(rules.key, day)


def _board_personaliser(ref: BoardRef, viewer: Any, mine: int | None) -> sse.Personalise:
    """Adds the viewer's own rank, read again only when it may have changed: someone
    finished at or above it (in this event or one it replaced), the viewer themself, or a
    fair-play decision. The event's data is spliced, not parsed and dumped per viewer."""
    state = {"me": mine}

    async def personalise(event: hub.Event) -> hub.Event:
        me = state["me"]
        if _moves(event).may_move(viewer.username, me):
            me = state["me"] = await off_loop(events.rank_of)(ref, viewer.pk, viewer.pk)
        variant = event.memo.get(("me", me))
        if variant is None:  # the first viewer with this rank: the others share it
            variant = hub.Event(event.id, event.event, with_field(event.data, "me", me))
            event.memo["me", me] = variant
        return variant

    return personalise


@dataclass(frozen=True)
class _Moves:
    """Who an event (and the ones it replaced) moved, worked out once per event."""

    unknown: bool  # a fair-play decision: anyone may have moved
    names: frozenset[str]
    best_rank: int | None  # the highest place anyone moved to

    def may_move(self, username: str, me: int | None) -> bool:
        return (
            self.unknown
            or username in self.names
            or (me is not None and self.best_rank is not None and self.best_rank <= me)
        )


def _moves(event: hub.Event) -> _Moves:
    found = event.memo.get("moves")
    if found is None:
        changes = [e.payload.get("changed") for e in (*event.skipped, event)]
        ranks = [c["rank"] for c in changes if c is not None and c.get("rank")]
        found = event.memo["moves"] = _Moves(
            unknown=any(c is None for c in changes),
            names=frozenset(c.get("username") for c in changes if c is not None),
            best_rank=min(ranks) if ranks else None,
        )
    return found  # type: ignore[no-any-return]


def with_field(data: str, name: str, value: Any) -> str:
    """``data`` (a JSON object's text) with ``name`` set to ``value`` added at its end."""
    body = data.rstrip()[:-1].rstrip()
    separator = "" if body == "{" else ","
    return f"{body}{separator}{json.dumps(name)}:{json.dumps(value)}}}"


async def board_stream(request: HttpRequest, preset: str, date: str) -> HttpResponse:
    user, refusal = await off_loop(access.user_of)(request)
    if user is None:
        return unauthenticated(refusal)
    try:
        rules, ref = _board_ref(preset, date, request.GET.get("options", ""))
    except Problem as error:
        return problem_of(error)
    poll = f"/api/v1/leaderboards/{preset}/daily/{ref.day.isoformat()}"
    snapshot = await _board_snapshot(ref, user)
    personalise = _board_personaliser(ref, user, snapshot.get("me"))

    async def fresh() -> dict[str, Any]:
        return await _board_snapshot(ref, user)

    return open_stream(request, channels.board(rules.key, ref.day), poll, fresh, personalise)


async def _board_snapshot(ref: BoardRef, user: Any) -> dict[str, Any]:
    return await off_loop(events.board_snapshot)(ref, user.pk)


async def group_stream(request: HttpRequest, group_id: int) -> HttpResponse:
    user, refusal = await off_loop(access.user_of)(request)
    if user is None:
        return unauthenticated(refusal)
    try:  # a group the caller is not in does not exist for them
        group = await off_loop(groups.group_for)(user, group_id)
    except DomainError as error:
        return problem_of(error)
    poll = f"/api/v1/groups/{group.pk}"
    return open_stream(request, channels.group(group.pk), poll, _empty, None)


async def player_stream(request: HttpRequest) -> HttpResponse:
    user, refusal = await off_loop(access.user_of)(request)
    if user is None:
        return unauthenticated(refusal)
    return open_stream(request, channels.player(user.pk), "/api/v1/players/me", _empty, None)


async def _empty() -> dict[str, Any]:
    return {}


def stream_view(view: Callable[..., Any]) -> Callable[..., Any]:
    """Streams are GET only (HEAD too: the headers of a stream). No cookie opens one, so
    CSRF has nothing to guard: another method gets its 405, not the CSRF refusal. Under
    uvicorn a GET or HEAD skips Django's middleware stack (:mod:`config.direct_asgi`:
    no thread per open stream); the view authenticates itself."""

    @served_directly
    @csrf_exempt
    async def only_get(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            response = problem_response(405, "method_not_allowed", "streams are read with GET")
            response["Allow"] = "GET, HEAD"
            return response
        return await view(request, *args, **kwargs)

    return only_get
