"""Periodic clean-up (``CELERY_BEAT_SCHEDULE``): abandoned guests, expired refresh tokens.

A guest unseen for ``GUEST_IDLE_DAYS`` (default 30) that no app holds data of (no play:
``accounts.registry``'s ``holds``) is deleted: it has nothing but a generated name and a
device hash. A guest with a play is kept (it may come back to its scores); linking is how a
player keeps an account for good. Each guest is deleted under the locks of a deletion and
checked again under them, so one that signed in or started a play meanwhile stays.
Idempotent: a rerun finds nothing more to delete, and ``acks_late`` lets a killed worker's
run be redone.
"""

from __future__ import annotations

from celery import shared_task
from django.core.management import call_command

from . import deletion, guests, registry


def _abandoned(user_id: int) -> bool:
    still_idle = guests.idle().filter(pk=user_id).exists()
    return still_idle and not registry.holding([user_id])


@shared_task(name="accounts.tasks.delete_abandoned_guests", acks_late=True)
def delete_abandoned_guests(batch: int = 1000) -> int:
    deleted = 0
    after = 0
    while True:
        ids = list(
            guests.idle().filter(pk__gt=after).order_by("pk").values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return deleted
        after = ids[-1]
        held = registry.holding(ids)
        for user_id in ids:
            if user_id not in held and deletion.delete_abandoned(
                user_id, lambda user_id=user_id: _abandoned(user_id)
            ):
                deleted += 1


@shared_task(name="accounts.tasks.flush_expired_tokens", acks_late=True)
def flush_expired_tokens() -> None:
    """Drop the blacklist's rows of refresh tokens that expired anyway (simplejwt's own
    ``flushexpiredtokens``): the tables would otherwise grow by every sign-in. Idempotent."""
    call_command("flushexpiredtokens")
