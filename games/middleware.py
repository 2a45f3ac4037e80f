"""Refuse oversized request bodies before anything reads them.

DRF parses JSON straight from the request stream, bypassing Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` check (which only ``request.body`` applies), so the limit is
enforced here on ``Content-Length`` and answered with a 413 problem document.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .problems import problem_response


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
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
        return self.get_response(request)
