"""An account's life over HTTP after registration: guests, linking, sign-out, password
change, deletion and export (docs/api/accounts.md). Thin views over the services."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.web.openapi import AUTH_REQUIRED, BODY, RETRY_AFTER, THROTTLED, problems

from .. import deletion, guests, linking, passwords, registry, sessions
from .serializers import (
    DeletionSerializer,
    ExportSerializer,
    GuestSerializer,
    GuestTokenPairSerializer,
    LinkSerializer,
    LogoutSerializer,
    PasswordChangeSerializer,
)


class GuestView(APIView):
    """Sign a device in as a guest: created on its first call, the same account after.

    The device makes its id (a lower-case UUID) and its secret (32 random bytes,
    base64url) and keeps both; the secret is the guest's only credential until it is linked.
    """

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_guest",
        request=GuestSerializer,
        parameters=[RETRY_AFTER],
        responses={
            200: GuestTokenPairSerializer,
            201: GuestTokenPairSerializer,
            **problems(
                "validation_error",
                "device_secret_mismatch",
                "no_active_account",
                "device_taken",
                "username_taken",
                *BODY,
                *THROTTLED,
            ),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = GuestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user, created = guests.sign_in(
            uuid.UUID(serializer.validated_data["device_id"]),
            serializer.validated_data["device_secret"],
        )
        return Response(
            sessions.token_pair(user),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class LinkView(APIView):
    """Give the signed-in guest a username and a password, keeping all its plays.

    Its scores, streaks and groups stay too. The guest's refresh tokens are revoked; use
    the new pair in the answer.
    """

    permission_classes = [permissions.IsAuthenticated]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_link",
        request=LinkSerializer,
        parameters=[RETRY_AFTER],
        responses={
            200: GuestTokenPairSerializer,
            **problems(
                "validation_error",
                "username_taken",
                "already_linked",
                *AUTH_REQUIRED,
                *BODY,
                *THROTTLED,
            ),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = LinkSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = linking.link(
            request.user.pk,
            serializer.validated_data["username"],
            serializer.validated_data["password"],
        )
        return Response(sessions.token_pair(user))


class LogoutView(APIView):
    """Sign out: revoke a refresh token (a second sign-out with it answers 401).

    Its access tokens stay valid until they expire (``ACCESS_TOKEN_MINUTES``); the app
    forgets them.
    """

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_logout",
        request=LogoutSerializer,
        parameters=[RETRY_AFTER],
        responses={
            204: None,
            **problems("validation_error", "token_not_valid", *BODY, *THROTTLED),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = LogoutSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sessions.sign_out(serializer.validated_data["refresh"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordView(APIView):
    """Change the password: the old one is needed, every refresh token is revoked.

    The answer is a fresh pair, so the app stays signed in; other devices are signed out.
    """

    permission_classes = [permissions.IsAuthenticated]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_password",
        request=PasswordChangeSerializer,
        parameters=[RETRY_AFTER],
        responses={
            200: GuestTokenPairSerializer,
            **problems(
                "validation_error",
                "wrong_password",
                "guest_account",
                *AUTH_REQUIRED,
                *BODY,
                *THROTTLED,
            ),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data, context={"user": request.user})
        serializer.is_valid(raise_exception=True)
        user = passwords.change_password(
            request.user.pk,
            serializer.validated_data["old_password"],
            serializer.validated_data["new_password"],
        )
        return Response(sessions.token_pair(user))


DELETE_SCHEMA = extend_schema(
    operation_id="player_me_delete",
    request=DeletionSerializer,
    responses={
        204: None,
        **problems(
            "validation_error", "wrong_password", "no_active_account", *AUTH_REQUIRED, *BODY
        ),
    },
    tags=["players"],
)


class AccountDeletion:
    """``DELETE /players/me`` for the view that serves ``players/me`` (the leaderboard's
    profile view mixes this in: one path, one view)."""

    @DELETE_SCHEMA
    def delete(self, request: Request) -> Response:
        """Delete the caller's account and its personal data, for good.

        Confirm with the password, or a guest's device secret (docs/api/accounts.md says
        what becomes of scores, groups and fair-play evidence).
        """
        serializer = DeletionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        deletion.delete_account(
            request.user.pk,
            password=serializer.validated_data.get("password"),
            device_secret=serializer.validated_data.get("device_secret"),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportView(APIView):
    """Download everything the service keeps about the caller's account, as JSON.

    Profile, device (never its secret), plays with their moves, scores, streaks and groups.
    """

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="player_me_export",
        responses={200: ExportSerializer, **problems(*AUTH_REQUIRED)},
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        body: dict[str, Any] = {
            "exported_at": timezone.now().isoformat(),
            **registry.export_account(request.user.pk),
        }
        day = timezone.now().date().isoformat()
        return Response(
            body,
            headers={
                "Content-Disposition": f'attachment; filename="haven-account-{day}.json"',
                "Cache-Control": "private, no-store",
            },
        )
