"""Skipping the move that undoes the last one (``Search.skip_undo``) is a speed-up only:
the first search must expand the same positions in the same order and return the same
path with it on or off, with pruning on and off, for every preset and option set."""

from __future__ import annotations

import pytest

from games.engine import deck_from_seed, get_rules, new_game
from games.solver.core import OutOfBudget, Search

from .helpers import RULE_SETS, rule_id


def _run(state, pruning: bool, skip: bool):
    search = Search(state, pruning=pruning)
    search.skip_undo = skip
    try:
        path = search.first_solution(4000, float("inf"))
    except OutOfBudget:
        path = "unknown"
    return path, search.nodes


@pytest.mark.parametrize("item", RULE_SETS, ids=rule_id)
@pytest.mark.parametrize("pruning", [True, False], ids=["pruned", "plain"])
def test_skip_undo_searches_the_same(item, pruning):
    preset, options = item
    rules = get_rules(preset, options)
    for seed in range(1, 5):
        state = new_game(rules, deck_from_seed(seed))
        assert _run(state, pruning, True) == _run(state, pruning, False), seed
