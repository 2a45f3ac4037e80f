"""Shared bits for the solver tests: every preset with every option set."""

from __future__ import annotations

from games.engine import get_rules

RULE_SETS = [
    ("easthaven", {}),
    ("easthaven", {"partial_runs": True}),
    ("easthaven-open", {}),
    ("easthaven-open", {"partial_runs": True}),
    ("easthaven-suit", {}),
    ("easthaven-suit", {"partial_runs": True}),
    ("westcliff", {}),
    ("westcliff", {"partial_runs": True}),
    ("westcliff-classic", {}),
    ("westcliff-classic", {"partial_runs": True}),
    ("seahaven", {}),
    ("seahaven", {"classic_supermove": True}),
]


def rule_id(item) -> str:
    preset, options = item
    return "+".join([preset, *options])


def all_rules():
    return [get_rules(preset, options) for preset, options in RULE_SETS]
