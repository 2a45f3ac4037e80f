"""Long-lived async views (the live streams) served straight from ASGI, past Django's
middleware stack.

Django's ``ASGIHandler`` runs each request in a context of its own thread: the stack's
synchronous middleware (sessions, CSRF, messages, …) and signals run there through
``sync_to_async``. For a request that lasts a second that is nothing; for a Server-Sent
Events stream that lasts hours it is a parked thread per client (most of the ~95 KiB an
open stream cost, and thousands of thread hops while clients connect: docs/bench/realtime.md).

:class:`DirectRouter` sends a ``GET``/``HEAD`` whose path ends in ``/stream`` and resolves
(Django's own URLconf) to a view marked with :func:`served_directly` here, and everything
else to Django. This path does, in the event loop and without a thread, what the stack does
for such a request:

* the request id (``X-Request-ID`` in and out), the request's log line and metrics
  (``config.observability``), the host check (``ALLOWED_HOSTS``: 400 ``bad_request``),
  a URL with a control character (400 ``invalid_url``), an oversized body (413), the
  ``?lang`` / ``Accept-Language`` choice (a problem's language, ``Content-Language``,
  400 ``unsupported_language``), the HTTPS redirect and HSTS (``SecurityMiddleware``),
  compression of a problem (``Vary``; never of a stream), CORS headers, and the security
  headers and CSP (``config.web.security``), each in the stack's order;
* not sessions, CSRF, messages, the cookie user or static files: a marked view takes no
  cookie, writes nothing and authenticates itself (``realtime.access``).

An exception the view lets out is the API's 500 problem, as Django's ``handler500`` makes
it. The client hanging up cancels the response (the stream's ``finally`` unsubscribes).
``HEAD`` gets the headers and no body, so it holds nothing open.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, TypeVar

from corsheaders.middleware import CorsMiddleware
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.security import SecurityMiddleware
from django.urls import Resolver404, resolve

from config.observability import context
from config.observability.middleware import RequestObservabilityMiddleware
from config.web.middleware import (
    CompressionMiddleware,
    LanguageMiddleware,
    body_size_refusal,
    control_character_refusal,
)
from config.web.problems import bad_request, server_error
from config.web.security import SecurityHeadersMiddleware

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
V = TypeVar("V", bound=Callable[..., Any])

#: The attribute :func:`served_directly` sets on a view.
MARK = "served_directly"
#: Only paths with this ending are looked up (every other request goes to Django untouched).
SUFFIX = "/stream"
METHODS = ("GET", "HEAD")


#: ``MIDDLEWARE`` entries whose work the direct path does (:class:`_Stack`, same order) and
#: those it leaves out, and why; tests/realtime/test_direct_path.py checks that together
#: they are ``MIDDLEWARE``, so a new middleware needs a decision here.
COVERED = (
    "config.observability.middleware.RequestObservabilityMiddleware",
    "config.web.security.SecurityHeadersMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "config.web.middleware.ControlCharacterURLMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.web.middleware.CompressionMiddleware",
    "config.web.middleware.LanguageMiddleware",
    "config.web.middleware.BodySizeLimitMiddleware",
    "django.middleware.common.CommonMiddleware",  # its host check (no slashes, no www)
)
LEFT_OUT = {
    "config.web.throttling.RateLimitHeadersMiddleware": "no stream is throttled",
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files, never a /stream path",
    "django.contrib.sessions.middleware.SessionMiddleware": "a stream takes no cookie",
    "django.middleware.csrf.CsrfViewMiddleware": "GET only, and the views are exempt",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "streams authenticate",
    "django.contrib.messages.middleware.MessageMiddleware": "no messages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware": "SecurityHeaders sets it",
}


def served_directly(view: V) -> V:
    """Mark an async view as one :class:`DirectRouter` serves without the middleware stack
    (it must authenticate itself and take no cookie)."""
    setattr(view, MARK, True)
    return view


def _unused(request: HttpRequest) -> HttpResponse:
    raise AssertionError("the direct path calls the middleware's hooks, not the middleware")


Before = Callable[[HttpRequest], HttpResponseBase | None]
After = Callable[[HttpRequest, HttpResponseBase], HttpResponseBase]


def _host_refusal(request: HttpRequest) -> HttpResponseBase | None:
    """``CommonMiddleware``'s host check (``ALLOWED_HOSTS``), a 400 as Django makes it."""
    try:
        request.get_host()
    except DisallowedHost:
        return bad_request(request)
    return None


