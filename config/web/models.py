"""The web layer's own table: the first answer to each idempotent request.

It was the games app's model until the web layer moved under the apps; the table keeps its
name (``games_idempotencykey``), so an existing database keeps its rows (the move changed
only Django's migration state: ``games`` 0004 and ``web`` 0001).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """The first answer to a POST sent with an ``Idempotency-Key``, replayed for 24 hours.

    ``fingerprint`` is the sha256 of method, path and the canonical JSON body: a retry must
    match it, a different request under the same key is refused. The body is kept as JSON
    text (not ``jsonb``) so any answer can be stored verbatim.
    """

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="idempotency_keys"
    )
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_idempotencykey"
        constraints = [
            models.UniqueConstraint(fields=["player", "key"], name="unique_idempotency_key"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}:{self.key}"
