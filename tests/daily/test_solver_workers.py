"""``SOLVER_WORKERS`` reaches the solver that checks the daily candidates."""

from __future__ import annotations

import pytest

import games.solver
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
