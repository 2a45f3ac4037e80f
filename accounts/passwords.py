"""Changing a password: the old one is needed, and every refresh token of the account is
revoked (``accounts.sessions``); the caller gets a fresh pair so the app stays signed in.

The new password hash changes the access tokens' revoke claim, so the old access tokens are
refused at once where the user is loaded and on the move path within
``AUTH_RECHECK_SECONDS``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction

from config.errors import DomainError

from . import sessions


def change_password(user_id: int, old_password: str, new_password: str) -> Any:
    users = get_user_model()
    user = users.objects.get(pk=user_id)
    if not user.has_usable_password():
        raise DomainError("guest_account", "a guest has no password to change; link it first")
    if not user.check_password(old_password):
        raise DomainError("wrong_password", "the old password is wrong")
    hashed = make_password(new_password)
    with transaction.atomic():
        user = users.objects.select_for_update().get(pk=user_id)
        user.password = hashed
        user.save(update_fields=["password"])
    sessions.revoke_all(user_id)
    return user
