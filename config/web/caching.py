"""Conditional GETs: strong ``ETag``s, ``304 Not Modified`` and ``Cache-Control`` per resource.

How long each answer holds (docs/api/caching.md):

* presets: the same until the next release (a day, revalidated by ETag after that);
* a past day's deals and a frozen daily board: never change (``immutable``);
* today's deals and the live boards: short-lived;
* a play, its move log and the caller's lists: ``private``, revalidated on every use. A
  play's ETag is its id and ``seq``, so it changes exactly when ``seq`` does and a poll
  costs one indexed read and no serialisation when nothing moved.

A play's own ETag and ``If-Match`` on moves are the games app's (``games.api.etags``).

Tags of computed bodies hash the JSON and the response language, so each translation has a
tag of its own. ``config.web.middleware.CompressionMiddleware`` sends a compressed body's
tag as ``"<tag>-gzip"``; both spellings (and ``W/`` ones, by the weak comparison RFC 9110 asks of
``If-None-Match``) match here.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import translation
from rest_framework.request import Request
from rest_framework.response import Response

from .middleware import GZIP_ETAG_SUFFIX

IMMUTABLE = "public, max-age=31536000, immutable"
STATIC = "public, max-age=86400"
SHORT = "public, max-age=30"
PRIVATE = "private, no-cache"
NO_STORE = "no-store"


def body_etag(data: Any) -> str:
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    language = translation.get_language() or ""
    return '"' + hashlib.sha256(f"{language}\n{raw}".encode()).hexdigest()[:32] + '"'


def opaque(tag: str) -> str:
    tag = tag.strip()
    if tag.startswith("W/"):
        tag = tag[2:]
    tag = tag.strip('"')
    if tag.endswith(GZIP_ETAG_SUFFIX):
        tag = tag[: -len(GZIP_ETAG_SUFFIX)]
    return tag


def tags(header: str) -> list[str]:
    return [part for part in (p.strip() for p in header.split(",")) if part]


def matches_any(header: str, etag: str) -> bool:
    """Weak comparison of ``etag`` with an ``If-None-Match`` list (``*`` matches)."""
    wanted = opaque(etag)
    return any(tag == "*" or opaque(tag) == wanted for tag in tags(header))


def is_fresh(request: Request, etag: str) -> bool:
    header = request.headers.get("If-None-Match")
    return bool(header) and request.method in ("GET", "HEAD") and matches_any(header, etag)


def cached(
    request: Request,
    data: Any,
    cache_control: str,
    etag: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """``data`` as a 200 with its ETag and Cache-Control, or a bodiless 304 when the
    client's ``If-None-Match`` already names that ETag."""
    etag = etag or body_etag(data)
    response = Response(status=304) if is_fresh(request, etag) else Response(data)
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def not_modified(etag: str, cache_control: str) -> Response:
    response = Response(status=304)
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response
