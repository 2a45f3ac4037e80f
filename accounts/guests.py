"""Guests: a device signs in with an id and a secret it keeps, before any name.

The device makes both: ``device_id`` a UUID, ``device_secret`` 32 random bytes in base64url
(43 characters). The first call creates a guest account with a generated display name
(``Guest-7F3K2Q``: unique, and passing the look-alike rules as any name must); later calls
with the same id and secret sign the same account in again. Only a slow hash of the secret
is stored (Django's password hasher), and it is checked in constant time.

Once the guest is linked (``accounts.linking``), the device id belongs to that named
account: its secret still signs it in (the app need not ask for the password again), and a
different secret is ``device_taken`` (409) rather than a guess at the guest's secret.
A guest whose device is lost is lost with it; linking is how a player keeps the account.
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, transaction
from django.utils import timezone

from config.errors import DomainError

from . import names
from .models import Device

#: Letters and digits that no look-alike rule folds into another (no 0/O, 1/I/L, U/V).
NAME_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
NAME_LENGTH = 6
NAME_ATTEMPTS = 8


def new_guest_name() -> str:
    return "Guest-" + "".join(secrets.choice(NAME_ALPHABET) for _ in range(NAME_LENGTH))


def sign_in(device_id: uuid.UUID, device_secret: str) -> tuple[Any, bool]:
    """The account of the device, and whether it was created now (see the module)."""
    device = Device.objects.select_related("user").filter(device_id=device_id).first()
    if device is None:
        created = _create(device_id, device_secret)
        if created is not None:
            return created, True
        # Another request created this device meanwhile: it is now a sign-in.
        device = Device.objects.select_related("user").get(device_id=device_id)
    if not check_password(device_secret, device.secret_hash):
        if device.is_guest:
            raise DomainError(
                "device_secret_mismatch", "that device id is known, with another secret"
            )
        raise DomainError("device_taken", "that device id belongs to another account")
    if not device.user.is_active:
        raise DomainError("no_active_account", "this account is not active")
    Device.objects.filter(pk=device.pk).update(last_seen_at=timezone.now())
    return device.user, False


def _create(device_id: uuid.UUID, device_secret: str) -> Any | None:
    """A new guest for the device; None when the device id was taken meanwhile."""
    users = get_user_model()
    hashed = make_password(device_secret)  # slow: outside the transaction (names.register)
    for _ in range(NAME_ATTEMPTS):
        name = new_guest_name()
        try:
            with transaction.atomic():
                names.refuse_taken(name)
                user = users(username=name)
                user.set_unusable_password()
                user.save()
                Device.objects.create(device_id=device_id, user=user, secret_hash=hashed)
                return user
        except IntegrityError:
            if Device.objects.filter(device_id=device_id).exists():
                return None
            # the generated name was taken (or looks like one that is): draw another
    raise DomainError("username_taken", "no free guest name was found; try again")


def verify_secret(user_id: int, device_secret: str) -> bool:
    device = Device.objects.filter(user_id=user_id).first()
    return device is not None and check_password(device_secret, device.secret_hash)


def idle_days() -> int:
    return int(getattr(settings, "GUEST_IDLE_DAYS", 30))


def abandoned(now: dt.datetime | None = None) -> Any:
    """Guests (never linked) unseen for ``GUEST_IDLE_DAYS`` that have no play at all."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=idle_days())
    return get_user_model().objects.filter(
        device__linked_at__isnull=True,
        device__last_seen_at__lt=cutoff,
        plays__isnull=True,
    )
