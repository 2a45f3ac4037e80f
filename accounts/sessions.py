"""Tokens: issuing a pair, signing out (one refresh token), and revoking them all.

Refresh tokens are recorded by simplejwt's ``token_blacklist`` app when issued
(``OutstandingToken``); signing out blacklists one, a password change all of the account's.
Access tokens carry simplejwt's revoke claim (a hash of the password hash,
``CHECK_REVOKE_TOKEN``): a new password refuses the old ones at once on every endpoint that
loads the user, and on the move path within ``AUTH_RECHECK_SECONDS`` (``accounts.auth``).
"""

from __future__ import annotations

from typing import Any

from rest_framework_simplejwt.exceptions import TokenError
from rest_framework_simplejwt.token_blacklist.models import BlacklistedToken, OutstandingToken
from rest_framework_simplejwt.tokens import RefreshToken

from config.errors import DomainError

from .models import Device


def is_guest(user: Any) -> bool:
    return Device.objects.filter(user_id=user.pk, linked_at__isnull=True).exists()


def token_pair(user: Any) -> dict[str, Any]:
    """A fresh JWT pair for ``user``, with its name and whether it is a guest."""
    refresh = RefreshToken.for_user(user)
    return {
        "token_type": "Bearer",
        "access": str(refresh.access_token),
        "refresh": str(refresh),
        "username": user.get_username(),
        "guest": is_guest(user),
    }


def sign_out(refresh: str) -> None:
    """Blacklist ``refresh``; ``token_not_valid`` (401) for a token that is not a live
    refresh token, an already revoked one included (a replayed sign-out)."""
    try:
        RefreshToken(refresh).blacklist()  # type: ignore[arg-type]
    except TokenError as error:
        raise DomainError("token_not_valid", str(error)) from error


def revoke_all(user_id: int) -> int:
    """Blacklist every outstanding refresh token of the account; how many were live."""
    live = OutstandingToken.objects.filter(user_id=user_id, blacklistedtoken__isnull=True)
    revoked = [BlacklistedToken(token=token) for token in live]
    BlacklistedToken.objects.bulk_create(revoked, ignore_conflicts=True)
    return len(revoked)
