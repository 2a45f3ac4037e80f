"""A tournament, its entrants, its own deal (a seeded one's) and its frozen final standing.

A daily tournament's plays are its entrants' ranked daily plays of its preset (and
options) finished inside its window; a seeded tournament's are their ranked plays of its
own deal (:class:`TournamentDeal`). The first ``attempts`` of them count; fair play's
hidden results do not (docs/tournaments.md). When the window closes the beat freezes the standing
into :class:`Standing` rows (``frozen_at`` set); a later fair-play decision re-freezes it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Scoring(models.TextChoices):
    BEST = "best", "best single result"
    SUM = "sum", "sum of points"
    FEWEST_MOVES = "fewest_moves", "fewest moves in a win"


class DealRule(models.TextChoices):
    DAILY = "daily", "the daily deal of each day"
    SEEDED = "seeded", "the tournament's own deal"


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    preset = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    board = models.CharField(max_length=80, help_text="rules key: preset[+option…]")
    deal_rule = models.CharField(max_length=16, choices=DealRule.choices, default=DealRule.DAILY)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    join_until = models.DateTimeField(help_text="joins are taken until then (<= ends_at)")
    max_players = models.PositiveIntegerField(default=100)
    attempts = models.PositiveSmallIntegerField(default=1)
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.BEST)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="owned_tournaments",
    )
    group = models.ForeignKey(
        "leaderboard.Group",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tournaments",
        help_text="only its members may join (none: anyone)",
    )
    recurrence = models.CharField(
        max_length=64,
        unique=True,
        null=True,
        blank=True,
        help_text="the beat's key of a recurring tournament (one per period)",
    )
    frozen_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")), name="tournament_window"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament_id}"


class Standing(models.Model):
    """A frozen final place (written when the window closed)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    rank = models.PositiveIntegerField()
    plays = models.PositiveSmallIntegerField()
    wins = models.PositiveSmallIntegerField()
    points = models.PositiveIntegerField()
    moves = models.PositiveIntegerField(null=True)

    class Meta:
        ordering = ["rank", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_standing_each")
        ]

    def __str__(self) -> str:
        return f"#{self.rank} of {self.tournament_id}"


class TournamentDeal(models.Model):
    """A seeded tournament's own deal, one per tournament: a games ``Deal`` of source
    ``event`` (its deck, par and solution stay there, server-side), derived from the
    tournament's secret series and solver-checked (``tournaments.seeding``)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="own_deal"
    )
    deal = models.OneToOneField("games.Deal", on_delete=models.PROTECT, related_name="+")
    prepared_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"the deal of {self.tournament_id}"
