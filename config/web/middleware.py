"""Request and response plumbing below DRF: the body-size limit, URLs with control
characters, the language, compression.

Oversized request bodies and URLs with control characters are refused before anything
reads them.

DRF parses JSON straight from the request stream, bypassing Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` check (which only ``request.body`` applies), so the limit is
enforced here on ``Content-Length`` and answered with a 413 problem document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote_plus

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers

from .problems import problem_response

GZIP_ETAG_SUFFIX = "-gzip"
# Unicode category Cc: C0 controls (NUL included), DEL and the C1 controls.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return body_size_refusal(request) or self.get_response(request)


def body_size_refusal(request: HttpRequest) -> HttpResponse | None:
    """The 413 of a request whose ``Content-Length`` is over the limit (None: within it)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if limit is not None and length > limit:
        return problem_response(
            413,
            "payload_too_large",
            f"request bodies are limited to {limit} bytes",
        )
    return None


class LanguageMiddleware(LocaleMiddleware):
    """Django's ``LocaleMiddleware`` (``Accept-Language``, ``Content-Language``, ``Vary``)
    with a ``?lang=en|de|ru`` override, for clients that cannot set headers (links, docs).

    On the API an unsupported ``lang`` is a ``400 unsupported_language`` (in the language
    ``Accept-Language`` picks): the schema declares the three values, so generated clients
    and schemathesis know the others are refused. ``Accept-Language`` itself is a
    preference list and stays forgiving (its best match, else English).
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        requested = request.GET.getlist("lang")
        supported = {code for code, _name in settings.LANGUAGES}
        if requested and all(value in supported for value in requested):
            translation.activate(requested[-1])
            request.LANGUAGE_CODE = translation.get_language()
            return None
        super().process_request(request)
        if requested and request.path_info.startswith("/api/"):
            return problem_response(
                400,
                "unsupported_language",
                f"lang is one of {', '.join(sorted(supported))}",
            )
        return None


class CompressionMiddleware(GZipMiddleware):
    """GZip for large bodies (boards, move logs, plays), with two changes to Django's:

    * Nothing under ``/api/v1/auth/`` or ``/api/v1/groups`` is compressed: those answers
      carry secrets (tokens, invite codes) next to text a client chose (a username, a group
      name), the mix a BREACH attack needs (secret + attacker-chosen input in one compressed
      body). Other bodies hold no secret.
    * A strong ``ETag`` stays strong, as ``"<tag>-gzip"`` (one tag per content coding, as
      RFC 9110 asks), instead of being weakened; ``config.web.caching`` matches both forms.
    * ``Vary: Accept-Encoding`` on every answer it might have compressed, not only on those
      it did: a 304 (no body, never compressed) must carry the same ``Vary`` as the 200 it
      stands for (RFC 9110, 15.4.5), and so must a body too short to compress.
    * An event stream (``text/event-stream``) is never compressed: gzip holds its bytes back
      until a block fills, so a client would get each event late, keep-alives not at all.
    """

    UNCOMPRESSED_PREFIXES = ("/api/v1/auth/", "/api/v1/groups")

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if not settings.GZIP_RESPONSES or request.path.startswith(self.UNCOMPRESSED_PREFIXES):
            return response
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        etag = response.get("ETag")
        response = super().process_response(request, response)
        if etag and etag.startswith('"') and response.get("Content-Encoding") == "gzip":
            response.headers["ETag"] = etag[:-1] + GZIP_ETAG_SUFFIX + '"'
        return response


class ControlCharacterURLMiddleware:
    """Refuse a URL whose decoded path or query holds a control character (400 problem).

    No route, date, name or option of the API contains one, and a NUL in a text parameter
    makes PostgreSQL refuse the query (a 500 if it got that far): ``/players/%00``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return control_character_refusal(request) or self.get_response(request)


def control_character_refusal(request: HttpRequest) -> HttpResponse | None:
    """The 400 of a URL with a control character in its path or query (None: clean)."""
    query = unquote_plus(request.META.get("QUERY_STRING", ""), errors="replace")
    if _CONTROL.search(request.path_info) or _CONTROL.search(query):
        return problem_response(
            400, "invalid_url", "the URL's path or query holds a control character"
        )
    return None
