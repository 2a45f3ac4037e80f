"""Player profiles over HTTP: anyone's by name, and one's own."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import names
from accounts.api.lifecycle import AccountDeletion
from config.web import caching
from config.web.openapi import (
    AUTH_REQUIRED,
    IF_NONE_MATCH,
    caching_headers,
    problems,
)
from config.web.problems import Problem

from ... import profiles
from ..serializers import (
    ProfileSerializer,
)

# --- Players ---------------------------------------------------------------------------------


class PlayerView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_profile",
        parameters=[
            OpenApiParameter("username", OpenApiTypes.STR, OpenApiParameter.PATH),
            IF_NONE_MATCH,
            *caching_headers(),
        ],
        responses={200: ProfileSerializer, 304: None, **problems("player_not_found")},
    )
    def get(self, request: Request, username: str) -> Response:
        """A player's ranked plays, wins and win rate per preset, streaks and best ranks."""
        user = names.find_user(username)
        if user is None:
            raise Problem(404, "player_not_found", f"no player {username!r}")
        body = ProfileSerializer(profiles.profile(user)).data
        return caching.cached(request, body, caching.SHORT)


class MeView(AccountDeletion, APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="player_me",
        parameters=[IF_NONE_MATCH, *caching_headers()],
        responses={200: ProfileSerializer, 304: None, **problems(*AUTH_REQUIRED)},
    )
    def get(self, request: Request) -> Response:
        """The caller's own profile."""
        body = ProfileSerializer(profiles.profile(request.user, own=True)).data
        return caching.cached(request, body, caching.PRIVATE)
