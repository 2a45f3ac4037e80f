"""HTTP views of the games API: check the request's shape, call a service, serialise.

The rules live in the engine, the transactions in ``games.services``; nothing here touches
a play's stored state except through ``services.visible_state`` (via the serializers).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from config import redis_guard
from config.web import caching, outage
from config.web.idempotency import idempotent
from config.web.openapi import (
    AUTH_REQUIRED,
    BODY,
    CONTENT_LANGUAGE,
    IDEMPOTENT_REPLAYED,
    IF_MATCH,
    IF_NONE_MATCH,
    LANG,
    LOCATION,
    RETRY_AFTER,
    THROTTLED,
    caching_headers,
    problems,
)
from config.web.params import parse_day
from config.web.problems import Problem

from .. import accounts, daily, engine, services
from ..auth import ClaimsJWTAuthentication
from ..errors import DomainError
from ..models import Play
from ..preset_texts import preset_document
from ..winnability.selectors import preset_winnability
from . import etags
from .pagination import PAGINATION_PARAMETERS, PlayCursor
from .params import (
    parse_moves,
    plain_batch_request,
    plain_move_request,
    require_one_of_move_and_moves,
)
from .serializers import (
    CredentialsSerializer,
    DailyDealSerializer,
    DailySerializer,
    HealthSerializer,
    LoginSerializer,
    MoveBatchShapeSerializer,
    MoveLogSerializer,
    MoveRequestShapeSerializer,
    PlayMoveSerializer,
    PlaySerializer,
    PlaySummarySerializer,
    PresetListSerializer,
    RefreshResponseSerializer,
    RefreshSerializer,
    StartPlaySerializer,
    TokenPairSerializer,
)

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
        parameters=[LOCATION, RETRY_AFTER],
        responses={
            201: TokenPairSerializer,
            **problems("validation_error", "username_taken", *BODY, *THROTTLED),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = accounts.register(
            serializer.validated_data["username"], serializer.validated_data["password"]
        )
        refresh = RefreshToken.for_user(user)
        body = {
            "token_type": "Bearer",
            "access": str(refresh.access_token),
            "refresh": str(refresh),
            "username": user.get_username(),
        }
        location = reverse("player-detail", kwargs={"username": user.get_username()})
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_token",
        request=CredentialsSerializer,
        parameters=[RETRY_AFTER],
        responses={
            200: TokenPairSerializer,
            **problems("validation_error", "no_active_account", *BODY, *THROTTLED),
        },
        tags=["auth"],
    )
)
class TokenView(TokenObtainPairView):
    """Exchange username and password for a JWT pair (access: 1 day, refresh: 30 days).
    The username may be written in any spelling with the same key (``games.accounts``)."""

    throttle_scope = "auth"
    serializer_class = LoginSerializer

    def post(self, request: Request, *args: object, **kwargs: object) -> Response:
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:
            response.data = {"token_type": "Bearer", **response.data}
        return response


@extend_schema_view(
    post=extend_schema(
        operation_id="auth_token_refresh",
        parameters=[RETRY_AFTER],
        responses={
            200: RefreshResponseSerializer,
            **problems("validation_error", "token_not_valid", *BODY, *THROTTLED),
        },
        tags=["auth"],
    )
)
class RefreshView(TokenRefreshView):
    """Exchange a refresh token for a new access token."""

    throttle_scope = "auth"
    serializer_class = RefreshSerializer


# --- Presets, daily deals, health --------------------------------------------------------------


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
        each deck and par solution; today's deck is never shown; future dates are 404."""
        today = daily.utc_today()
        day = parse_day(date, today)
        if day > today:
            raise Problem(404, "not_found", f"the daily deals of {day} are not out yet")
        deals = daily.daily_deals(day)
        if not deals and day < today:
            raise Problem(404, "not_found", f"there were no daily deals on {day}")
        context = {"day_over": day < today}
        body = {
            "date": day.isoformat(),
            "deals": {
                deal.preset: DailyDealSerializer(deal, context=context).data for deal in deals
            },
        }
        # A past day never changes; today's deals may still be prepared while it lasts.
        return caching.cached(request, body, caching.IMMUTABLE if day < today else caching.SHORT)


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


# --- Plays -----------------------------------------------------------------------------------


PLAY_PARAMETERS = [
    OpenApiParameter("play_id", OpenApiTypes.UUID, OpenApiParameter.PATH),
]


