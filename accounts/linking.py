"""Linking: a guest takes a username and a password and keeps everything else.

The account stays the same row, so every play, score, streak and group membership stays
with it; only its name (with the name key and skeletons, moved by ``names.keep_name_key``
in the same transaction) and its password change, and its device is stamped as linked.
Two links of one guest at once meet at the device row's lock: the first links, the second
then finds the account linked (``already_linked``, 409). Two guests racing for one name
meet at the name key's unique index, as two registrations do (``username_taken``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import DomainError

from . import names, sessions
from .models import Device


def link(user_id: int, username: str, password: str) -> Any:
    """Give the guest ``user_id`` a name and password; the account, renamed.

    Its refresh tokens are revoked (they were the guest's); the caller hands out new ones.
    """
    names.refuse_mixed_scripts(username)
    hashed = make_password(password)  # slow: outside the transaction (names.register)
    users = get_user_model()
    try:
        with transaction.atomic():
            device = Device.objects.select_for_update().filter(user_id=user_id).first()
            if device is None or not device.is_guest:
                raise DomainError("already_linked", "this account already has a name")
            names.refuse_taken(username, other_than=user_id)
            user = users.objects.select_for_update().get(pk=user_id)
            user.username = users.normalize_username(username)
            user.password = hashed
            user.save()
            device.linked_at = timezone.now()
            device.save(update_fields=["linked_at"])
    except IntegrityError as error:
        raise names.taken_error(username) from error
    sessions.revoke_all(user_id)
    return user
