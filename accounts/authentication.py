"""Bearer JWTs whose claims are checked before they reach the database.

simplejwt looks the user up with whatever the ``user_id`` claim holds: a string crashes
the integer lookup (a 500), ``1.5`` and ``true`` are read as user 1. A token signed with
our key should never carry such a claim, but a leaked key or a bug elsewhere must not turn
into a 500 or into someone else's account: only a positive JSON integer in range is an id.
"""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.contrib.rest_framework_simplejwt import SimpleJWTScheme
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import InvalidToken
from rest_framework_simplejwt.settings import api_settings

MAX_USER_ID = 2**63 - 1  # a bigint primary key
_DECIMAL = re.compile(r"[1-9][0-9]{0,18}")


def claimed_user_id(token: Any) -> int:
    """The token's user id claim, if it is a positive integer in range; ``InvalidToken``
    (401 ``token_not_valid``) otherwise. simplejwt writes the id as a decimal string
    (``"42"``); a JSON integer is accepted too, nothing else (no ``"1.5"``, no ``"٤٢"``)."""
    user_id = token.get(api_settings.USER_ID_CLAIM)
    if isinstance(user_id, str) and _DECIMAL.fullmatch(user_id):
        user_id = int(user_id)
    if isinstance(user_id, bool) or not isinstance(user_id, int):
        raise InvalidToken("the token's user id claim is not an integer")
    if not 1 <= user_id <= MAX_USER_ID:
        raise InvalidToken("the token's user id claim is out of range")
    return user_id


class StrictJWTAuthentication(JWTAuthentication):
    """simplejwt's authentication with the user id claim checked first."""

    def get_user(self, validated_token: Any) -> Any:
        claimed_user_id(validated_token)  # "42" or 42; then simplejwt's own lookup
        return super().get_user(validated_token)


class StrictJWTScheme(SimpleJWTScheme):
    """The OpenAPI security scheme of :class:`StrictJWTAuthentication` (simplejwt's)."""

    target_class = "accounts.authentication.StrictJWTAuthentication"