class PlaysView(generics.GenericAPIView):
    throttle_scope = "plays"
    pagination_class = PlayCursor
    serializer_class = PlaySummarySerializer

    def get_queryset(self):
        return Play.objects.filter(player=self.request.user)

    @extend_schema(
        operation_id="plays_list",
        parameters=[*PAGINATION_PARAMETERS, RETRY_AFTER],
        responses={
            200: PlaySummarySerializer(many=True),
            **problems("invalid_cursor", "invalid_page_size", *AUTH_REQUIRED, *THROTTLED),
        },
    )
    def get(self, request: Request) -> Response:
        """The caller's plays, newest first, cursor-paginated (metadata and score only)."""
        page = self.paginate_queryset(self.get_queryset())
        response = self.get_paginated_response(PlaySummarySerializer(page, many=True).data)
        response["Cache-Control"] = caching.PRIVATE
        return response

    @extend_schema(
        operation_id="plays_create",
        request=StartPlaySerializer,
        parameters=[IDEMPOTENCY_KEY, LOCATION, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={
            201: PlaySerializer,
            **problems(
                "validation_error",
                "invalid_deck",
                "seed_out_of_range",
                "deal_out_of_range",
                "unknown_preset",
                "unknown_option",
                "invalid_option",
                "daily_over",
                "invalid_idempotency_key",
                "daily_not_available",
                "already_played",
                "idempotency_key_reused",
                *AUTH_REQUIRED,
                *BODY,
                *THROTTLED,
            ),
        },
        examples=[
            OpenApiExample(
                "ranked daily", {"preset": "easthaven", "daily": "today"}, request_only=True
            ),
            OpenApiExample(
                "practice by seed", {"preset": "westcliff", "seed": 12345}, request_only=True
            ),
            OpenApiExample(
                "practice by PySolFC number",
                {"preset": "seahaven", "pysol_deal": 1977, "options": {"classic_supermove": True}},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        """Start a ranked play of today's daily deal (``"daily": "today"`` or today's
        date), or a practice play of a seed, a deck or a PySolFC deal number. A second
        ranked play of a preset and day is a 409. The answer's ``Location`` is the play."""

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

        response = idempotent(request, start)
        if response.status_code == status.HTTP_201_CREATED:  # a replayed 201 too
            play_id = response.data["id"]
            response["Location"] = reverse("play-detail", kwargs={"play_id": play_id})
            response["ETag"] = etags.play_etag(play_id, response.data["seq"])
        return response


class PlayDetailView(APIView):
    throttle_scope = "plays"

    @extend_schema(
        operation_id="plays_retrieve",
        parameters=[*PLAY_PARAMETERS, IF_NONE_MATCH, *caching_headers(), RETRY_AFTER],
        responses={
            200: PlaySerializer,
            304: None,
            **problems("not_found", *AUTH_REQUIRED, *THROTTLED),
        },
    )
    def get(self, request: Request, play_id: uuid.UUID) -> Response:
        """The play's visible state, score and legal moves (another player's play is 404).
        Its ETag changes exactly when its ``seq`` does: poll with ``If-None-Match``."""
        play = services.get_play(play_id, request.user)
        etag = etags.play_etag(play.id, play.seq)
        if caching.is_fresh(request, etag):
            return caching.not_modified(etag, caching.PRIVATE)
        return caching.cached(request, PlaySerializer(play).data, caching.PRIVATE, etag=etag)


class MovesView(APIView):
    # The hot path: the token's claims name the player, no user row is read (games.auth).
    authentication_classes = [ClaimsJWTAuthentication]
    throttle_scope = "moves"

    @extend_schema(
        operation_id="plays_moves_list",
        parameters=[*PLAY_PARAMETERS, IF_NONE_MATCH, *caching_headers(), RETRY_AFTER],
        responses={
            200: MoveLogSerializer,
            304: None,
            **problems("not_found", *AUTH_REQUIRED, *THROTTLED),
        },
    )
    def get(self, request: Request, play_id: uuid.UUID) -> Response:
        """Every row of the play's move log in order, with its time (undo rows included).
        Its ETag, like the play's, changes exactly when the play's ``seq`` does."""
        play = services.get_play(play_id, request.user)
        etag = etags.play_etag(play.id, play.seq)
        if caching.is_fresh(request, etag):
            return caching.not_modified(etag, caching.PRIVATE)
        body = MoveLogSerializer({"play": play.id, "moves": play.moves.all()}).data
        return caching.cached(request, body, caching.PRIVATE, etag=etag)

    @extend_schema(
        operation_id="plays_moves_create",
        request=PlayMoveSerializer,
        parameters=[
            *PLAY_PARAMETERS,
            IDEMPOTENCY_KEY,
            IF_MATCH,
            IDEMPOTENT_REPLAYED,
            RETRY_AFTER,
            *caching_headers(200),
        ],
        responses={
            200: PlaySerializer,
            **problems(
                "validation_error",
                "invalid_move",
                "invalid_idempotency_key",
                "not_found",
                "stale_sequence",
                "play_finished",
                "precondition_failed",
                "illegal_move",
                "batch_after_reveal",
                "undo_forbidden",
                "nothing_to_undo",
                "idempotency_key_reused",
                *AUTH_REQUIRED,
                *BODY,
                *THROTTLED,
            ),
        },
        examples=[
            OpenApiExample(
                "run",
                {"seq": 12, "move": {"type": "move", "from": "t3", "to": "t5", "count": 2}},
                request_only=True,
            ),
            OpenApiExample(
                "to foundation",
                {"seq": 12, "move": {"type": "move", "from": "t3", "to": "f"}},
                request_only=True,
            ),
            OpenApiExample("deal", {"seq": 12, "move": {"type": "deal"}}, request_only=True),
            OpenApiExample("undo", {"seq": 12, "move": {"type": "undo"}}, request_only=True),
            OpenApiExample(
                "batch",
                {
                    "seq": 12,
                    "moves": [
                        {"type": "move", "from": "t3", "to": "f"},
                        {"type": "move", "from": "t0", "to": "t3"},
                        {"type": "deal"},
                    ],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request, play_id: uuid.UUID) -> Response:
        """Apply one move (or undo / resign) and return the new state. ``seq`` must equal
        the play's seq (409 ``stale_sequence``); an illegal move is 422 ``illegal_move``
        with the rule in ``rule``; a move on a finished play is 409 ``play_finished``.
        With ``If-Match: <the play's ETag>`` the move applies only to that version of the
        play (412 ``precondition_failed`` otherwise), and ``seq`` may be left out.

        ``{"seq": n, "moves": [...]}`` (1–500 moves) applies a batch in order in one
        transaction, all or nothing: the first refused move's problem names its ``index``;
        in a ranked play a move that turns a face-down card or deals ends its batch (422
        ``batch_after_reveal``). The answer is the resulting play."""
        if_match = request.headers.get("If-Match")

        def expected_seq(body_seq: int | None) -> int:
            try:
                return etags.expected_seq(if_match, play_id, body_seq)
            except Problem as problem:
                if problem.problem_code == "precondition_failed":
                    # Someone else's play, or none, is 404 whatever the If-Match says.
                    services.get_play(play_id, request.user)
                raise

        def move() -> Response:
            require_one_of_move_and_moves(request.data)
            if isinstance(request.data, dict) and "moves" in request.data:
                return batch()
            seq, raw = plain_move_request(request.data)
            if seq is None:  # anything unusual: the serializer checks it and words the 400
                shape = MoveRequestShapeSerializer(data=request.data)
                shape.is_valid(raise_exception=True)
                seq, raw = shape.validated_data.get("seq"), shape.validated_data["move"]
            seq = expected_seq(seq)
            parsed = engine.Move.from_dict(raw)
            return applied(lambda: services.apply_move(play_id, request.user, seq, parsed))

        def batch() -> Response:
            seq, raw = plain_batch_request(request.data)
            if seq is None:  # anything unusual: the serializer checks it and words the 400
                shape = MoveBatchShapeSerializer(data=request.data)
                shape.is_valid(raise_exception=True)
                seq, raw = shape.validated_data.get("seq"), shape.validated_data["moves"]
            seq = expected_seq(seq)
            parsed = parse_moves(raw)
            return applied(lambda: services.apply_moves(play_id, request.user, seq, parsed))

        def applied(apply: Callable[[], Any]) -> Response:
            try:
                play = apply()
            except DomainError as error:
                if if_match is not None and error.code == "stale_sequence":
                    raise etags.precondition_failed(error.extra.get("seq")) from None
                raise
            return Response(PlaySerializer(play).data)

        response = idempotent(request, move)
        if response.status_code == status.HTTP_200_OK:
            response["ETag"] = etags.play_etag(play_id, response.data["seq"])
            response["Cache-Control"] = caching.PRIVATE
        return response
