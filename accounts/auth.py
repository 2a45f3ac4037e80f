"""Bearer JWTs without a user query per request, for the move path.

The default ``JWTAuthentication`` loads the user row on every request; on the move endpoint
that query was a quarter of a move's time. :class:`ClaimsJWTAuthentication` trusts the
signed ``user_id`` claim and only asks the database whether the account still exists and is
active, and whether its password is still the one the token was issued under (the revoke
claim), once per ``AUTH_RECHECK_SECONDS`` (default 30) per user and process. Saving or
deleting a user drops its entry at once in the process that made the change
(:func:`forget_user`, connected to ``post_save`` / ``post_delete``); other processes refuse
a deactivated or deleted account, or a token of an old password, at the latest
``AUTH_RECHECK_SECONDS`` later.

``request.user`` is then a :class:`ClaimsUser`: ``pk``/``id``, authenticated, nothing else
(code on this path filters by ``player_id``). A token whose ``user_id`` claim is missing or
not a positive integer is refused with a 401, never a 500 (the same check as every other
endpoint's: :func:`accounts.authentication.claimed_user_id`).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.functional import cached_property
from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.models import TokenUser
from rest_framework_simplejwt.settings import api_settings
from rest_framework_simplejwt.tokens import Token
from rest_framework_simplejwt.utils import get_md5_hash_password

from .authentication import claimed_user_id

_MAX_ENTRIES = 100_000

# user id -> (active, password stamp, monotonic time of the check); a dict's get and set are
# atomic under the GIL, so gthread workers share it without a lock (a lost update only
# costs a query).
_checked: dict[int, tuple[bool, str, float]] = {}


def recheck_seconds() -> float:
    return float(getattr(settings, "AUTH_RECHECK_SECONDS", 30))


def forget_user(sender: Any = None, instance: Any = None, **kwargs: Any) -> None:
    """Drop the cached verdict of a saved or deleted user (signal receiver)."""
    if instance is not None and instance.pk is not None:
        _checked.pop(instance.pk, None)


def forget_all() -> None:
    _checked.clear()


def _account(user_id: int) -> tuple[bool, str]:
    """Whether the account is active, and the stamp of its password that simplejwt's revoke
    claim carries (``CHECK_REVOKE_TOKEN``): a changed password changes it."""
    now = time.monotonic()
    seen = _checked.get(user_id)
    if seen is not None and now - seen[2] < recheck_seconds():
        return seen[0], seen[1]
    row = get_user_model().objects.filter(pk=user_id).values_list("is_active", "password").first()
    active, stamp = (bool(row[0]), get_md5_hash_password(row[1])) if row else (False, "")
    if len(_checked) >= _MAX_ENTRIES:
        _checked.clear()
    _checked[user_id] = (active, stamp, now)
    return active, stamp


class ClaimsUser(TokenUser):
    """The caller as the token names them: an id, authenticated, no row loaded."""

    def __init__(self, token: Token, user_id: int) -> None:
        super().__init__(token)
        self._user_id = user_id

    @cached_property
    def id(self) -> int:  # type: ignore[override]
        return self._user_id

    @cached_property
    def pk(self) -> int:  # type: ignore[override]
        return self._user_id


class ClaimsJWTAuthentication(JWTAuthentication):
    """``JWTAuthentication`` whose user comes from the token's claims (see the module)."""

    def get_user(self, validated_token: Token) -> ClaimsUser:  # type: ignore[override]
        user_id = claimed_user_id(validated_token)
        active, stamp = _account(user_id)
        if not active:
            raise AuthenticationFailed("User not found or inactive", code="user_inactive")
        if api_settings.CHECK_REVOKE_TOKEN and (
            validated_token.get(api_settings.REVOKE_TOKEN_CLAIM) != stamp
        ):
            # simplejwt's own words for it (JWTAuthentication.get_user)
            raise AuthenticationFailed(
                "The user's password has been changed.", code="password_changed"
            )
        return ClaimsUser(validated_token, user_id)


class ClaimsJWTScheme(SimpleJWTScheme):
    """:class:`ClaimsJWTAuthentication` in the OpenAPI schema: the same bearer JWT, so it
    points at the ``jwtAuth`` scheme the other endpoints define instead of a second one."""

    target_class = ClaimsJWTAuthentication
    name: list[str] = []  # type: ignore[assignment] - registers no scheme of its own

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]]:
        return {SimpleJWTScheme.name: []}

    def get_security_definition(self, auto_schema: Any) -> list[Any]:  # type: ignore[override]
        return []
