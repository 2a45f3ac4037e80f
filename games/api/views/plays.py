"""A player's plays over HTTP: start one, list them, read one, move.

The rules live in the engine, the transactions in ``games.services``; nothing here touches
a play's stored state except through ``services.visible_state`` (via the serializers).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
)
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.auth import ClaimsJWTAuthentication
from config.errors import DomainError
from config.replicas import on_primary, replica_reads
from config.web import caching, clientkeys
from config.web.idempotency import idempotent
from config.web.openapi import (
    AUTH_REQUIRED,
    BODY,
    IDEMPOTENT_REPLAYED,
    IF_MATCH,
    IF_NONE_MATCH,
    LOCATION,
    RETRY_AFTER,
    THROTTLED,
    caching_headers,
    problems,
)
from config.web.problems import Problem

from ... import engine, services
from ...models import Play
from .. import etags
from ..pagination import PAGINATION_PARAMETERS, PlayCursor
from ..params import (
    parse_moves,
    plain_batch_request,
    plain_move_request,
    require_one_of_move_and_moves,
)
from ..serializers import (
    MoveBatchShapeSerializer,
    MoveLogSerializer,
    MoveRequestShapeSerializer,
    PlayMoveSerializer,
    PlaySerializer,
    PlaySummarySerializer,
    StartPlaySerializer,
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


PLAY_PARAMETERS = [
    OpenApiParameter("play_id", OpenApiTypes.UUID, OpenApiParameter.PATH),
]


def start_idempotently(request: Request, start: Callable[[], Response]) -> Response:
    """Run ``start`` (a play's creation, answering 201) once per ``Idempotency-Key``, and
    give its 201, first or replayed, the play's ``Location``, ``ETag`` and cache rule."""
    response = idempotent(request, start)
    if response.status_code == status.HTTP_201_CREATED:  # a replayed 201 too
        play_id = response.data["id"]
        response["Location"] = reverse("play-detail", kwargs={"play_id": play_id})
        response["ETag"] = etags.play_etag(play_id, response.data["seq"])
        # A play's state is private and changes with every move, as on GET (README).
        response["Cache-Control"] = caching.PRIVATE
    return response


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
    @replica_reads  # a second of lag is harmless in a history (docs/operations/scaling.md)
    def get(self, request: Request) -> Response:
        """The caller's plays, newest first, cursor-paginated (metadata and score only)."""
        page = self.paginate_queryset(self.get_queryset())
        response = self.get_paginated_response(PlaySummarySerializer(page, many=True).data)
        response["Cache-Control"] = caching.PRIVATE
        return response

    @extend_schema(
        operation_id="plays_create",
        request=StartPlaySerializer,
        parameters=[
            IDEMPOTENCY_KEY,
            LOCATION,
            IDEMPOTENT_REPLAYED,
            RETRY_AFTER,
            *caching_headers(201),
        ],
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
                "live_daily_deal",
                "live_tournament_deal",
                "invalid_idempotency_key",
                "daily_not_available",
                "already_played",
                "ranked_banned",
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
                client_keys=clientkeys.client_keys(request),
            )
            return Response(PlaySerializer(play).data, status=status.HTTP_201_CREATED)

        return start_idempotently(request, start)


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
    # The hot path: the token's claims name the player, no user row is read (accounts.auth).
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
    @replica_reads  # a finished play's log never changes (its rows are counted first)
    def get(self, request: Request, play_id: uuid.UUID) -> Response:
        """Every row of the play's move log in order, with its time (undo rows included).
        Its ETag, like the play's, changes exactly when the play's ``seq`` does."""
        with on_primary():  # the latest seq, for the ETag and to judge the replica
            play = services.get_play(play_id, request.user)
        etag = etags.play_etag(play.id, play.seq)
        if caching.is_fresh(request, etag):
            return caching.not_modified(etag, caching.PRIVATE)
        moves = list(play.moves.all()) if play.finished else []
        if len(moves) != play.seq:  # still moving, or the replica is behind: the primary
            with on_primary():
                moves = list(play.moves.all())
        body = MoveLogSerializer({"play": play.id, "moves": moves}).data
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
                "ranked_play_expired",
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
        with the rule in ``rule``; a move on a finished play is 409 ``play_finished``; on a
        ranked play past its day's deadline (UTC midnight plus ``RANKED_GRACE_MINUTES``)
        409 ``ranked_play_expired``, and the play is closed as ``expired``, unfinished.
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
