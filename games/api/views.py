"""HTTP views of the games API: check the request's shape, call a service, serialise.

The rules live in the engine, the transactions in ``games.services``; nothing here touches
a play's stored state except through ``services.visible_state`` (via the serializers).
"""

from __future__ import annotations

import uuid

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, permissions, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from .. import engine, services
from ..idempotency import idempotent
from ..models import Play
from ..problems import PROBLEM_CONTENT_TYPE, Problem
from .params import parse_day
from .serializers import (
    CredentialsSerializer,
    DailyDealSerializer,
    DailySerializer,
    HealthSerializer,
    MoveLogSerializer,
    MoveRequestSerializer,
    MoveRequestShapeSerializer,
    PlaySerializer,
    PlaySummarySerializer,
    PresetListSerializer,
    ProblemSerializer,
    RefreshResponseSerializer,
    StartPlaySerializer,
    TokenPairSerializer,
)


def problems(*codes: int) -> dict[tuple[int, str], OpenApiResponse]:
    """Schema entries for the given error statuses, all problem details."""
    return {
        (code, PROBLEM_CONTENT_TYPE): OpenApiResponse(ProblemSerializer, description="problem")
        for code in codes
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "Retrying a POST with the same key (1–255 visible ASCII characters) returns the "
        "first answer again for 24 hours; the same key with a different body is a 422."
    ),
)


# --- Auth ------------------------------------------------------------------------------------


class RegisterView(APIView):
    """Create an account and return a JWT pair right away."""

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_register",
        request=CredentialsSerializer,
        responses={201: TokenPairSerializer, **problems(400, 409, 413, 415, 429)},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        username = serializer.validated_data["username"]
        users = get_user_model()
        try:
            with transaction.atomic():
                if users.objects.filter(username__iexact=username).exists():
                    raise IntegrityError("username taken")
                user = users.objects.create_user(
                    username=username, password=serializer.validated_data["password"]
                )
        except IntegrityError as error:
            raise Problem(409, "username_taken", "that username is taken") from error
        refresh = RefreshToken.for_user(user)
        body = {
            "token_type": "Bearer",
            "access": str(refresh.access_token),
            "refresh": str(refresh),
            "username": user.get_username(),
        }
        return Response(body, status=status.HTTP_201_CREATED)


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_token",
        request=CredentialsSerializer,
        responses={200: TokenPairSerializer, **problems(400, 401, 413, 415, 429)},
        tags=["auth"],
    )
)
class TokenView(TokenObtainPairView):
    """Exchange username and password for a JWT pair (access: 1 day, refresh: 30 days)."""

    throttle_scope = "auth"

    def post(self, request: Request, *args: object, **kwargs: object) -> Response:
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:
            response.data = {"token_type": "Bearer", **response.data}
        return response


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_token_refresh",
        responses={200: RefreshResponseSerializer, **problems(400, 401, 413, 415, 429)},
        tags=["auth"],
    )
)
class RefreshView(TokenRefreshView):
    """Exchange a refresh token for a new access token."""

    throttle_scope = "auth"


# --- Presets, daily deals, health --------------------------------------------------------------


class PresetsView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="presets_list", responses={200: PresetListSerializer})
    def get(self, request: Request) -> Response:
        """The presets of RULES.md with their options (and defaults) and descriptions."""
        presets = [
            {
                "name": name,
                "title": rules.title,
                "description": rules.description,
                "options": dict(rules.options),
            }
            for name, rules in engine.PRESETS.items()
        ]
        return Response({"presets": presets})


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
            )
        ],
        responses={200: DailySerializer, **problems(400, 404)},
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
        each deck and par solution; today's deck is never shown; future dates are 404."""
        today = services.utc_today()
        day = parse_day(date, today)
        if day > today:
            raise Problem(404, "not_found", f"the daily deals of {day} are not out yet")
        deals = services.daily_deals(day)
        if not deals and day < today:
            raise Problem(404, "not_found", f"there were no daily deals on {day}")
        context = {"day_over": day < today}
        return Response(
            {
                "date": day.isoformat(),
                "deals": {
                    deal.preset: DailyDealSerializer(deal, context=context).data for deal in deals
                },
            }
        )