class _Stack:
    """The hooks of the middleware a directly served view still needs, outermost first,
    as ``MIDDLEWARE`` orders them: each layer's check on the way in (a refusal stops
    there) and its headers on the way out (only the layers the request passed, innermost
    first, as Django unwinds them)."""

    def __init__(self) -> None:
        self.observability = RequestObservabilityMiddleware(_unused)
        headers = SecurityHeadersMiddleware(_unused)
        cors = CorsMiddleware(_unused)
        security = SecurityMiddleware(_unused)
        compression = CompressionMiddleware(_unused)  # never an event stream
        language = LanguageMiddleware(_unused)
        self.layers: list[tuple[Before | None, After | None]] = [
            (None, headers.fill),  # type: ignore[list-item]
            (cors.check_preflight, cors.add_response_headers),
            (control_character_refusal, None),
            (security.process_request, security.process_response),
            (None, compression.process_response),
            (language.process_request, language.process_response),
            (body_size_refusal, None),
            (_host_refusal, None),
        ]

    async def respond(self, request: HttpRequest, match: Any) -> HttpResponseBase:
        response: HttpResponseBase | None = None
        passed = 0
        for before, _ in self.layers:
            passed += 1
            response = before(request) if before is not None else None
            if response is not None:
                break
        if response is None:
            response = await _call(match, request)
        for _, after in reversed(self.layers[:passed]):
            if after is not None:
                response = after(request, response)
        return response


class DirectRouter:
    """The ASGI application: marked views served here, everything else by ``django``."""

    def __init__(self, django: ASGIApp) -> None:
        self.django = django
        self._stack: _Stack | None = None

    @property
    def stack(self) -> _Stack:
        if self._stack is None:  # after django.setup(): the middleware read settings
            self._stack = _Stack()
        return self._stack

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in METHODS
            and scope["path"].endswith(SUFFIX)
        ):
            found = _direct_view(scope)
            if found is not None:
                await self._serve(scope, receive, send, *found)
                return
        await self.django(scope, receive, send)

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, request: HttpRequest, match: Any
    ) -> None:
        start = time.perf_counter()
        given = request.headers.get(context.HEADER)
        request_id = given if context.well_formed(given) else context.new_request_id()
        request.request_id = request_id  # type: ignore[attr-defined]
        request.resolver_match = match
        tokens = context.bind(request_id=request_id, user_id=None, play_id=None, route=None)
        try:
            context.bind(route=match.route)
            response = await self.stack.respond(request, match)
            response[context.HEADER] = request_id
            self.stack.observability.finish(request, response, time.perf_counter() - start)
        finally:
            context.unbind(tokens)
        await _send_response(response, request.method == "HEAD", receive, send)


def _direct_view(scope: Scope) -> tuple[HttpRequest, Any] | None:
    """The request and its URL match, if the path resolves to a marked view."""
    try:
        request = ASGIRequest(scope, io.BytesIO())
        match = resolve(request.path_info)
    except (Resolver404, UnicodeDecodeError, ValueError):
        return None  # Django answers it (its 404, its 400)
    return (request, match) if getattr(match.func, MARK, False) else None


async def _call(match: Any, request: HttpRequest) -> HttpResponseBase:
    try:
        response = await match.func(request, *match.args, **match.kwargs)
    except Exception:
        log.exception("direct view %s failed", match.route)
        return server_error(request)  # reads the exception being handled, as handler500
    assert isinstance(response, HttpResponseBase)
    return response


def _headers(response: HttpResponseBase) -> list[tuple[bytes, bytes]]:
    return [(name.encode("ascii"), value.encode("latin1")) for name, value in response.items()]


async def _send_response(
    response: HttpResponseBase, head: bool, receive: Receive, send: Send
) -> None:
    start = {"type": "http.response.start", "status": response.status_code}
    await send({**start, "headers": _headers(response)})
    if not response.streaming or head:
        body = b"" if head or response.streaming else response.content  # type: ignore[attr-defined]
        await send({"type": "http.response.body", "body": body})
        if response.streaming:
            await _close(response)
        return
    streaming = asyncio.create_task(_stream_body(response, send))
    hung_up = asyncio.create_task(_disconnect(receive))
    try:
        await asyncio.wait((streaming, hung_up), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (streaming, hung_up):
            task.cancel()
        await asyncio.gather(streaming, hung_up, return_exceptions=True)


async def _stream_body(response: HttpResponseBase, send: Send) -> None:
    try:
        async for part in response:  # type: ignore[attr-defined]
            await send({"type": "http.response.body", "body": part, "more_body": True})
        await send({"type": "http.response.body"})
    finally:
        await _close(response)


async def _close(response: HttpResponseBase) -> None:
    """Close the stream's generator (its ``finally`` leaves the channel)."""
    content = getattr(response, "_iterator", None)
    closer = getattr(content, "aclose", None)
    if closer is not None:
        await closer()


async def _disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
