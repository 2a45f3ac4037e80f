"""Configurations (preset + options) as the results name them, and the solver's version."""

from __future__ import annotations

from django.conf import settings

from games import engine
from games.solver.cli import CONFIGS

__all__ = [
    "CONFIGS",
    "SOLVER_VERSION",
    "config_name",
    "current_versions",
    "options_dict",
    "options_key",
    "parse_config",
    "rules_for",
    "solver_version",
]

#: The version results are stored under: bump it when a change of the search may change
#: which deals it decides within a budget (not for a refactoring, nor for constant
#: factors of speed or memory), so old and new results are never mixed in one table.
#: ``WINNABILITY_SOLVER_VERSION`` overrides it.
SOLVER_VERSION = "2026-12-03-native"

#: Presets whose search changed since :data:`SOLVER_VERSION`, and the version of their
#: results: a change that reaches only some presets leaves the others' results standing
#: (Seahaven's search did not change).  The stock presets' portfolio is the native
#: prover's alone since 2026-12-04: a depth-first glance, its best-first search for a
#: share that grows with the budget (``runs.best_first_share``), the depth-first search
#: for the rest; Westcliff's prover plays the stock by stock plays
#: (``docs/solver/stock-plays.md``).
BEST_FIRST_VERSION = "2026-12-04-best-first"
PRESET_VERSIONS = {
    "easthaven": BEST_FIRST_VERSION,
    "easthaven-open": BEST_FIRST_VERSION,
    "easthaven-suit": BEST_FIRST_VERSION,
    "westcliff": BEST_FIRST_VERSION,
    "westcliff-classic": BEST_FIRST_VERSION,
}


def solver_version(preset: str = "") -> str:
    """The version of ``preset``'s results (with no preset, the presets' common one)."""
    override = getattr(settings, "WINNABILITY_SOLVER_VERSION", "")
    return str(override or PRESET_VERSIONS.get(preset, SOLVER_VERSION))


def current_versions() -> dict[str, str]:
    """Each preset's version of its results."""
    return {preset: solver_version(preset) for preset in engine.PRESETS}


def options_key(options: dict[str, bool] | None) -> str:
    """``{"partial_runs": True}`` → ``"partial_runs"``: the options switched on, sorted."""
    return ",".join(sorted(name for name, on in (options or {}).items() if on))


def options_dict(key: str) -> dict[str, bool]:
    return {name: True for name in key.split(",") if name}


def rules_for(preset: str, key: str) -> engine.Rules:
    """The engine's rules; :class:`engine.RulesError` for an unknown preset or option."""
    return engine.get_rules(preset, options_dict(key))


def config_name(preset: str, key: str) -> str:
    """``easthaven-open`` or ``easthaven-open+partial_runs`` (as ``bench/solver.py``)."""
    return "+".join([preset, *[name for name in key.split(",") if name]])


def parse_config(name: str) -> tuple[str, str]:
    """``"seahaven+classic_supermove"`` → ``("seahaven", "classic_supermove")``, checked."""
    preset, *names = name.split("+")
    key = options_key({n: True for n in names})
    rules_for(preset, key)
    return preset, key
