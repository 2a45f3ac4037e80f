"""Seahaven's cell cards onto their parents (``Search.cells_home``) and natural runs into
cells only whole: hand-made positions for what each does, the engine replaying the
single moves a run into cells stands for, and the verdicts with pruning on against the
plain search on small random positions with full cells, where the rule fires often."""

from __future__ import annotations

import random

import pytest

from games.engine import Move, State, apply_move, get_rules
from games.solver import to_api, verify
from games.solver.bestfirst import best_first
from games.solver.core import CELL0, Search

from .helpers import build, same_verdict

#: Clubs and diamonds home; the spades and hearts on the table.
FOUND_CD = (0, 0, 13, 13)
COLUMNS = ["AS 2S 3S KH 6S", "AH QH JH 8S 7S", "2H 3H 4H 5H 6H 7H 8H 9H TH", "9S TS JS QS"]
KS, QH, JH, _8S, _7S, AH = 12, 24, 23, 7, 6, 13


def test_a_cell_card_goes_onto_its_parent():
    # The 5S in a cell, the 6S a column's top: it goes there, and then the 4S onto it.
    # The KS stays: a King has no parent.
    state = build("seahaven", COLUMNS, FOUND_CD, cells=["5S", "", "4S", "KS"])
    search = Search(state)
    path: list = []
    start = search.opening(path)
    assert path == [(CELL0, 0, 1), (CELL0 + 2, 0, 1)]
    assert start[3] == (-1, -1, -1, KS)
    assert tuple(start[0][0][-3:]) == (5, 4, 3)  # 6S 5S 4S
    # Off without pruning.
    plain = Search(state, pruning=False)
    assert plain.opening([]) == plain.start


def test_a_natural_run_goes_into_cells_whole():
    # The 7S lies on the 8S: moved alone into a cell it would come straight back, so the
    # only move of it into the cells is the run, made as one card at a time.
    state = build("seahaven", COLUMNS, FOUND_CD, cells=["", "", "", "KS"])
    search = Search(state)
    to_cells = [m[1:] for m in search.moves(search.start) if CELL0 <= m[2] < CELL0 + 4]
    assert sorted(to_cells) == [(1, CELL0, 2), (2, CELL0, 1), (3, CELL0, 1)]
    # The 6S does not go into a cell while its parent, the 7S, is a top: it would go
    # straight on there, the position the move onto the 7S makes.
    assert (0, 1, 1) in [m[1:] for m in search.moves(search.start)]
    move = (1, CELL0, 2)
    path = [move]
    child = search.settle(search.apply(search.start, move), move, path)
    assert path == [(1, CELL0, 1), (1, CELL0 + 1, 1)]
    assert tuple(child[0][1]) == (AH, QH, JH)
    assert child[3] == (_7S, _8S, -1, KS)
    # The engine plays the same single moves to the same position.
    for single in to_api(path):
        state = apply_move(state, Move.from_dict(single))
    assert state.cols[1] == tuple(child[0][1]) and state.cells == child[3]
    # With one free cell, no room for the run: no move of the 7S into a cell at all.
    tight = build("seahaven", COLUMNS[:3] + ["9S TS"], FOUND_CD, cells=["", "JS", "QS", "KS"])
    search = Search(tight)
    moves = [m[1:] for m in search.moves(search.start)]
    assert (2, CELL0, 1) in moves
    assert not any(src == 1 and CELL0 <= dst < CELL0 + 4 for src, dst, _ in moves)


def tight_deal(rules, rng) -> State:
    """Spades and hearts over four columns (the other six empty: Kings only), three
    cells full: tight enough that many are lost, small enough for the plain search."""
    cards = list(range(26))
    rng.shuffle(cards)
    cells = (*cards[:3], -1)
    cols = tuple(tuple(cards[3 + i :: 4]) for i in range(4)) + ((),) * 6
    return State(rules, cols, (0,) * 10, FOUND_CD, cells, (), ())


@pytest.mark.parametrize("options", [{}, {"classic_supermove": True}], ids=["", "classic"])
def test_verdicts_match_the_plain_search(options):
    """The verdict with pruning on is the plain search's on every random tight position
    both decide; among them enough won, lost, and with the rule firing at the start."""
    rules = get_rules("seahaven", options)
    rng = random.Random(f"cell-parent{options}")
    won = lost = fired = 0
    for _ in range(100):
        state = tight_deal(rules, rng)
        path: list = []
        Search(state).opening(path)
        fired += any(CELL0 <= src < CELL0 + 4 and dst < CELL0 for src, dst, _ in path)
        verdict = same_verdict(state, 10_000)
        won += verdict == "winnable"
        lost += verdict == "unwinnable"
    assert won >= 10 and lost >= 10 and fired >= 10, (won, lost, fired)


def test_shortening_runs_without_the_rule():
    """The rule keeps wins, not their lengths: branch and bound runs without it (and
    restores it after), so an exhausted shortening still proves the shortest win."""
    state = build("seahaven", COLUMNS, FOUND_CD, cells=["5S", "", "4S", "KS"])
    search = Search(state)
    first = best_first(search, 10**9, float("inf"))
    seen = []
    opening = search.opening

    def spy(path):
        seen.append(search.cell_parent)
        return opening(path)

    search.opening = spy
    best, exhaustive = search.shorten(first, 10**9, float("inf"))
    assert exhaustive and seen == [False] and search.cell_parent
    verify(state, to_api(best))
    assert len(best) <= len(first)
