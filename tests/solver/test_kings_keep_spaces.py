"""Easthaven proper with the stock empty: the dead-end relaxation in which a King that
enters a space keeps it (``Search._dead_kings``).  Every position it calls dead must be
lost for the plain search (``pruning=False``), on random positions with Kings lying on
cards and few spaces; a hand-made position shows what it adds to the plain relaxation."""

from __future__ import annotations

import random

import pytest

from games.engine import State, get_rules
from games.solver import solve_state
from games.solver.core import Search

from .helpers import build


def _dead(state: State, kings_wait: bool) -> bool:
    search = Search(state)
    search.kings_wait = kings_wait and search.kings_wait
    return search.dead(search.start)


def crowded(rules, rng) -> State:
    """Two or three suits over the columns, at most two of them empty, random face-down
    counts, the stock empty: Kings lie on cards and spaces are scarce."""
    suits = rng.choice((2, 3))
    cards = [s * 13 + r for s in range(suits) for r in range(13)]
    rng.shuffle(cards)
    n = rules.columns
    k = rng.randint(0, 2)
    cols = [tuple(cards[i :: n - k]) for i in range(n - k)] + [()] * k
    rng.shuffle(cols)
    down = tuple(rng.randint(0, max(0, len(c) - 1)) for c in cols)
    found = tuple(0 if s < suits else 13 for s in range(4))
    return State(rules, tuple(cols), down, found, (), (), ())


def test_two_kings_one_space():
    # t3 is the only space, and nothing else can be emptied before a King has left its
    # column; the KH (face down, on the JS) and the KS (on the 4H) must both enter one.
    # The plain relaxation lets both use t3; the stronger one gives it to the first King
    # until the King's suit could be home, and finds the position dead: it is lost.
    state = build(
        "easthaven",
        ["8S JS KH 6H", "8H QS 6S 7H", "TS 2H 3H TH", "", "3S JH 2S 5S 7S", "5H 4H KS 9H AH"]
        + ["AS 9S QH 4S"],
        (0, 0, 13, 13),
        down=(3, 2, 0, 0, 0, 1, 2),
    )
    assert not _dead(state, kings_wait=False)
    assert _dead(state, kings_wait=True)
    plain = solve_state(state, time_budget=None, node_budget=50_000, pruning=False)
    assert plain.verdict == "unwinnable"


def test_only_easthaven_proper_with_the_stock_empty():
    assert Search(build("easthaven", ["KS"], (0, 13, 13, 13))).kings_wait
    assert not Search(build("easthaven-open", ["KS"], (0, 13, 13, 13))).kings_wait
    assert not Search(build("easthaven", ["KS"], (0, 13, 13, 13)), pruning=False).kings_wait


@pytest.mark.parametrize("options", [{}, {"partial_runs": True}], ids=["whole", "partial"])
def test_dead_positions_are_lost(options):
    rules = get_rules("easthaven", options)
    rng = random.Random(f"kings{options}")
    added = lost = 0
    for _ in range(2500):
        state = crowded(rules, rng)
        if _dead(state, kings_wait=False) or not _dead(state, kings_wait=True):
            continue
        added += 1
        plain = solve_state(
            state, time_budget=None, node_budget=20_000, shorten=False, pruning=False
        )
        assert plain.verdict != "winnable", state
        lost += plain.verdict == "unwinnable"
    assert lost >= 5, (added, lost)
