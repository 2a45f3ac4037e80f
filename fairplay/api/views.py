"""``GET /api/v1/daily/{date}/replays``: the top plays of a published day, move by move."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.web import caching
from config.web.openapi import IF_NONE_MATCH, caching_headers, problems
from config.web.params import parse_day
from config.web.problems import Problem, translated
from games import daily, engine

from .. import selectors
from .serializers import DailyReplaysSerializer


def _rules(request: Request) -> engine.Rules:
    preset = request.query_params.get("preset")
    if not preset:
        raise Problem(400, "validation_error", "give the preset: ?preset=easthaven")
    names = [n.strip() for n in request.query_params.get("options", "").split(",") if n.strip()]
    try:
        return engine.get_rules(preset, dict.fromkeys(names, True))
    except engine.RulesError as error:
        raise translated(error) from None


class DailyReplaysView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="daily_replays",
        parameters=[
            OpenApiParameter(
                "date", OpenApiTypes.STR, OpenApiParameter.PATH, description="YYYY-MM-DD (UTC)"
            ),
            OpenApiParameter("preset", OpenApiTypes.STR, required=True),
            OpenApiParameter(
                "options", OpenApiTypes.STR, description="comma-separated options of the board"
            ),
            IF_NONE_MATCH,
            *caching_headers(),
        ],
        responses={
            200: DailyReplaysSerializer,
            304: None,
            **problems(
                "validation_error",
                "invalid_date",
                "unknown_preset",
                "unknown_option",
                "invalid_option",
                "replays_not_published",
            ),
        },
    )
    def get(self, request: Request, date: str) -> Response:
        """The day's best ranked plays on one board with their whole move logs and the
        deck, once the day's ranked plays have closed (404 before); plays kept off the
        boards by fair play are left out."""
        day = parse_day(date, daily.utc_today())
        rules = _rules(request)
        if not daily.is_published(day):
            raise Problem(
                404, "replays_not_published", f"the replays of {day} are published after it ends"
            )
        body = selectors.top_replays(day, rules, settings.FAIRPLAY_REPLAYS_TOP)
        # A reviewer's later decision may change the list: cached briefly, never for good.
        return caching.cached(request, DailyReplaysSerializer(body).data, caching.SHORT)
