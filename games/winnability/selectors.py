"""What the API reads from the results: each preset's winnable share (``/api/v1/presets``)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q

from games.solver.cli import wilson

from .configs import current_versions
from .models import DealResult

#: The shares change only when a run stores results: a few minutes' staleness is fine.
CACHE_SECONDS = 300


def preset_winnability() -> dict[str, dict[str, Any]]:
    """Per preset (default options, the preset's solver version), over every seed solved: the
    winnable share of the decided deals with its 95 % Wilson interval, how many decided
    deals it rests on and how many stayed unknown at every budget tried.  Presets with no
    results are absent."""
    versions = current_versions()
    key = "winnability:presets:" + ",".join(f"{p}={v}" for p, v in sorted(versions.items()))
    found = cache.get(key)
    if found is None:
        found = _compute(versions)
        cache.set(key, found, CACHE_SECONDS)
    return found


def _compute(versions: dict[str, str]) -> dict[str, dict[str, Any]]:
    own = Q()
    for preset, version in versions.items():
        own |= Q(preset=preset, solver_version=version)
    rows = DealResult.objects.filter(own, options="")
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
            "solver_version": versions[preset],
        }
    return out
