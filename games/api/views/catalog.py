"""What every client reads without an account: the presets, the daily deals, health.

All of it is public and cacheable (``config.web.caching``); health is the exception, never
stored, since an operator's probe must see the service as it is now.
"""

from __future__ import annotations

import uuid

from django.core.cache import cache
from django.db import connection
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config import redis_guard
from config.replicas import call_on_replica
from config.web import caching, outage
from config.web.openapi import (
    CONTENT_LANGUAGE,
    IF_NONE_MATCH,
    LANG,
    caching_headers,
    problems,
)
from config.web.params import parse_day
from config.web.problems import Problem

from ... import daily, engine
from ...preset_texts import preset_document
from ...winnability.selectors import preset_winnability
from ..serializers import (
    DailyDealSerializer,
    DailySerializer,
    HealthSerializer,
    PresetListSerializer,
)


class PresetsView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="presets_list",
        parameters=[LANG, IF_NONE_MATCH, *caching_headers(), CONTENT_LANGUAGE],
        responses={200: PresetListSerializer, 304: None},
    )
    def get(self, request: Request) -> Response:
        """The presets of RULES.md with their options (and defaults), and their title,
        description and a full rules summary in the negotiated language (``?lang=en|de|ru``,
        else ``Accept-Language``, else English); ``winnability``: each preset's winnable
        share from the solver's results."""
        winnability = preset_winnability()
        presets = [
            {**preset_document(name, dict(rules.options)), "winnability": winnability.get(name)}
            for name, rules in engine.PRESETS.items()
        ]
        return caching.cached(request, {"presets": presets}, caching.STATIC)


class DailyView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="daily_retrieve",
        parameters=[
            OpenApiParameter(
                "date",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                description="YYYY-MM-DD (UTC) or `today`",
            ),
            IF_NONE_MATCH,
            *caching_headers(),
        ],
        responses={
            200: DailySerializer,
            304: None,
            **problems("invalid_date", "not_found"),
        },
        examples=[
            OpenApiExample(
                "today",
                response_only=True,
                value={
                    "date": "2026-11-29",
                    "deals": {
                        "easthaven": {
                            "id": "00000000-0000-4000-8000-000000000000",
                            "verdict": "winnable",
                            "par": 97,
                        }
                    },
                },
            )
        ],
    )
    def get(self, request: Request, date: str) -> Response:
        """The daily deals of a UTC date: id, verdict and par per preset. A past day adds
        each deck and par solution once it is published: at the day's ranked deadline (the
        next UTC midnight plus ``RANKED_GRACE_MINUTES``, default 10); until then it answers
        as today does. Today's deck is never shown; future dates are 404."""
        today = daily.utc_today()
        day = parse_day(date, today)
        if day > today:
            raise Problem(404, "not_found", f"the daily deals of {day} are not out yet")
        # A past day's deals are settled: the replica may serve them (today's may still be
        # prepared on demand, which writes: the primary).
        deals = call_on_replica(daily.daily_deals, day) if day < today else daily.daily_deals(day)
        if not deals and day < today:
            raise Problem(404, "not_found", f"there were no daily deals on {day}")
        # Decks and solutions only once no ranked play of the day can move any more (its
        # deadline, grace included): until then yesterday answers as today does.
        published = daily.is_published(day)
        context = {"day_over": published}
        body = {
            "date": day.isoformat(),
            "deals": {
                deal.preset: DailyDealSerializer(deal, context=context).data for deal in deals
            },
        }
        # A published day never changes; before, its deals may still be prepared (today)
        # and its decks are still to come.
        return caching.cached(request, body, caching.IMMUTABLE if published else caching.SHORT)


class HealthView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="health", responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        """Liveness and readiness. PostgreSQL down: ``503`` (``status: unavailable``); Redis
        down: ``200`` with ``status: degraded`` (the service works without it: throttles
        count per process, leaderboards come from PostgreSQL)."""
        checks = {"database": "ok", "cache": "ok"}
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:  # any failure of the probe is the answer
            checks["database"] = "unavailable"
        # Only look at the state: the cache call below claims the half-open probe itself.
        if redis_guard.breaker.state() == "open":
            checks["cache"] = "unavailable"  # not asked: the breaker is open
        else:
            probe = f"health:{uuid.uuid4().hex}"
            cache.set(probe, "1", 5)  # the guarded cache answers a miss when Redis fails
            if cache.get(probe) != "1":
                checks["cache"] = "unavailable"
            cache.delete(probe)
        if checks["database"] != "ok":
            return Response(
                {"status": "unavailable", **checks},
                status=503,
                headers={
                    "Retry-After": str(outage.retry_after()),
                    "Cache-Control": caching.NO_STORE,
                },
            )
        body = {"status": "ok", **checks}
        if checks["cache"] != "ok":
            body.update(status="degraded", throttles="per-process", leaderboards="postgres")
        return Response(body, headers={"Cache-Control": caching.NO_STORE})
