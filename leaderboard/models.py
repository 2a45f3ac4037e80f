"""Scores, totals, frozen days and groups: PostgreSQL is the leaderboards' source of truth.

* :class:`Score` — one row per ranked play that ended (won, lost or resigned), written by the
  ``play_finished`` receiver; ``sort_key`` is :func:`leaderboard.ranking.daily_key` and
  ``rank`` is filled when its day is frozen. A ``hidden`` score (a moderation decision,
  :mod:`leaderboard.moderation`) is on no board but its owner's own view.
* :class:`Total` — a player's wins, points and plays per board and period (an ISO week such
  as ``2026-W48`` or ``all``), recomputed from the visible scores each time one is added,
  hidden or restored; a player with no visible score in the period has no row. While some
  of a player's scores of the period are hidden, a second, ``shadow`` row counts them too:
  the board as that player alone sees it (never in Redis).
* :class:`FrozenDay` — a daily board whose ranks are stored in ``Score.rank``.
* :class:`Group` / :class:`Membership` — private groups joined by invite code.

Redis holds only derived data (one sorted set per board) and can be rebuilt from these.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

ALL_TIME = "all"
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
INVITE_LENGTH = 8


class Score(models.Model):
    """The result of one ranked daily play on its board (preset + option set)."""

    play = models.OneToOneField(
        "games.Play", on_delete=models.CASCADE, primary_key=True, related_name="score"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scores"
    )
    preset = models.CharField(max_length=40)
    board = models.CharField(max_length=80, help_text="rules key: preset[+option…]")
    date = models.DateField(help_text="the daily deal's UTC day")
    week = models.CharField(max_length=8, help_text="ISO week of date, e.g. 2026-W48")
    won = models.BooleanField()
    foundation_cards = models.PositiveSmallIntegerField()
    moves = models.PositiveIntegerField()
    seconds = models.FloatField()
    undos = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField()
    sort_key = models.BigIntegerField(help_text="daily ranking key, lower is better")
    points = models.PositiveSmallIntegerField()
    rank = models.PositiveIntegerField(null=True, blank=True, help_text="set when frozen")
    hidden = models.BooleanField(
        default=False,
        help_text="kept off other players' boards, totals and profiles (leaderboard.moderation)",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["board", "date", "sort_key", "play"], name="score_board_order_idx"
            ),
            models.Index(fields=["board", "date", "rank"], name="score_board_rank_idx"),
            models.Index(fields=["board", "date", "player"], name="score_board_player_idx"),
            models.Index(fields=["player", "date"], name="score_player_date_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.date} {self.player_id}: {self.sort_key}"


class Total(models.Model):
    """A player's totals on one board over one period (ISO week or all time)."""

    board = models.CharField(max_length=80)
    period = models.CharField(max_length=8, help_text="ISO week (2026-W48) or 'all'")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leaderboard_totals"
    )
    wins = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0)
    plays = models.PositiveIntegerField(default=0)
    sort_key = models.BigIntegerField(help_text="aggregate ranking key, lower is better")
    shadow = models.BooleanField(
        default=False,
        help_text="the owner's own view, hidden scores counted (only while some are hidden)",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["board", "period", "player", "shadow"],
                name="unique_total_per_board_period",
            ),
        ]
        indexes = [
            models.Index(fields=["board", "period", "sort_key", "player"], name="total_order_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.period} {self.player_id}: {self.wins}/{self.points}"


class FrozenDay(models.Model):
    """A past daily board whose ranks are stored in ``Score.rank``."""

    board = models.CharField(max_length=80)
    date = models.DateField()
    entries = models.PositiveIntegerField(default=0)
    frozen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "date"], name="unique_frozen_board_day"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.date} ({self.entries})"


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


class Group(models.Model):
    """Players who compare themselves on every board with ``?group=<id>``."""

    name = models.CharField(max_length=80)
    code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="owned_leaderboard_groups",
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="leaderboard_groups"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="unique_group_member"),
        ]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.group_id}"


class PendingPush(models.Model):
    """A score whose Redis entries are not confirmed yet: a transactional outbox.

    Written in the transaction that records the score and deleted once the push landed in
    every board, so a score recorded while Redis was down (or by a process that died before
    its push, or pushed while its board was missing) is replayed by
    :func:`leaderboard.catchup.replay_pending` (the circuit breaker closing, or the
    ``catch_up`` beat task). Replays are idempotent: ``ZADD … LT`` keeps the best key.
    """

    score = models.OneToOneField(
        Score, on_delete=models.CASCADE, primary_key=True, related_name="pending_push"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"pending push of {self.score_id}"
