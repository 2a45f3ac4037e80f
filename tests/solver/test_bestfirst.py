"""Best-first search (:mod:`games.solver.bestfirst`): its wins replay through the engine,
its "no win" is the same proof as the DFS's (the same positions, each expanded once), and
budgets stop it.  Node budgets only, never wall-clock ones."""

from __future__ import annotations

import pytest

from games.engine import deck_from_seed, get_rules, new_game
from games.solver import to_api, verify
from games.solver.bestfirst import Weights, best_first, make_weights
from games.solver.core import OutOfBudget, Search

from .helpers import RULE_SETS, build, rule_id

INF = float("inf")


def _recording(search: Search) -> set:
    """Wrap the search's key function so that every key it computes is recorded: every
    position a search reaches has its key computed, so this is the set it visited."""
    keys: set = set()
    inner = search._keyfn

    def keyfn(st):
        k = inner(st)
        keys.add(k)
        return k

    search._keyfn = keyfn
    return keys


def _dfs(state, budget):
    search = Search(state)
    try:
        return search.first_solution(budget, INF), search.nodes
    except OutOfBudget:
        return "unknown", search.nodes


def _bf(state, budget, weights=None):
    search = Search(state)
    try:
        return best_first(search, budget, INF, weights), search.nodes
    except OutOfBudget:
        return "unknown", search.nodes


@pytest.mark.parametrize("item", RULE_SETS, ids=rule_id)
def test_verdicts_agree_with_the_dfs(item):
    """Seeds 1-6 of every rule set: a lost deal the DFS proves is exhausted by best-first
    with the same node count; every win either finds replays to a won game."""
    preset, options = item
    rules = get_rules(preset, options)
    for seed in range(1, 7):
        state = new_game(rules, deck_from_seed(seed))
        dfs, dfs_nodes = _dfs(state, 3000)
        bf, bf_nodes = _bf(state, 20_000)
        if dfs is None:
            assert bf is None, seed
            assert bf_nodes == dfs_nodes, seed
        if bf is None:
            assert not isinstance(dfs, list), seed
        if isinstance(bf, list):
            verify(state, to_api(bf))
            assert dfs is not None, seed


def test_known_wins_replay():
    for preset, options, seed in [
        ("easthaven-open", {}, 4),
        ("easthaven-open", {"partial_runs": True}, 1),
        ("westcliff-classic", {}, 1),
        ("seahaven", {"classic_supermove": True}, 1),
        ("seahaven", {}, 2),
        ("easthaven", {"partial_runs": True}, 7),
    ]:
        state = new_game(get_rules(preset, options), deck_from_seed(seed))
        path, _ = _bf(state, 100_000)
        assert isinstance(path, list), (preset, options, seed)
        verify(state, to_api(path))


def test_endgame_wins_and_blocked_endgames_are_proved():
    cols = ["AS 2S", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"]
    blocked = build("easthaven", cols, (0, 13, 13, 13))
    assert _bf(blocked, 10_000)[0] is None
    assert _dfs(blocked, 10_000)[0] is None
    open_spaces = build("easthaven-open", cols, (0, 13, 13, 13))
    path, _ = _bf(open_spaces, 10_000)
    verify(open_spaces, to_api(path))
    cols = ["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH", "AS 2S 3S 4S", "AD 2D 3D 4D"]
    stuck = build("seahaven", cols, (0, 0, 0, 13), cells=("5S", "6S", "5D", "6D"))
    assert _bf(stuck, 100_000) == _dfs(stuck, 100_000)
    assert _bf(stuck, 100_000)[0] is None


def test_an_already_won_start_returns_the_autoplay():
    state = build("seahaven", ["KS"], (12, 13, 13, 13))
    path, _ = _bf(state, 10)
    assert path == [(0, 30, 1)]
    verify(state, to_api(path))


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("easthaven-open", {}, 3),
        ("easthaven-open", {"partial_runs": True}, 16),
        ("easthaven", {}, 15),
        ("seahaven", {}, 19),
        ("seahaven", {"classic_supermove": True}, 26),
        ("westcliff-classic", {}, 7),
    ],
)
def test_exhausted_search_expands_the_same_positions_as_the_dfs(preset, options, seed):
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    dfs_search = Search(state)
    dfs_keys = _recording(dfs_search)
    try:
        dfs = dfs_search.first_solution(20_000, INF)
    except OutOfBudget:
        dfs = "unknown"
    assert dfs is None, "not a small lost deal"
    bf_search = Search(state)
    bf_keys = _recording(bf_search)
    assert best_first(bf_search, 20_000, INF) is None
    assert bf_keys == dfs_keys
    assert bf_search.nodes == dfs_search.nodes == len(dfs_keys)
    # Other weights, and other queues taking turns, change the order only, never the set.
    for weights in (Weights(found=1, depth=3, blocker=0), [Weights(order=50), Weights(dive=True)]):
        other = Search(state)
        other_keys = _recording(other)
        assert best_first(other, 20_000, INF, weights) is None
        assert other_keys == dfs_keys
        assert other.nodes == dfs_search.nodes


def test_node_budget_raises():
    state = new_game(get_rules("easthaven"), deck_from_seed(1))
    search = Search(state)
    with pytest.raises(OutOfBudget):
        best_first(search, 50, INF)
    assert search.nodes == 50


def test_deadline_raises_after_256_nodes():
    state = new_game(get_rules("easthaven-open"), deck_from_seed(1))
    search = Search(state)
    with pytest.raises(OutOfBudget):
        best_first(search, 10**9, 0.0)
    assert search.nodes == 256


def test_weights_per_family():
    for preset in ("easthaven-open", "westcliff-classic", "seahaven"):
        search = Search(new_game(get_rules(preset), deck_from_seed(1)))
        weights = make_weights(search)
        assert isinstance(weights, Weights) or all(isinstance(w, Weights) for w in weights)
