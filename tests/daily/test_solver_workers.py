"""``SOLVER_WORKERS`` reaches the solver that checks the daily candidates."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

import games.solver
from config import settings as config_settings
from games import daily, engine


@pytest.mark.parametrize("workers", [1, 2])
def test_daily_candidates_are_solved_with_the_configured_workers(settings, monkeypatch, workers):
    settings.SOLVER_WORKERS = workers
    seen = {}

    def fake_solve(rules, deck, **kwargs):
        seen.update(kwargs)
        return "result"

    monkeypatch.setattr(games.solver, "solve", fake_solve)
    rules = engine.get_rules("seahaven")
    assert daily._solve(rules, engine.deck_from_seed(1), 10.0, 1000, True) == "result"
    assert seen == {"time_budget": 10.0, "node_budget": 1000, "shorten": True, "workers": workers}


@pytest.mark.parametrize(("raw", "expected"), [("", 1), ("1", 1), (" 2 ", 2)])
def test_the_setting_reads_one_or_two_from_the_environment(monkeypatch, raw, expected):
    monkeypatch.setenv("SOLVER_WORKERS", raw)
    assert config_settings.env_int_between("SOLVER_WORKERS", 1, 1, 2) == expected


@pytest.mark.parametrize("raw", ["0", "3", "-1"])
def test_a_value_outside_one_to_two_stops_the_start_with_a_clear_error(monkeypatch, raw):
    """Clamping 4 to 2 in silence would hide the operator's mistake; the error names both."""
    monkeypatch.setenv("SOLVER_WORKERS", raw)
    message = rf"SOLVER_WORKERS must be between 1 and 2, not {raw}\."
    with pytest.raises(ImproperlyConfigured, match=message):
        config_settings.env_int_between("SOLVER_WORKERS", 1, 1, 2)
