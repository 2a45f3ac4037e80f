"""Accounts over HTTP: register, guests, linking, the JWT pair's issue, refresh and
revocation, password change, and the account's deletion and export (docs/api/accounts.md).

Views are thin: the services (``accounts.guests``, ``linking``, ``sessions``, ``passwords``,
``deletion``) decide and raise domain errors; the web layer maps them to problems."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework_simplejwt.tokens import RefreshToken
from rest_framework_simplejwt.views import TokenObtainPairView, TokenRefreshView

from config.web.openapi import (
    BODY,
    LOCATION,
    RETRY_AFTER,
    THROTTLED,
    problems,
)

from .. import names
from .serializers import (
    CredentialsSerializer,
    LoginSerializer,
    RefreshResponseSerializer,
    RefreshSerializer,
    TokenPairSerializer,
)


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
        user = names.register(
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
    The username may be written in any spelling with the same key (``accounts.names``)."""

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
