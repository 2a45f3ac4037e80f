"""``/metrics`` on the service's own port: 404 unless ``METRICS_ENABLED`` and ``METRICS_TOKEN``
are both set, 401 without ``Authorization: Bearer <METRICS_TOKEN>`` (:mod:`.exposition`)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from config.web.problems import problem_response

from .exposition import registry


def _authorised(request: HttpRequest, token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


def metrics_view(request: HttpRequest) -> HttpResponse:
    token = getattr(settings, "METRICS_TOKEN", "")
    if not (settings.METRICS_ENABLED and token):
        return problem_response(404, "not_found", "There is no such resource.")
    if not _authorised(request, token):
        return problem_response(
            401,
            "not_authenticated",
            "The metrics need Authorization: Bearer <METRICS_TOKEN>.",
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
