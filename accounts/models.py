"""Accounts' own tables: the name keys and skeletons that keep one account per name, and
the devices of guest players.

``AccountName`` and ``NameSkeleton`` were the games app's; they moved here with their
tables (``games_accountname``, ``games_nameskeleton``) and rows (migration 0001, state
only).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccountName(models.Model):
    """The normalised key of a username (``accounts.names.name_key``), unique.

    ``auth_user.username`` is unique only byte for byte; this row, written in the same
    transaction as the user, makes ``Alice``, ``ALICE`` and ``Ａｌｉｃｅ`` one name, so two
    racing registrations of look-alike names meet at this table's unique index.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_name",
    )
    key = models.CharField(max_length=600, unique=True)

    class Meta:
        db_table = "games_accountname"

    def __str__(self) -> str:
        return self.key


class NameSkeleton(models.Model):
    """A confusable skeleton of a username (``accounts.lookalikes``), unique across accounts.

    Each account has one row per distinct skeleton of its name (as written, of its key, of
    its capitals), written in the same transaction as the user: a name any of whose
    skeletons another account holds looks like that account's, and two racing look-alike
    registrations meet at this unique index. Accounts that shared a skeleton before this
    table existed keep their names; only the oldest holds the skeleton (games 0005).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_skeletons"
    )
    skeleton = models.TextField(unique=True)

    class Meta:
        db_table = "games_nameskeleton"

    def __str__(self) -> str:
        return self.skeleton


class Device(models.Model):
    """A device that signs in without a name (``accounts.guests``): its id, chosen by the
    device, and a slow hash of the secret the device keeps (never the secret itself).

    The account is a guest while ``linked_at`` is empty; linking gives it a name and a
    password and stamps ``linked_at``, and the device keeps signing into that account.
    """

    device_id = models.UUIDField(unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device"
    )
    secret_hash = models.CharField(max_length=256)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now_add=True)
    linked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return str(self.device_id)

    @property
    def is_guest(self) -> bool:
        return self.linked_at is None
