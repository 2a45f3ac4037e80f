"""Solver results per deal and budget, and the answers given as hints.

``DealResult`` is keyed by (preset, options, seed, budget, solver_version): a deal solved
again under the same key is the same row (inserts ignore conflicts), so any number of
workers, runs and imports converge on one row per key.
"""

from __future__ import annotations

from django.db import models

VERDICTS = [("winnable", "winnable"), ("unwinnable", "unwinnable"), ("unknown", "unknown")]


class DealResult(models.Model):
    """The solver's verdict on deal ``seed`` (``engine.deck_from_seed``) of a configuration
    within ``budget`` seconds, without shortening (deciding is what is measured)."""

    preset = models.CharField(max_length=40)
    options = models.CharField(
        max_length=100, blank=True, help_text="options switched on, sorted, comma-separated"
    )
    seed = models.BigIntegerField()
    budget = models.FloatField(help_text="seconds per deal")
    solver_version = models.CharField(max_length=40)
    verdict = models.CharField(max_length=12, choices=VERDICTS)
    nodes = models.BigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    length = models.PositiveIntegerField(null=True, blank=True, help_text="first win's moves")
    interpreter = models.CharField(max_length=40, blank=True)
    host = models.CharField(max_length=100, blank=True)
    solved_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["preset", "options", "seed", "budget", "solver_version"],
                name="unique_result_per_deal_budget_version",
            ),
        ]
        indexes = [
            models.Index(
                fields=["preset", "options", "solver_version", "budget", "seed"],
                name="result_config_budget_idx",
            ),
        ]

    def __str__(self) -> str:
        config = f"{self.preset}+{self.options}" if self.options else self.preset
        return f"{config} seed {self.seed} @{self.budget:g}s: {self.verdict}"


class HintAnswer(models.Model):
    """A decided hint (a winning line's next move, or no win from here) for one exact
    position, rules, budget and solver version: the persistent side of the hint cache."""

    key = models.CharField(max_length=64, unique=True)
    result = models.CharField(max_length=20)
    move = models.JSONField(null=True, blank=True)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.key[:12]}: {self.result}"
