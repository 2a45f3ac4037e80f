"""The rival (``workers=2``): a depth-first search in a forked process, racing the main one.

The race's plumbing is tested with a main search that never answers on its own, so the
outcome does not depend on which process is faster on a loaded machine.
"""

from __future__ import annotations

import os
import time

import pytest

import games.solver.entry as solver
from games.engine import deck_from_seed, get_rules, new_game
from games.solver import race, solve, solve_state, to_api, verify
from games.solver.race import Rival
from games.solver.schedule import Interrupted

pytestmark = pytest.mark.skipif(not race.can_fork(), reason="needs os.fork")

# easthaven-open seed 146 is won within a few thousand positions (tests/solver/test_solve.py);
# easthaven seed 1 is a quick proof.
WON = ("easthaven-open", 146)
LOST = ("easthaven", 1)


def _state(preset, seed):
    return new_game(get_rules(preset), deck_from_seed(seed))


def _reaped(rival: Rival) -> bool:
    """Has the stopped rival's child been reaped (by its reaper thread, within a few s)?"""
    assert rival.join(10)
    try:
        os.waitpid(rival.pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_rival_reports_a_win_that_replays_and_is_reaped():
    state = _state(*WON)
    rival = Rival(state, 10**6, time.perf_counter() + 60)
    verdict, path, nodes = rival.wait(time.perf_counter() + 60)
    assert verdict == "winnable" and nodes > 0
    verify(state, to_api(path))  # raises SolverBug unless the path wins
    assert rival.stop() == (verdict, path, nodes)
    assert _reaped(rival)
    assert rival.stop() == (verdict, path, nodes)  # idempotent


def test_rival_reports_a_proof():
    rival = Rival(_state(*LOST), 10**6, time.perf_counter() + 60)
    assert rival.wait(time.perf_counter() + 60)[0] == "unwinnable"
    assert rival.decided()
    rival.stop()


def test_rival_out_of_budget_is_unknown_and_does_not_end_the_race():
    rival = Rival(_state("easthaven", 30), 200, time.perf_counter() + 60)
    verdict, path, nodes = rival.wait(time.perf_counter() + 60)
    assert (verdict, path) == ("unknown", None) and 0 < nodes <= 200
    assert rival.ready() and not rival.decided()
    rival.stop()


def test_stopping_a_searching_rival_returns_its_count_and_reaps_it():
    # Easthaven seed 30 takes far more than a second to decide.
    rival = Rival(_state("easthaven", 30), 10**9, time.perf_counter() + 60)
    time.sleep(0.3)
    started = time.perf_counter()
    verdict, path, nodes = rival.stop()
    assert time.perf_counter() - started < race.STOP_GRACE
    assert (verdict, path) == ("unknown", None) and nodes > 0
    assert _reaped(rival)


@pytest.fixture
def silent_main_search(monkeypatch):
    """A main search that finds nothing and only waits for the rival (as on a deal where
    best-first cannot decide in time), with the rival started at once."""
    rivals = []
    real_rival = solver.Rival

    def recording_rival(*args, **kwargs):
        rivals.append(real_rival(*args, **kwargs))
        return rivals[-1]

    def first_win(search, node_limit, deadline, interrupt=None):
        assert interrupt is not None
        while time.perf_counter() < deadline:
            if interrupt():
                raise Interrupted
            time.sleep(0.005)
        raise solver.OutOfBudget

    monkeypatch.setattr(solver, "RIVAL_DELAY", 0.0)
    monkeypatch.setattr(solver, "Rival", recording_rival)
    monkeypatch.setattr(solver, "_first_win", first_win)
    return rivals


def test_the_rivals_proof_decides_the_race(silent_main_search):
    result = solve(get_rules(LOST[0]), deck_from_seed(LOST[1]), time_budget=30, workers=2)
    assert result.verdict == "unwinnable" and result.nodes > 0
    assert len(silent_main_search) == 1 and _reaped(silent_main_search[0])


def test_the_rivals_win_is_shortened_and_replayed(silent_main_search):
    result = solve(get_rules(WON[0]), deck_from_seed(WON[1]), time_budget=30, workers=2)
    assert result.verdict == "winnable"
    assert result.length <= result.first_length  # the rival's win, shortened by the parent
    verify(_state(*WON), result.moves)
    assert _reaped(silent_main_search[0])


def test_no_rival_with_one_worker(silent_main_search, monkeypatch):
    monkeypatch.setattr(solver, "_first_win", lambda *args: None)  # a quick "proof"
    assert solve_state(_state(*LOST), 30, workers=1).verdict == "unwinnable"
    assert silent_main_search == []


def test_a_quick_main_answer_starts_no_rival(monkeypatch):
    """The rival waits RIVAL_DELAY for the main search; a delay no test machine reaches
    keeps this about the rule, not about how fast the machine is."""
    started = []
    monkeypatch.setattr(solver, "Rival", lambda *a, **k: started.append(a))
    monkeypatch.setattr(solver, "RIVAL_DELAY", 120.0)
    result = solve(get_rules(LOST[0]), deck_from_seed(LOST[1]), time_budget=30, workers=2)
    assert result.verdict == "unwinnable"
    assert started == []  # decided before RIVAL_DELAY


def test_both_workers_agree_with_one_on_real_searches():
    for preset, seed in (WON, LOST):
        one = solve(get_rules(preset), deck_from_seed(seed), None, 200_000, shorten=False)
        two = solve(
            get_rules(preset), deck_from_seed(seed), None, 200_000, shorten=False, workers=2
        )
        assert one.verdict == two.verdict


@pytest.mark.parametrize("workers", [0, 3])
def test_solve_refuses_a_worker_count_it_cannot_run(workers):
    with pytest.raises(ValueError, match="workers must be 1 or 2"):
        solve(get_rules(LOST[0]), deck_from_seed(LOST[1]), time_budget=1, workers=workers)
