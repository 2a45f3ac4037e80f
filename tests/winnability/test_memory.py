"""A search that outgrows its memory is ``unknown`` at that budget, never the host's memory.

A 60 s search on PyPy was seen past 23 GB and was killed by the kernel (2026-12-03): the
solver's worker now runs under ``SOLVER_MEMORY_MB`` (an address-space limit). PyPy answers
a ``MemoryError`` or aborts ("couldn't allocate the next arena"); either way the deal is
stored as undecided, and it is neither retried nor solved in the parent, unbounded.
"""

from __future__ import annotations

import pytest

from games.solver import UNKNOWN, SolveResult, native
from games.solver.external import WorkerError
from games.winnability import runs

# westcliff-classic seed 16 stays undecided after 60 s: its search grows without bound.
HARD = ("westcliff-classic", "", 16)


@pytest.fixture(autouse=True)
def _fresh_pools():
    yield
    for python in list(runs._pools):
        runs._drop_pool(python)


@pytest.mark.pypy
def test_a_pypy_search_over_its_memory_limit_is_unknown(monkeypatch):
    monkeypatch.setenv("SOLVER_MEMORY_MB", "400")
    answer, interpreter = runs.solve_one(
        *HARD, budget=30, python="pypy3", race=False, prover="python"
    )
    assert answer["verdict"] == UNKNOWN
    assert answer["memory"] is True
    assert "PyPy" in interpreter or interpreter == "pypy3"


def test_a_worker_that_died_of_memory_is_not_retried_nor_solved_here(monkeypatch):
    starts = []

    def dying_pool(python):
        starts.append(python)
        raise WorkerError("solver worker (pypy3) died (exit code -6): out of memory: arena")

    def never(*args, **kwargs):
        raise AssertionError("solved in the parent process, without a memory limit")

    monkeypatch.setattr(runs, "_elsewhere", lambda python: True)
    monkeypatch.setattr(runs, "_pool", dying_pool)
    monkeypatch.setattr(runs, "solve_deck", never)
    answer, _ = runs.solve_one(*HARD, budget=10, python="pypy3", race=False, prover="python")
    assert (answer["verdict"], answer["memory"]) == (UNKNOWN, True)
    assert starts == ["pypy3"]


@pytest.mark.native
def test_the_native_prover_over_its_memory_limit_is_unknown(monkeypatch):
    """The prover counts its own memory and stops at ``SOLVER_MEMORY_MB``: unknown,
    flagged, and stored as such like a Python worker's."""
    monkeypatch.setenv("SOLVER_MEMORY_MB", "20")
    answer, interpreter = runs.solve_one(*HARD, budget=30, python=None, race=False)
    assert answer["verdict"] == UNKNOWN
    assert answer["memory"] is True
    assert interpreter == "haven-prover (native)"


@pytest.mark.native
def test_a_best_first_search_out_of_memory_leaves_the_deal_to_the_depth_first_one(
    monkeypatch,
):
    """In the portfolio the best-first search (some twice the memory a position) at its
    limit is no reason to skip the depth-first search's turn: it proves the deal."""
    monkeypatch.setattr(runs, "NATIVE_FIRST_SECONDS", 0)
    solve_state = native.solve_state
    best_first_turns = []

    def best_first_out_of_memory(state, budget, **kwargs):
        if kwargs.get("best_first"):
            best_first_turns.append(budget)
            return SolveResult(UNKNOWN, [], 0, 0.0, memory=True)
        return solve_state(state, budget, **kwargs)

    monkeypatch.setattr(native, "solve_state", best_first_out_of_memory)
    # westcliff-classic seed 445: the prover proves it lost in about 45k positions.
    answer, interpreter = runs.solve_one("westcliff-classic", "", 445, 10, "pypy3", False)
    # Both best-first turns (with stock plays and plain) stopped, then the depth-first one.
    assert sum(best_first_turns) == pytest.approx(runs.best_first_share(10))
    assert len(best_first_turns) == 2
    assert answer["verdict"] == "unwinnable" and interpreter == "haven-prover (native)"
