"""One account per name: usernames are compared by a normalised key.

The key of a name is Unicode's NFKC_Casefold in miniature: NFKC (fullwidth ``Ａ`` → ``A``,
the ligature ``ﬁ`` → ``fi``, the Kelvin sign → ``K``), then ``casefold`` (``ALICE`` →
``alice``, ``ß`` → ``ss``), then NFKC again (case folding can un-normalise). Registration
stores the NFKC form of the name (case kept, for display) and refuses a name whose key is
taken (``username_taken``); the database enforces it with the unique
:class:`~games.models.AccountName` key, written in the same transaction as the user by the
``post_save`` hook below, whichever way the user is created (API, admin, management
command). Signing in accepts any spelling with the same key. Look-alikes from different
scripts (a Cyrillic ``а`` for a Latin ``a``) are different names: NFKC does not fold them.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction

from .errors import DomainError
from .models import AccountName

MAX_NAME_LENGTH = 150
MAX_KEY_LENGTH = 600  # AccountName.key; case folding can lengthen a name (ß → ss)


def display_form(name: str) -> str:
    """The form a new name is stored in: NFKC, case kept."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The key two names share exactly when they are the same account name."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def register(username: str, password: str) -> Any:
    """Create an account; ``DomainError`` ``username_taken`` when the name's key is taken.

    The check before the insert gives the usual answer; the unique key is what decides a
    race (the loser's insert waits for the winner's commit, then fails).
    """
    users = get_user_model()
    # Hashed before the transaction: hashing takes a good part of a second, and on SQLite a
    # transaction holds the database's one write lock from its BEGIN (settings.py).
    hashed = make_password(password)
    try:
        with transaction.atomic():
            if AccountName.objects.filter(key=name_key(username)).exists():
                raise IntegrityError("username taken")
            user = users(username=users.normalize_username(username), password=hashed)
            user.save()
            return user
    except IntegrityError as error:
        raise DomainError("username_taken", "that username is taken") from error


def find_user(name: str) -> Any | None:
    """The account called ``name`` exactly, else the one whose key ``name`` has."""
    if len(name) > MAX_NAME_LENGTH:
        return None
    users = get_user_model().objects
    return (
        users.filter(username=name).first()
        or users.filter(account_name__key=name_key(name)).first()
    )


def keep_name_key(
    sender: Any,
    instance: Any,
    created: bool,
    raw: bool = False,
    update_fields: Any = None,
    **_: Any,
) -> None:
    """``post_save`` of the user model: write the account's name key, or move it when the
    name changed (a key parked by the migration, ``<key>#<id>``, stays as it is)."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return  # loaddata carries its own rows; a save of other fields changes no name
    key = name_key(instance.get_username())
    if created:
        AccountName.objects.create(user=instance, key=key)
        return
    current = AccountName.objects.filter(user=instance).values_list("key", flat=True).first()
    if current is None:
        AccountName.objects.create(user=instance, key=key)
    elif current.partition("#")[0] != key:
        AccountName.objects.filter(user=instance).update(key=key)
