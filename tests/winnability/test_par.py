"""The daily par's shortening is bounded by ``DAILY_PAR_SECONDS`` (``games.daily.search``)."""

from __future__ import annotations

import datetime as dt

import games.solver
from games.daily import search


def test_full_solves_get_the_par_budget_and_screens_do_not_shorten(settings, monkeypatch):
    settings.DAILY_PAR_SECONDS = 0.3
    calls = []
    real = games.solver.solve

    def spy(rules, deck, **kwargs):
        calls.append(kwargs)
        return real(rules, deck, **kwargs)

    monkeypatch.setattr(games.solver, "solve", spy)
    fields = search.search_day(dt.date(2026, 12, 3), "seahaven", None)
    assert fields["verdict"] == "winnable"
    screens = [c for c in calls if not c["shorten"]]
    full = [c for c in calls if c["shorten"]]
    assert screens and all("shorten_budget" not in c for c in screens)
    assert full and all(c["shorten_budget"] == 0.3 for c in full)
    assert search._par_budget.get() is None  # reset after the solve


def test_the_default_par_budget_is_half_a_second(settings):
    assert search.par_seconds() == settings.DAILY_PAR_SECONDS == 0.5
