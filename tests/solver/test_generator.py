"""The solver's own move generator against the engine's ``legal_moves``.

With pruning off the two must list exactly the same moves; with pruning on the solver's
moves must be a subset of the engine's (pruning only removes moves), except Seahaven's
natural run into cells, one solver move that stands for single engine moves, each legal.
Positions come from
random play through the engine, from seeded deals of every preset and option set.
"""

from __future__ import annotations

import random

import pytest

from games.engine import apply_move, deck_from_seed, get_rules, legal_moves, new_game
from games.solver import to_api
from games.solver.core import CELL0, Search

from .helpers import RULE_SETS, rule_id


def _key(move: dict) -> tuple:
    return (move["type"], move.get("from"), move.get("to"), move.get("count"))


def _solver_moves(state, pruning: bool) -> list[tuple]:
    search = Search(state, pruning=pruning)
    return [_key(m) for m in to_api([mv[1:] for mv in search.moves(search.start)])]


def _positions(rules, seeds, steps):
    rng = random.Random(1234)
    for seed in seeds:
        state = new_game(rules, deck_from_seed(seed))
        for _ in range(steps):
            yield state
            moves = legal_moves(state)
            if not moves:
                break
            # Prefer progress so that positions with few cards are reached too.
            found = [m for m in moves if m.dst == "f"]
            state = apply_move(state, rng.choice(found if found and rng.random() < 0.7 else moves))


@pytest.mark.parametrize("item", RULE_SETS, ids=rule_id)
def test_generator_matches_engine(item):
    preset, options = item
    rules = get_rules(preset, options)
    checked = runs = 0
    for state in _positions(rules, range(1, 9), 120):
        engine = sorted(_key(m.to_dict()) for m in legal_moves(state))
        exact = _solver_moves(state, pruning=False)
        assert len(exact) == len(set(exact)), "duplicate moves"
        assert sorted(exact) == engine, state
        pruned = _solver_moves(state, pruning=True)
        singles = [m for m in pruned if not _run_into_cells(m)]
        assert set(singles) <= set(engine)
        for move in pruned:
            if _run_into_cells(move):
                _check_run_into_cells(state, move)
                runs += 1
        checked += 1
    assert checked > 100
    if rules.cells:
        assert runs > 0


def _run_into_cells(move: tuple) -> bool:
    return (move[2] or "").startswith("c") and move[3] > 1


def _check_run_into_cells(state, move: tuple) -> None:
    """The solver's run into cells equals its single moves played through the engine."""
    search = Search(state)
    src = int(move[1][1:])
    ours = search.apply(search.start, (src, CELL0 + int(move[2][1:]), move[3]))
    assert len(search._macro) == move[3]
    for single in to_api(search._macro):
        assert _key(single) in {_key(m.to_dict()) for m in legal_moves(state)}
        state = apply_move(state, api_move(single))
    assert tuple(map(tuple, ours[0])) == state.cols and ours[3] == state.cells


@pytest.mark.parametrize("item", RULE_SETS, ids=rule_id)
def test_apply_matches_engine(item):
    preset, options = item
    rules = get_rules(preset, options)
    for state in _positions(rules, range(20, 24), 100):
        search = Search(state, pruning=False)
        for mv in search.moves(search.start):
            move = mv[1:]
            ours = search.apply(search.start, move)
            (api,) = to_api([move])
            theirs = apply_move(state, api_move(api))
            cols, down, found, cells, dealt, waste = ours
            assert tuple(map(tuple, cols)) == theirs.cols  # columns are bytes inside
            assert down == theirs.down
            assert found == theirs.found
            assert cells == theirs.cells
            assert tuple(waste) == theirs.waste
            assert dealt == len(state.stock) - len(theirs.stock)


def api_move(data):
    from games.engine import Move

    return Move.from_dict(data)
