"""Deals, plays, their move logs and stored idempotent answers.

The secret parts (a deal's ``deck``, a play's full engine ``state``) live only here: the API
serialises a play through ``engine.visible`` and a deal's deck only once its UTC day is over.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from .ids import uuid7


class Source(models.TextChoices):
    DAILY = "daily", "daily"
    SEED = "seed", "seed"
    DECK = "deck", "deck"
    PYSOL = "pysol", "PySolFC deal number"
    #: An event's own ranked deal (a seeded tournament's, stored by the tournaments app):
    #: never a practice deal, its deck and solution as secret as a live daily's.
    EVENT = "event", "an event's own deal"


class Verdict(models.TextChoices):
    WINNABLE = "winnable", "winnable"
    UNWINNABLE = "unwinnable", "unwinnable"
    UNKNOWN = "unknown", "unknown"
    UNSOLVED = "", "not solved yet"


class PlayStatus(models.TextChoices):
    PLAYING = "playing", "playing"
    WON = "won", "won"
    LOST = "lost", "lost"
    RESIGNED = "resigned", "resigned"
    #: A ranked play still open at its day's deadline (``games.daily.ranked_deadline``),
    #: closed unfinished: no score, no streak (docs/fair-play-rules.md).
    EXPIRED = "expired", "expired"


class Deal(models.Model):
    """A deck order for a preset: a daily deal (one per date and preset) or a practice deal.

    ``deck`` is the list of 52 card strings, ``deck[0]`` dealt first (RULES.md). It is never
    shown to players except for a daily deal whose UTC day is over. ``attempts`` keeps the
    daily candidates the solver rejected, with their verdicts, for audit.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    deck = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices)
    seed = models.BigIntegerField(null=True, blank=True)
    pysol_deal = models.BigIntegerField(null=True, blank=True)
    date = models.DateField(null=True, blank=True, help_text="UTC day of a daily deal")
    verdict = models.CharField(max_length=12, choices=Verdict.choices, default="", blank=True)
    par = models.PositiveIntegerField(null=True, blank=True)
    solution = models.JSONField(default=list, blank=True)
    attempts = models.JSONField(default=list, blank=True)
    solver_nodes = models.BigIntegerField(null=True, blank=True)
    solver_seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["date", "preset"],
                condition=Q(source="daily"),
                name="unique_daily_deal_per_date_and_preset",
            ),
        ]
        indexes = [models.Index(fields=["source", "seed"], name="deal_source_seed_idx")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        if self.source == Source.DAILY:
            return f"daily {self.preset} {self.date}"
        return f"{self.source} {self.preset} {self.id}"


class Play(models.Model):
    """One player's game of one deal: its full engine state and score so far.

    ``state`` is ``engine.state_to_json`` of the current state, hidden cards included; only
    ``engine.visible`` of it is ever sent out. ``seq`` is the number of rows in the move log
    (undo and resign rows included), which is what a client must send back with its next move.
    """

    # UUIDv7: time-ordered, so a play's log lands in its start month's partition of
    # games_move (games.partitions); an id is still an opaque UUID to clients.
    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    # No single-column indexes on the foreign keys: play_player_started_idx and
    # play_deal_status_idx lead with them and serve the same lookups.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plays", db_index=False
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="plays", db_index=False)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    ranked = models.BooleanField(default=False)
    daily_date = models.DateField(null=True, blank=True)
    state = models.JSONField()
    seq = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=PlayStatus.choices, default=PlayStatus.PLAYING)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    foundation_cards = models.PositiveSmallIntegerField(default=0)
    moves_count = models.PositiveIntegerField(
        default=0, help_text="every applied move; each undo counts one more"
    )
    undos = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(null=True, blank=True, help_text="server-measured start→finish")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "preset", "daily_date"],
                condition=Q(ranked=True),
                name="one_ranked_play_per_player_preset_day",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "started_at"], name="play_player_started_idx"),
            models.Index(fields=["deal", "status"], name="play_deal_status_idx"),
        ]
        ordering = ["-started_at"]

    def __str__(self) -> str:
        kind = f"ranked {self.daily_date}" if self.ranked else "practice"
        return f"{self.preset} {kind} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status != PlayStatus.PLAYING


class Move(models.Model):
    """One row of a play's log, in order: a move, a deal, an undo or a resign.

    ``reveals_hidden`` records whether the move turned a face-down card or dealt, which is
    what forbids undoing it in a ranked play. ``state_hash`` is the hash of the state after
    the row, for replay checks; it is never sent to players (it covers hidden cards).
    """

    # unique_move_seq_per_play (play, seq) serves lookups by play: no index of its own.
    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    move = models.JSONField()
    text = models.CharField(max_length=32)
    reveals_hidden = models.BooleanField(default=False)
    state_hash = models.CharField(max_length=128, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["play", "seq"], name="unique_move_seq_per_play"),
        ]
        ordering = ["play", "seq"]

    def __str__(self) -> str:
        return f"#{self.seq} {self.text}"
