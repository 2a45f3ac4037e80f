"""Fair play's tables: the evidence of each ranked play, the detectors' findings, the review
of a flagged play, every decision taken, and the bans from ranked play.

* :class:`PlayEvidence` — one row per ranked play: the keyed hashes of the client's address
  and device (recorded at the start; blanked after ``FAIRPLAY_RETENTION_DAYS``), and, filled
  at the finish from the move log, the server-measured seconds per move, the order in which
  hidden cards were revealed and the account's age.
* :class:`Finding` — one detector's verdict on one play (score, flagged, reason, details).
* :class:`Review` — a flagged play waiting for (or past) a reviewer: pending, confirmed or
  cleared. A flagged play is hidden from other players' boards until it is cleared.
* :class:`ReviewDecision` — the log: who decided what about which play or player, and when.
* :class:`RankedBan` — an account that may start no ranked play; its ranked scores are hidden.
* :class:`AccountEvidence` — an account's per-play statistics pooled over its recent ranked
  plays, and its review when the pooled evidence crosses the account's cut.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlayEvidence(models.Model):
    play = models.OneToOneField(
        "games.Play", on_delete=models.CASCADE, primary_key=True, related_name="fairplay_evidence"
    )
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deal = models.ForeignKey("games.Deal", on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    address_key = models.CharField(max_length=64, blank=True, help_text="HMAC of the address")
    device_key = models.CharField(max_length=64, blank=True, help_text="HMAC of X-Device-Id")
    account_age_days = models.FloatField(null=True, blank=True, help_text="at the play's start")
    move_seconds = models.JSONField(default=list, blank=True)
    reveal_order = models.JSONField(default=list, blank=True)
    analysed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "play evidence"
        indexes = [
            # Linked accounts: the earlier plays of one deal from one address or device.
            models.Index(fields=["deal", "address_key"], name="fp_evidence_deal_address_idx"),
            models.Index(fields=["deal", "device_key"], name="fp_evidence_deal_device_idx"),
            models.Index(fields=["started_at"], name="fp_evidence_started_idx"),
        ]

    def __str__(self) -> str:
        return f"evidence of {self.play_id}"


class Finding(models.Model):
    play = models.ForeignKey(
        "games.Play", on_delete=models.CASCADE, related_name="fairplay_findings"
    )
    detector = models.CharField(max_length=40)
    score = models.FloatField()
    flagged = models.BooleanField()
    reason = models.TextField()
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["play", "detector"], name="fp_one_finding_per_detector"
            ),
        ]
        ordering = ["play", "detector"]

    def __str__(self) -> str:
        mark = "flagged" if self.flagged else "ok"
        return f"{self.detector} {self.score:.2f} ({mark})"


class ReviewStatus(models.TextChoices):
    PENDING = "pending", "pending"
    CONFIRMED = "confirmed", "confirmed"
    CLEARED = "cleared", "cleared"


class Review(models.Model):
    play = models.OneToOneField(
        "games.Play", on_delete=models.CASCADE, primary_key=True, related_name="fairplay_review"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_reviews"
    )
    status = models.CharField(
        max_length=10, choices=ReviewStatus.choices, default=ReviewStatus.PENDING
    )
    flagged_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "flagged_at"], name="fp_review_queue_idx")]
        ordering = ["flagged_at"]

    def __str__(self) -> str:
        return f"review of {self.play_id} ({self.status})"


class Action(models.TextChoices):
    CONFIRM = "confirm", "confirm: keep the play hidden"
    CLEAR = "clear", "clear: restore the play"
    BAN = "ban", "ban from ranked play"
    UNBAN = "unban", "lift the ban"


class ReviewDecision(models.Model):
    """One reviewer decision, never edited: the audit log."""

    action = models.CharField(max_length=10, choices=Action.choices)
    play = models.ForeignKey(
        "games.Play", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fairplay_decisions"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The reviewer's name as it was, so the log still says who if the account goes.
    decided_by_name = models.CharField(max_length=150)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} by {self.decided_by_name} at {self.created_at:%Y-%m-%d %H:%M}"


class RankedBan(models.Model):
    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="fairplay_ban",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"ranked ban of {self.player_id}"


class AccountEvidence(models.Model):
    """The account's judgement across its days (:mod:`fairplay.accounts`): each of its
    recent finished ranked plays' samples (``fairplay.detectors.PlaySample`` dicts, oldest
    first, at most the policy's window), the latest pooled verdict, and the account's
    review: blank until the pooled evidence first crosses the account's cut, then pending,
    confirmed or cleared. Clearing empties ``samples`` and sets ``reset_at``: plays that
    started before it never count again."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="fairplay_account",
    )
    samples = models.JSONField(default=list, blank=True)
    verdict = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=ReviewStatus.choices, blank=True)
    flagged_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    reset_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "account evidence"
        indexes = [models.Index(fields=["status", "flagged_at"], name="fp_account_queue_idx")]

    def __str__(self) -> str:
        return f"account evidence of {self.player_id} ({self.status or 'not flagged'})"
