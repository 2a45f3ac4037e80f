"""One account per name: usernames are compared by a normalised key.

The key of a name is Unicode's NFKC_Casefold in miniature: NFKC (fullwidth ``Ａ`` → ``A``,
the ligature ``ﬁ`` → ``fi``, the Kelvin sign → ``K``), then ``casefold`` (``ALICE`` →
``alice``, ``ß`` → ``ss``), then NFKC again (case folding can un-normalise). Registration
stores the NFKC form of the name (case kept, for display) and refuses a name whose key is
taken (``username_taken``); the database enforces it with the unique
:class:`~accounts.models.AccountName` key, written in the same transaction as the user by the
``post_save`` hook below, whichever way the user is created (API, admin, management
command). Signing in accepts any spelling with the same key.

Look-alikes that NFKC does not fold (a Cyrillic ``а`` for a Latin ``a``) are refused by
:mod:`accounts.lookalikes` (UTS #39) as ``username_taken`` (409) with a ``reason``:
``mixed_scripts`` for a name that mixes scripts, ``looks_like`` for one that shares a
confusable skeleton with another account's name. The skeletons are kept unique by
:class:`~accounts.models.NameSkeleton`, written by the same hook as the key, so a race of
look-alikes ends as one of the same spelling does. Existing accounts keep their names.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction

from config.errors import DomainError

from . import lookalikes
from .models import AccountName, NameSkeleton

MAX_NAME_LENGTH = 150
MAX_KEY_LENGTH = 600  # AccountName.key; case folding can lengthen a name (ß → ss)


def display_form(name: str) -> str:
    """The form a new name is stored in: NFKC, case kept."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The key two names share exactly when they are the same account name."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def register(username: str, password: str) -> Any:
    """Create an account; ``DomainError`` ``username_taken`` when the name mixes scripts
    (``reason`` ``mixed_scripts``), or its key or one of its skeletons is taken (``reason``
    ``looks_like`` for a skeleton).

    The checks before the insert give the usual answer; the unique key and skeletons are
    what decide a race (the loser's insert waits for the winner's commit, then fails).
    """
    refuse_mixed_scripts(username)
    users = get_user_model()
    # Hashed before the transaction: hashing takes a good part of a second, and on SQLite a
    # transaction holds the database's one write lock from its BEGIN (settings.py).
    hashed = make_password(password)
    try:
        with transaction.atomic():
            refuse_taken(username)
            user = users(username=users.normalize_username(username), password=hashed)
            user.save()
            return user
    except IntegrityError as error:
        raise taken_error(username) from error


def refuse_mixed_scripts(username: str) -> None:
    """``username_taken`` (``reason`` ``mixed_scripts``) for a name that mixes scripts."""
    if lookalikes.mixes_scripts(display_form(username)):
        used = ", ".join(sorted(s.lower() for s in lookalikes.scripts(display_form(username))))
        raise DomainError(
            "username_taken",
            f"that username mixes scripts ({used}), so it could pass for another name",
            reason="mixed_scripts",
            scripts=used,
        )


def refuse_taken(username: str, *, other_than: Any = None) -> None:
    """Inside the transaction that writes the name: ``IntegrityError`` when its key or a
    skeleton belongs to another account (the caller answers it with :func:`taken_error`)."""
    taken = AccountName.objects.filter(key=name_key(username))
    if other_than is not None:
        taken = taken.exclude(user_id=other_than)
    if taken.exists():
        raise IntegrityError("username taken")
    if look_alike(username, other_than=other_than) is not None:
        raise IntegrityError("username looks like another")


def taken_error(username: str) -> DomainError:
    """The ``username_taken`` answer after a refused insert: same key, else a look-alike."""
    if AccountName.objects.filter(key=name_key(username)).exists():
        return DomainError("username_taken", "that username is taken")
    return DomainError(
        "username_taken",
        "that username looks like the name of another account",
        reason="looks_like",
    )


def look_alike(name: str, *, other_than: Any = None) -> Any | None:
    """The id of an account (not ``other_than``) whose name looks like ``name``, or None."""
    taken = NameSkeleton.objects.filter(skeleton__in=set(lookalikes.skeletons(name)))
    if other_than is not None:
        taken = taken.exclude(user_id=other_than)
    return taken.values_list("user_id", flat=True).first()


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
    """``post_save`` of the user model: write the account's name key and skeletons, or move
    them when the name changed. A key parked by migration 0003 (``<key>#<id>``) stays as
    it is, and so does an old account that migration 0004 left with fewer skeletons (an
    older account holds the others): only a rename gives it new ones."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return  # loaddata carries its own rows; a save of other fields changes no name
    name = instance.get_username()
    key = name_key(name)
    if created:
        AccountName.objects.create(user=instance, key=key)
        _write_skeletons(instance, name)
        return
    current = AccountName.objects.filter(user=instance).values_list("key", flat=True).first()
    if current is None:
        AccountName.objects.create(user=instance, key=key)
    elif current.partition("#")[0] != key:
        AccountName.objects.filter(user=instance).update(key=key)
    stored = set(NameSkeleton.objects.filter(user=instance).values_list("skeleton", flat=True))
    if stored and not stored <= set(lookalikes.skeletons(name)):  # renamed
        NameSkeleton.objects.filter(user=instance).delete()
        _write_skeletons(instance, name)
    elif not stored and current is None:
        _write_skeletons(instance, name)


def _write_skeletons(user: Any, name: str) -> None:
    NameSkeleton.objects.bulk_create(
        NameSkeleton(user=user, skeleton=skeleton)
        for skeleton in dict.fromkeys(lookalikes.skeletons(name))
    )
