"""The hint endpoint: ``POST /api/v1/plays/{id}/hint`` (routed in ``games.api.urls``)."""

from __future__ import annotations

import uuid

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.web.openapi import problems

from . import hints
from .serializers import HintSerializer


class HintView(APIView):
    throttle_scope = "hints"

    @extend_schema(
        operation_id="plays_hint",
        request=None,
        responses={200: HintSerializer, **problems(401, 403, 404, 409, 429)},
        examples=[
            OpenApiExample(
                "a move",
                response_only=True,
                value={
                    "result": "move",
                    "move": {"type": "move", "from": "t3", "to": "f", "count": 1},
                    "seq": 12,
                    "cached": False,
                },
            ),
            OpenApiExample(
                "no win",
                response_only=True,
                value={"result": "no_win_from_here", "move": None, "seq": 40, "cached": True},
            ),
        ],
    )
    def post(self, request: Request, play_id: uuid.UUID) -> Response:
        """The next move of a winning line from the play's current position, or
        ``no_win_from_here``, or ``unknown`` (not decided within the hint budget, about a
        second). The solver sees the whole deck, face-down cards included, but only the
        move is sent. Practice plays only: a ranked play is 403 ``hints_not_allowed``; a
        finished play is 409 ``play_finished``. Rate-limited (scope ``hints``)."""
        return Response(hints.hint(play_id, request.user))
