"""Randomized dives (:mod:`games.solver.dives`) and searches taking turns
(:mod:`games.solver.schedule`): dive wins replay, an exhausted dive is the DFS's proof
(the same positions), the runs are repeatable, and the shared budget is kept.  Node
budgets only, never wall-clock ones (except a deadline already past)."""

from __future__ import annotations

from functools import partial

import pytest

from games.engine import deck_from_seed, get_rules, new_game
from games.solver import solve, to_api, verify
from games.solver.bestfirst import best_first, best_first_steps
from games.solver.core import OutOfBudget, Search
from games.solver.dives import dive_share, dive_steps, luby
from games.solver.schedule import SLICE, in_turns

from .test_bestfirst import _recording

INF = float("inf")


def _dives_alone(state, budget, base=500, noise=60):
    """Only the dives, through :func:`in_turns`: (path, None or "unknown", nodes)."""
    search = Search(state)
    steps = partial(dive_steps, base=base, noise=noise)
    try:
        path = in_turns(search, [(steps, 1.0)], budget, INF)
    except OutOfBudget:
        return "unknown", search.nodes
    return path, search.nodes


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("easthaven-open", {}, 4),
        ("easthaven-open", {"partial_runs": True}, 1),
        ("westcliff-classic", {}, 1),
        ("seahaven", {}, 2),
    ],
)
def test_dive_wins_replay(preset, options, seed):
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    path, nodes = _dives_alone(state, 200_000)
    assert isinstance(path, list), (preset, options, seed, nodes)
    verify(state, to_api(path))


def test_later_dives_take_other_orders_and_still_win():
    """A base of 20 positions forces many restarts, so the win comes from a perturbed
    dive, not the first (the generator's own order)."""
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(1))
    first, first_nodes = _dives_alone(state, 200_000, base=10**9)
    path, nodes = _dives_alone(state, 200_000, base=20)
    assert isinstance(path, list)
    verify(state, to_api(path))
    assert nodes > 20
    assert path != first or nodes != first_nodes


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("easthaven-open", {}, 3),
        ("easthaven-open", {"partial_runs": True}, 16),
        ("westcliff-classic", {}, 7),
        ("seahaven", {}, 19),
    ],
)
def test_an_exhausted_dive_is_the_dfs_proof(preset, options, seed):
    """On small lost deals: one dive long enough visits exactly the DFS's positions; short
    perturbed dives restart until one of them is exhaustive, and together they visit no
    position the DFS did not (they cannot leave the reachable set)."""
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    dfs_search = Search(state)
    dfs_keys = _recording(dfs_search)
    assert dfs_search.first_solution(20_000, INF) is None, "not a small lost deal"
    for base in (10**9, 50):
        search = Search(state)
        keys = _recording(search)
        path = in_turns(search, [(partial(dive_steps, base=base), 1.0)], 10**7, INF)
        assert path is None
        assert keys == dfs_keys, base
        if base == 10**9:
            # The DFS counts its start position, a dive only the new ones.
            assert search.nodes == dfs_search.nodes - 1


def test_dives_are_repeatable():
    state = new_game(get_rules("easthaven-open", {"partial_runs": True}), deck_from_seed(1))
    assert _dives_alone(state, 100_000, base=30) == _dives_alone(state, 100_000, base=30)


def test_dive_shares_per_family():
    def share(preset, options=None):
        return dive_share(Search(new_game(get_rules(preset, options), deck_from_seed(1))))

    assert share("westcliff-classic") > 0
    assert share("easthaven-open", {"partial_runs": True}) > 0
    # Measured no help (bench/README.md): proofs there need best-first's whole budget.
    assert share("easthaven") == 0
    assert share("easthaven-open") == 0
    assert share("seahaven") == 0
    assert share("westcliff") == 0


def _counter(step_log: list, name: str, end: int | None = None):
    """A fake search's factory: every position is new; the search returns a proof after
    ``end`` positions."""
    return lambda search, start, opening: _count(step_log, name, end)


def _count(step_log: list, name: str, end: int | None):
    count = 0
    target = yield count
    while True:
        step_log.append((name, target - count))
        if end is not None and target >= end:
            return None, end
        count = target
        target = yield count


def test_turns_keep_the_shares_and_slices():
    log: list = []
    search = Search(new_game(get_rules("seahaven"), deck_from_seed(1)))
    with pytest.raises(OutOfBudget):
        in_turns(search, [(_counter(log, "a"), 1.0), (_counter(log, "b"), 0.5)], 30 * SLICE, INF)
    assert search.nodes == 30 * SLICE
    a = sum(n for name, n in log if name == "a")
    b = sum(n for name, n in log if name == "b")
    assert a + b == 30 * SLICE
    assert abs(a - 2 * b) <= 2 * SLICE
    assert all(n == SLICE for _, n in log)


def test_turns_end_with_the_first_answer():
    log: list = []
    search = Search(new_game(get_rules("seahaven"), deck_from_seed(1)))
    gens = [(_counter(log, "a"), 1.0), (_counter(log, "b", end=3 * SLICE), 1.0)]
    assert in_turns(search, gens, 10**6, INF) is None
    assert search.nodes == 6 * SLICE


def test_turns_read_the_clock_after_each_slice():
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(54))
    search = Search(state)
    searches = [(best_first_steps, 1.0), (dive_steps, 1.0)]
    with pytest.raises(OutOfBudget):
        in_turns(search, searches, 10**9, 0.0)
    assert search.nodes == SLICE


def test_solve_wins_where_best_first_alone_wanders():
    """westcliff-classic seed 103: best-first alone is still undecided after 20k positions
    (and 100k); the first dive, in the generator's own order, wins within a few hundred."""
    rules = get_rules("westcliff-classic")
    state = new_game(rules, deck_from_seed(103))
    with pytest.raises(OutOfBudget):
        best_first(Search(state), 20_000, INF)
    result = solve(rules, deck_from_seed(103), time_budget=None, node_budget=1000, shorten=False)
    assert result.verdict == "winnable"
    assert result.nodes < 1000
    verify(state, result.moves)
