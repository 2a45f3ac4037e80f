"""What the API reads from the results: each preset's winnable share (``/api/v1/presets``)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Count

from games import engine
from games.solver.cli import wilson

from .configs import solver_version
from .models import DealResult

#: The shares change only when a run stores results: a few minutes' staleness is fine.
CACHE_SECONDS = 300


def preset_winnability() -> dict[str, dict[str, Any]]:
    """Per preset (default options, current solver version), over every seed solved: the
    winnable share of the decided deals with its 95 % Wilson interval, how many decided
    deals it rests on and how many stayed unknown at every budget tried.  Presets with no
    results are absent."""
    version = solver_version()
    key = f"winnability:presets:{version}"
    found = cache.get(key)
    if found is None:
        found = _compute(version)
        cache.set(key, found, CACHE_SECONDS)
    return found


def _compute(version: str) -> dict[str, dict[str, Any]]:
    rows = DealResult.objects.filter(solver_version=version, options="", preset__in=engine.PRESETS)
    seeds = dict(
        rows.values("preset").annotate(n=Count("seed", distinct=True)).values_list("preset", "n")
    )
    by_verdict = {
        (preset, verdict): n
        for preset, verdict, n in rows.exclude(verdict="unknown")
        .values("preset", "verdict")
        .annotate(n=Count("seed", distinct=True))
        .values_list("preset", "verdict", "n")
    }
    out = {}
    for preset, total in seeds.items():
        won = by_verdict.get((preset, "winnable"), 0)
        decided = won + by_verdict.get((preset, "unwinnable"), 0)
        lo, hi = wilson(won, decided)
        out[preset] = {
            "winnable_share": round(won / decided, 4) if decided else None,
            "winnable_ci95": [round(lo, 4), round(hi, 4)],
            "deals": decided,
            "unknown": total - decided,
            "solver_version": version,
        }
    return out
