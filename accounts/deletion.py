"""Deleting an account: confirmed by its password (a guest: its device secret), then the
account and its personal data go, each app removing or handing on its part.

The order keeps a move in flight safe: the account's plays are locked first (a move holds
its play's lock until it commits, so deletion waits for it, and a move after it finds no
play), then the user row (a finishing play's score is recorded under that lock, so none is
written for a play being deleted), then every registered part (``accounts.registry``) runs,
and the user row goes with everything that cascades from it, all in one transaction.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.db import transaction

from config.errors import DomainError

from . import auth, registry, sessions
from .models import Device

#: Parts that must run before the others: they take the locks (see the module).
_locks: list[registry.Deleter] = []


def lock_first(locker: registry.Deleter) -> None:
    """Register what locks an app's rows of the account before any part deletes (the
    games app's plays); called at ``ready()``."""
    if locker not in _locks:
        _locks.append(locker)


def confirm(user: Any, *, password: str | None, device_secret: str | None) -> None:
    """``wrong_password`` (403) unless the password, or a guest's device secret, is right."""
    device = Device.objects.filter(user_id=user.pk).first()
    if device is not None and device.is_guest:
        if device_secret is not None and check_password(device_secret, device.secret_hash):
            return
    elif password is not None and user.check_password(password):
        return
    raise DomainError(
        "wrong_password", "confirm the deletion with the account's password or device secret"
    )


def delete_account(user_id: int, *, password: str | None, device_secret: str | None) -> None:
    users = get_user_model()
    user = users.objects.filter(pk=user_id).first()
    if user is None:
        raise DomainError("no_active_account", "this account no longer exists")
    confirm(user, password=password, device_secret=device_secret)
    sessions.revoke_all(user_id)
    with transaction.atomic():
        for locker in _locks:
            locker(user_id)
        user = users.objects.select_for_update().filter(pk=user_id).first()
        if user is None:  # deleted by a request that got here first
            return
        for part in registry.parts():
            if part.delete is not None:
                part.delete(user_id)
        user.delete()
    auth.forget_user(instance=user)
