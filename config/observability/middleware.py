"""The outermost middleware: a request id in and out, the request's metrics and log line.

* The id is the client's (or the proxy's) ``X-Request-ID`` when well-formed (1-128 of
  ``[A-Za-z0-9._-]``), otherwise a new one; the response carries it back in ``X-Request-ID``.
  Every log line written while the request runs has it (:mod:`.context`), and so has every
  Celery task the request queues (:mod:`.tasks`).
* Once the URL is resolved the route pattern (``api/v1/plays/<uuid:play_id>/moves``, never
  the raw path) and the play id are bound too; the user id once DRF has authenticated.
* At the end: one ``haven.request`` log line (method, path, route, status, duration, user,
  play) and, with ``METRICS_ENABLED``, the request's counter and latency (:mod:`.metrics`).

It sits first in ``MIDDLEWARE`` so its duration covers every other layer and every answer,
a refusal by another middleware included, gets an id.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty

from . import context, metrics

log = logging.getLogger("haven.request")

#: The route label of a request no URL pattern matched: static files (the web client, the
#: admin's assets) when they were served, anything else refused before or at resolution.
STATIC_ROUTE = "<static>"
UNMATCHED_ROUTE = "<unmatched>"
#: A client may send any method name; the metrics' label keeps to these (others: "other").
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _route(request: HttpRequest, status: int) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.route or match.view_name or UNMATCHED_ROUTE
    return STATIC_ROUTE if status < 400 else UNMATCHED_ROUTE


def _user_id(request: HttpRequest) -> int | None:
    """The authenticated user's id, without loading a user nobody asked for (a session
    user Django has not looked up stays unread)."""
    user = getattr(request, "user", None)
    if user is None or (isinstance(user, SimpleLazyObject) and user._wrapped is empty):
        return None
    return user.pk if getattr(user, "is_authenticated", False) else None


class RequestObservabilityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        start = time.perf_counter()
        given = request.headers.get(context.HEADER)
        request_id = given if context.well_formed(given) else context.new_request_id()
        request.request_id = request_id  # type: ignore[attr-defined]
        tokens = context.bind(request_id=request_id, user_id=None, play_id=None, route=None)
        try:
            response = self.get_response(request)
            response[context.HEADER] = request_id
            self.finish(request, response, time.perf_counter() - start)
            return response
        finally:
            context.unbind(tokens)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        play_id = kwargs.get("play_id")
        context.bind(
            route=_route(request, 200), play_id=str(play_id) if play_id is not None else None
        )  # undone with the request's own tokens in __call__

    def finish(self, request: HttpRequest, response: HttpResponse, seconds: float) -> None:
        """The request's log line and metrics (the streams' direct path calls it too)."""
        status = response.status_code
        route = _route(request, status)
        user_id = _user_id(request)
        context.bind(user_id=user_id, route=route)
        method = request.method if request.method in METHODS else "other"
        metrics.record_request(route, method, status, seconds)
        metrics.update_open_connections()
        log.info(
            "%s %s %s %.1f ms",
            request.method,
            request.path,
            status,
            seconds * 1000,
            extra={
                "method": request.method,
                "path": request.path,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
            },
        )
