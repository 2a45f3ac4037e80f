"""``SOLVER_WORKERS`` reaches the solver that checks the daily candidates."""

from __future__ import annotations

import logging
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

import games.solver
from config import settings as config_settings
from games import engine
from games.daily import search


@pytest.mark.parametrize("workers", [1, 2])
def test_daily_candidates_are_solved_with_the_configured_workers(settings, monkeypatch, workers):
    settings.SOLVER_WORKERS = workers
    seen = {}

    def fake_solve(rules, deck, **kwargs):
        seen.update(kwargs)
        return "result"

    monkeypatch.setattr(games.solver, "solve", fake_solve)
    rules = engine.get_rules("seahaven")
    assert search._solve(rules, engine.deck_from_seed(1), 10.0, 1000, True) == "result"
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


def wrapper_of_this_python(tmp_path) -> str:
    """Another interpreter path that runs this Python: the worker route, testable anywhere."""
    script = tmp_path / "python-wrapper"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    script.chmod(0o755)
    return str(script)


def test_solver_python_solves_in_a_worker_process(settings, tmp_path, monkeypatch):
    settings.SOLVER_PYTHON = wrapper_of_this_python(tmp_path)
    settings.SOLVER_WORKERS = 1

    def not_here(*args, **kwargs):
        raise AssertionError("solved in-process although SOLVER_PYTHON is set")

    monkeypatch.setattr(games.solver, "solve", not_here)
    rules = engine.get_rules("seahaven")
    result = search._solve(rules, engine.deck_from_seed(1), None, 3000, True)
    assert isinstance(result, games.solver.SolveResult) and result.verdict == "winnable"
    state, _, error = engine.replay(rules, engine.deck_from_seed(1), result.moves)
    assert error is None and engine.status(state) == "won"


def test_a_broken_solver_python_falls_back_to_this_process(settings, caplog):
    settings.SOLVER_PYTHON = "no-such-python-here"
    rules = engine.get_rules("seahaven")
    with caplog.at_level(logging.ERROR, logger="games.daily.search"):
        result = search._solve(rules, engine.deck_from_seed(1), 10.0, 3000, False)
    assert result.verdict == "winnable"
    assert "SOLVER_PYTHON=no-such-python-here failed" in caplog.text
