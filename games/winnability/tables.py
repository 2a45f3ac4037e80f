"""Summaries of the stored results: per configuration and budget, won / lost / unknown,
the winnable share of the decided deals with its 95 % Wilson interval, and percentiles of
the seconds per deal; as Markdown for docs/solver/tables.md.

A deal counts at budget ``b`` as decided when some budget up to ``b`` decided it (a deal
is only retried at a larger budget while unknown), and as unknown when every budget up
to ``b`` it was tried at left it unknown, whether or not it was tried at ``b`` itself: a
final tier run on a few of the open deals must not read as if the others were decided.
Deals first tried above ``b`` are not counted there.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from games.solver.cli import wilson
from games.solver.verdicts import UNKNOWN, UNWINNABLE, WINNABLE

from .configs import CONFIGS, SOLVER_VERSION, config_name, solver_version
from .models import DealResult

PERCENTILES = (50, 90, 99)


@dataclass
class BudgetRow:
    budget: float
    won: int = 0
    lost: int = 0
    unknown: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def share(self) -> float | None:
        return self.won / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.won, self.decided)

    def percentile(self, p: int) -> float | None:
        """Nearest-rank percentile of the seconds of the deals solved at this budget."""
        if not self.seconds:
            return None
        ordered = sorted(self.seconds)
        rank = max(1, -(-p * len(ordered) // 100))
        return ordered[rank - 1]

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "budget": self.budget,
            "deals": self.deals,
            "winnable": self.won,
            "unwinnable": self.lost,
            "unknown": self.unknown,
            "winnable_share": self.share,
            "winnable_ci95": [lo, hi],
            "seconds": {f"p{p}": self.percentile(p) for p in PERCENTILES}
            | {"max": max(self.seconds, default=None)},
        }


def table(preset: str, options: str, version: str) -> list[BudgetRow]:
    """One configuration's rows, one per budget it was run at, smallest first."""
    by_seed: dict[int, dict[float, str]] = defaultdict(dict)
    seconds: dict[float, list[float]] = defaultdict(list)
    rows = DealResult.objects.filter(preset=preset, options=options, solver_version=version)
    for seed, budget, verdict, secs in rows.values_list("seed", "budget", "verdict", "seconds"):
        by_seed[seed][budget] = verdict
        seconds[budget].append(secs)
    out = []
    for budget in sorted(seconds):
        row = BudgetRow(budget, seconds=seconds[budget])
        for verdicts in by_seed.values():
            tried = [v for b, v in verdicts.items() if b <= budget]
            decided = [v for v in tried if v != UNKNOWN]
            if decided:
                row.won += decided[0] == WINNABLE
                row.lost += decided[0] == UNWINNABLE
            elif tried:
                row.unknown += 1
        out.append(row)
    return out


def stored_configs(version: str | None = None) -> list[tuple[str, str]]:
    """The (preset, options) pairs with results of ``version`` (by default each preset's
    own, :func:`~.configs.solver_version`), in ``CONFIGS`` order, others after."""
    found = {
        (preset, options)
        for preset, options, stored in DealResult.objects.values_list(
            "preset", "options", "solver_version"
        ).distinct()
        if stored == (version or solver_version(preset))
    }
    order = {name: i for i, name in enumerate(CONFIGS)}
    return sorted(found, key=lambda c: (order.get(config_name(*c), len(order)), c))


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _decided_pct(decided: int, deals: int) -> str:
    """The decided share, rounded down: 1,999 of 2,000 is 99.9 %, never 100.0 %, and a
    goal such as 99.9 % reads as met only when it is."""
    return f"{1000 * decided // deals / 10:.1f} %"


def _secs(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def seed_span(preset: str, options: str, version: str) -> str:
    seeds = DealResult.objects.filter(preset=preset, options=options, solver_version=version)
    values = seeds.values_list("seed", flat=True).distinct()
    count = values.count()
    if not count:
        return "none"
    lo, hi = min(values), max(values)
    if lo == hi:
        return str(lo)
    return f"{lo}–{hi}" if hi - lo + 1 == count else f"{count} in {lo}–{hi}"


def versions_line(versions: dict[str, str]) -> str:
    """``Solver version `v`.``, or each version with the configurations of its results."""
    named = sorted(set(versions.values()), key=lambda v: (v != SOLVER_VERSION, v))
    if len(named) <= 1:
        return f"Solver version `{named[0] if named else SOLVER_VERSION}`."
    parts = [
        f"`{v}` ({', '.join(name for name, of in versions.items() if of == v)})" for v in named
    ]
    return "Solver versions: " + "; ".join(parts) + "."


def markdown(version: str | None = None, configs: list[tuple[str, str]] | None = None) -> str:
    """The table of docs/solver/tables.md: one line per configuration and budget, each
    configuration's results of ``version`` (by default its preset's own).  ``deals`` counts
    the deals with a verdict at that budget: fewer than the seeds while a run is partway
    through retrying a smaller budget's unknowns at it."""
    configs = stored_configs(version) if configs is None else configs
    versions = {config_name(*c): version or solver_version(c[0]) for c in configs}
    lines = [
        versions_line(versions),
        "",
        "| configuration | seeds | budget | deals | won | lost | unknown | decided | winnable "
        "share of decided, 95 % Wilson | s/deal p50 / p90 / p99 / max |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for preset, options in configs:
        of = versions[config_name(preset, options)]
        span = seed_span(preset, options, of)
        for row in table(preset, options, of):
            lo, hi = row.interval
            share = (
                "–"
                if row.share is None
                else f"{100 * row.share:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"
            )
            times = " / ".join(
                _secs(v) for v in [*(row.percentile(p) for p in PERCENTILES), max(row.seconds)]
            )
            lines.append(
                f"| {config_name(preset, options)} | {span} | {row.budget:g} s | {row.deals} "
                f"| {row.won} "
                f"| {row.lost} | {row.unknown} | {_decided_pct(row.decided, row.deals)} | {share} "
                f"| {times} |"
            )
    return "\n".join(lines) + "\n"