class HealthView(APIView):
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="health", responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        """Liveness and readiness: can we reach the database and the cache?"""
        checks = {"database": "ok", "cache": "ok"}
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:  # any failure of the probe is the answer
            checks["database"] = "unavailable"
        try:
            probe = f"health:{uuid.uuid4().hex}"
            cache.set(probe, "1", 5)
            if cache.get(probe) != "1":
                checks["cache"] = "unavailable"
            cache.delete(probe)
        except Exception:
            checks["cache"] = "unavailable"
        healthy = all(value == "ok" for value in checks.values())
        return Response(
            {"status": "ok" if healthy else "degraded", **checks},
            status=200 if healthy else 503,
        )


# --- Plays -----------------------------------------------------------------------------------


class PlayCursor(CursorPagination):
    ordering = "-started_at"
    page_size = 20
    max_page_size = 100
    page_size_query_param = "page_size"


class PlaysView(generics.GenericAPIView):
    throttle_scope = "plays"
    pagination_class = PlayCursor
    serializer_class = PlaySummarySerializer

    def get_queryset(self):
        return Play.objects.filter(player=self.request.user)

    @extend_schema(
        operation_id="plays_list",
        responses={200: PlaySummarySerializer(many=True), **problems(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:
        """The caller's plays, newest first, cursor-paginated (metadata and score only)."""
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(PlaySummarySerializer(page, many=True).data)

    @extend_schema(
        operation_id="plays_create",
        request=StartPlaySerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: PlaySerializer, **problems(400, 401, 404, 409, 413, 415, 422, 429)},
        examples=[
            OpenApiExample("ranked daily", {"preset": "easthaven", "daily": "2026-11-29"}),
            OpenApiExample("practice by seed", {"preset": "westcliff", "seed": 12345}),
            OpenApiExample(
                "practice by PySolFC number",
                {"preset": "seahaven", "pysol_deal": 1977, "options": {"classic_supermove": True}},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        """Start a ranked play of today's daily deal, or a practice play of a seed, a deck
        or a PySolFC deal number. A second ranked play of a preset and day is a 409."""

        def start() -> Response:
            serializer = StartPlaySerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            play = services.start_play(
                request.user,
                data["preset"],
                data.get("options"),
                daily=data.get("daily"),
                seed=data.get("seed"),
                deck=data.get("deck"),
                pysol_deal=data.get("pysol_deal"),
            )
            return Response(PlaySerializer(play).data, status=status.HTTP_201_CREATED)

        return idempotent(request, start)


class PlayDetailView(APIView):
    throttle_scope = "plays"

    @extend_schema(
        operation_id="plays_retrieve",
        responses={200: PlaySerializer, **problems(401, 404, 429)},
    )
    def get(self, request: Request, play_id: uuid.UUID) -> Response:
        """The play's visible state, score and legal moves (another player's play is 404)."""
        return Response(PlaySerializer(services.get_play(play_id, request.user)).data)


class MovesView(APIView):
    throttle_scope = "moves"

    @extend_schema(
        operation_id="plays_moves_list",
        responses={200: MoveLogSerializer, **problems(401, 404, 429)},
    )
    def get(self, request: Request, play_id: uuid.UUID) -> Response:
        """Every row of the play's move log in order, with its time (undo rows included)."""
        play = services.get_play(play_id, request.user)
        return Response(MoveLogSerializer({"play": play.id, "moves": play.moves.all()}).data)

    @extend_schema(
        operation_id="plays_moves_create",
        request=MoveRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: PlaySerializer, **problems(400, 401, 404, 409, 413, 415, 422, 429)},
        examples=[
            OpenApiExample(
                "run", {"seq": 12, "move": {"type": "move", "from": "t3", "to": "t5", "count": 2}}
            ),
            OpenApiExample(
                "to foundation", {"seq": 12, "move": {"type": "move", "from": "t3", "to": "f"}}
            ),
            OpenApiExample("deal", {"seq": 12, "move": {"type": "deal"}}),
            OpenApiExample("undo", {"seq": 12, "move": {"type": "undo"}}),
        ],
    )
    def post(self, request: Request, play_id: uuid.UUID) -> Response:
        """Apply one move (or undo / resign) and return the new state. ``seq`` must equal
        the play's seq (409 ``stale_sequence``); an illegal move is 422 ``illegal_move``
        with the rule in ``rule``; a move on a finished play is 409 ``play_finished``."""

        def move() -> Response:
            shape = MoveRequestShapeSerializer(data=request.data)
            shape.is_valid(raise_exception=True)
            parsed = engine.Move.from_dict(shape.validated_data["move"])
            play = services.apply_move(play_id, request.user, shape.validated_data["seq"], parsed)
            return Response(PlaySerializer(play).data)

        return idempotent(request, move)
