"""Tournaments over HTTP: list, create (a group owner), read with standings, join, play a
seeded tournament's own deal, read that deal once the tournament has ended, stream."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import DomainError
from config.web import caching, clientkeys
from config.web.openapi import (
    AUTH_REQUIRED,
    BODY,
    IDEMPOTENT_REPLAYED,
    IF_NONE_MATCH,
    LOCATION,
    THROTTLED,
    caching_headers,
    problems,
)
from games.api.serializers import PlaySerializer
from games.api.views.plays import IDEMPOTENCY_KEY, start_idempotently
from realtime import access, channels
from realtime.offloop import off_loop
from realtime.views import open_stream, problem_of, unauthenticated

from . import plays, publication, services, standings
from .models import Tournament
from .serializers import (
    TournamentCreateSerializer,
    TournamentDealSerializer,
    TournamentDetailSerializer,
    TournamentListSerializer,
    TournamentSerializer,
)

TAG = ["tournaments"]
ID = OpenApiParameter("tournament_id", OpenApiTypes.INT, OpenApiParameter.PATH)


def _detail(tournament: Tournament, user: Any) -> dict[str, Any]:
    context = {"user": user, "places": standings.current(tournament)}
    return TournamentDetailSerializer(tournament, context=context).data


class TournamentsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_list",
        tags=TAG,
        responses={200: TournamentListSerializer, **problems(*AUTH_REQUIRED)},
    )
    def get(self, request: Request) -> Response:
        """The tournaments the caller may join or follow: open ones and their groups'."""
        found = services.visible_to(request.user).order_by("-starts_at", "id")[:100]
        data = TournamentSerializer(found, many=True, context={"user": request.user}).data
        return Response({"results": data})

    @extend_schema(
        operation_id="tournaments_create",
        tags=TAG,
        request=TournamentCreateSerializer,
        parameters=[LOCATION],
        responses={
            201: TournamentDetailSerializer,
            **problems(
                "validation_error",
                "invalid_tournament",
                "not_group_owner",
                *AUTH_REQUIRED,
                *BODY,
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """Create a tournament for a group the caller owns (operators use the admin)."""
        body = TournamentCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = dict(body.validated_data)
        group = fields.pop("group")
        fields["options"] = dict.fromkeys(fields.get("options") or [], True)
        tournament = services.create(request.user, group, **fields)
        return Response(
            _detail(tournament, request.user),
            status=status.HTTP_201_CREATED,
            headers={"Location": reverse("tournament-detail", args=[tournament.pk])},
        )


class TournamentDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_read",
        tags=TAG,
        parameters=[ID],
        responses={
            200: TournamentDetailSerializer,
            **problems("tournament_not_found", *AUTH_REQUIRED),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """A tournament with its standing: live while it runs, final once frozen."""
        return Response(_detail(services.get(request.user, tournament_id), request.user))


class TournamentJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_join",
        tags=TAG,
        request=None,
        parameters=[ID],
        responses={
            200: TournamentDetailSerializer,
            201: TournamentDetailSerializer,
            **problems(
                "tournament_not_found", "tournament_closed", "tournament_full", *AUTH_REQUIRED
            ),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Join during the join window (201; 200 if already in). Play the tournament's
        preset's daily deal, ranked, inside the window: its first attempts count."""
        tournament, new = services.join(request.user, tournament_id)
        code = status.HTTP_201_CREATED if new else status.HTTP_200_OK
        return Response(_detail(tournament, request.user), status=code)


class TournamentPlaysView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_scope = "plays"

    @extend_schema(
        operation_id="tournaments_play",
        tags=TAG,
        request=None,
        parameters=[ID, IDEMPOTENCY_KEY, LOCATION, IDEMPOTENT_REPLAYED],
        responses={
            201: PlaySerializer,
            **problems(
                "tournament_not_found",
                "tournament_not_seeded",
                "tournament_not_joined",
                "tournament_not_started",
                "tournament_over",
                "tournament_deal_not_ready",
                "tournament_attempts_used",
                "ranked_banned",
                "invalid_idempotency_key",
                "idempotency_key_reused",
                *AUTH_REQUIRED,
                *THROTTLED,
            ),
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Start a ranked play of a seeded tournament's own deal: an entrant, inside the
        window, while attempts are left. The play then moves as any play does
        (``/api/v1/plays/{id}/moves``); the answer's ``Location`` is the play."""

        def start() -> Response:
            play = plays.start(request.user, tournament_id, clientkeys.client_keys(request))
            return Response(PlaySerializer(play).data, status=status.HTTP_201_CREATED)

        return start_idempotently(request, start)


class TournamentDealView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_deal",
        tags=TAG,
        parameters=[ID, IF_NONE_MATCH, *caching_headers()],
        responses={
            200: TournamentDealSerializer,
            304: None,
            **problems(
                "tournament_not_found",
                "tournament_not_seeded",
                "tournament_deal_not_published",
                "not_found",
                *AUTH_REQUIRED,
            ),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """A seeded tournament's deal once the tournament has ended: its deck, verdict, par
        and par solution, as a past daily's deal is shown. Until ``ends_at`` it is 409
        ``tournament_deal_not_published`` (``published_at`` says when); nothing of the deal
        leaves the server before (its ranked plays close at that moment)."""
        tournament, deal, published_at = publication.published_deal(request.user, tournament_id)
        body = {
            "tournament": tournament.pk,
            "id": deal.id,
            "preset": deal.preset,
            "options": deal.options,
            "verdict": deal.verdict or "unknown",
            "par": deal.par,
            "deck": list(deal.deck),
            "solution": list(deal.solution),
            "published_at": published_at,
        }
        data = TournamentDealSerializer(body).data
        # A group's tournament is for its members only: private, though it never changes.
        return caching.cached(request, data, caching.PRIVATE)


async def tournament_stream(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The tournament's live standing (``standings`` events), as ``GET`` shows it."""
    user, refusal = await off_loop(access.user_of)(request)
    if user is None:
        return unauthenticated(refusal)
    try:
        tournament = await off_loop(services.get)(user, tournament_id)
    except DomainError as error:
        return problem_of(error)

    async def snapshot() -> dict[str, Any]:
        places = await off_loop(standings.current)(tournament)
        return {"standings": [p.as_dict() for p in places if p.rank][:50]}

    poll = f"/api/v1/tournaments/{tournament.pk}"
    return open_stream(request, channels.tournament(tournament.pk), poll, snapshot, None)
