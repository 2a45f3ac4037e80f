"""The solver's answers: wins that the engine replays, proofs, budgets, shortening.

Budgets here are node budgets (deterministic), never wall-clock ones, so a loaded machine
cannot turn a pass into a failure.
"""

from __future__ import annotations

import gc

import pytest

from games.engine import (
    WON,
    deck_from_pysol,
    deck_from_seed,
    get_rules,
    new_game,
    replay,
    status,
)
from games.solver import SolverBug, SolveResult, solve, solve_state, verify
from games.solver.core import Search

from .helpers import build

# Deals found winnable within a few thousand nodes (rank-major, Kings first, for Easthaven
# proper, whose random deals are nearly all lost).
EASTHAVEN_DECK = [s * 13 + r for r in range(12, -1, -1) for s in (0, 1, 3, 2)]
WINNABLE = [
    ("easthaven", {}, EASTHAVEN_DECK),
    ("easthaven", {"partial_runs": True}, 7),
    ("easthaven-open", {}, 146),
    ("easthaven-open", {"partial_runs": True}, 1),
    ("easthaven-suit", {}, 77),
    ("easthaven-suit", {"partial_runs": True}, 32),
    ("westcliff", {}, 1),
    ("westcliff", {"partial_runs": True}, 2),
    ("westcliff-classic", {}, 1),
    ("westcliff-classic", {"partial_runs": True}, 4),
    ("seahaven", {}, 1),
    ("seahaven", {"classic_supermove": True}, 1),
]


def _deck(seed_or_deck):
    return list(seed_or_deck) if isinstance(seed_or_deck, list) else deck_from_seed(seed_or_deck)


@pytest.mark.parametrize(
    ("preset", "options", "deal"), WINNABLE, ids=["+".join([p, *o]) for p, o, _ in WINNABLE]
)
def test_winnable_deals_replay_to_a_win(preset, options, deal):
    rules = get_rules(preset, options)
    deck = _deck(deal)
    result = solve(
        rules, deck, time_budget=None, node_budget=50_000, shorten=True, shorten_budget=0.5
    )
    assert isinstance(result, SolveResult)
    assert result.verdict == "winnable"
    assert result.length == len(result.moves)
    assert result.first_length >= result.length
    state, index, error = replay(rules, deck, result.moves)
    assert error is None, (index, error)
    assert status(state) == WON
    data = result.to_dict()
    assert data["verdict"] == "winnable" and data["moves"] == result.moves
    shapes = {tuple(sorted(m)) for m in result.moves}
    assert shapes <= {("type",), ("count", "from", "to", "type")}


def test_pysol_seahaven_deal_is_solved():
    rules = get_rules("seahaven", {"classic_supermove": True})
    result = solve(rules, deck_from_pysol(3), time_budget=None, node_budget=50_000, shorten=False)
    assert result.verdict == "winnable"
    assert result.first_length == result.length == len(result.moves)


def test_blocked_position_is_unwinnable_and_open_spaces_win_it():
    # Spades only: AS under 2S, the other spades in one column with 3S on top.  With
    # King-only spaces nothing can move; with open spaces 2S goes to a space and all wins.
    cols = ["AS 2S", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"]
    blocked = build("easthaven", cols, (0, 13, 13, 13))
    result = solve_state(blocked, time_budget=None, node_budget=10_000)
    assert result.verdict == "unwinnable"
    assert result.moves == [] and result.length is None
    for pruning in (True, False):
        assert solve_state(blocked, None, 10_000, pruning=pruning).verdict == "unwinnable"
    open_spaces = build("easthaven-open", cols, (0, 13, 13, 13))
    won = solve_state(open_spaces, time_budget=None, node_budget=10_000)
    assert won.verdict == "winnable"
    assert won.moves[0] == {"type": "move", "from": "t0", "to": "t2", "count": 1}
    assert won.length == 14 and won.optimal


def test_seahaven_blocked_cells_are_unwinnable():
    # Hearts all go up; then 4S and 4D (on their Aces) need 5S and 5D, which sit in the
    # full cells, and the space left by the hearts takes Kings only: stuck.
    cols = ["KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH", "AS 2S 3S 4S", "AD 2D 3D 4D"]
    state = build("seahaven", cols, (0, 0, 0, 13), cells=("5S", "6S", "5D", "6D"))
    for pruning in (True, False):
        assert solve_state(state, None, 100_000, pruning=pruning).verdict == "unwinnable"


def test_node_budget_gives_unknown():
    rules = get_rules("easthaven")
    result = solve(rules, deck_from_seed(1), time_budget=None, node_budget=50)
    assert result.verdict == "unknown"
    assert result.moves == []
    assert result.nodes <= 50
    assert result.first_length is None and result.length is None


def test_time_budget_gives_unknown():
    # Seed 6 takes the search about 56,000 positions (1.7 s here) to prove lost: 35 times
    # the budget. Seed 1 took 1,766 (0.06 s), so on a quiet machine it was decided in time.
    rules = get_rules("easthaven")
    result = solve(rules, deck_from_seed(6), time_budget=0.05)
    assert result.verdict == "unknown"
    assert result.seconds < 2.0


@pytest.mark.parametrize("enabled_before", [True, False])
def test_the_cyclic_collector_is_off_during_the_search_and_restored(monkeypatch, enabled_before):
    """The search runs with the cyclic garbage collector off (its tuples form no cycles),
    and the caller's setting comes back, also when the search ends by its budget."""
    during = []
    inner = Search.moves

    def moves(self, st):
        during.append(gc.isenabled())
        return inner(self, st)

    monkeypatch.setattr(Search, "moves", moves)
    rules = get_rules("easthaven")
    was = gc.isenabled()
    try:
        (gc.enable if enabled_before else gc.disable)()
        for budget in (50, None):  # out of budget, then a proof (seed 1 is lost)
            solve(rules, deck_from_seed(1), time_budget=None, node_budget=budget)
            assert gc.isenabled() is enabled_before
    finally:
        (gc.enable if was else gc.disable)()
    assert during and not any(during)


def test_shortening_never_lengthens_and_reports_both_lengths():
    rules = get_rules("easthaven-open", {"partial_runs": True})
    deck = deck_from_seed(5)
    first = solve(rules, deck, time_budget=None, node_budget=200_000, shorten=False)
    short = solve(
        rules, deck, time_budget=None, node_budget=200_000, shorten=True, shorten_budget=1.0
    )
    assert first.verdict == short.verdict == "winnable"
    assert first.first_length == first.length == len(first.moves)
    assert short.first_length == first.first_length
    assert short.length <= short.first_length
    assert short.length < first.length  # seed 5 has a much shorter win than the first found


def test_verify_rejects_a_wrong_solution():
    rules = get_rules("westcliff")
    deck = deck_from_seed(1)
    result = solve(rules, deck, time_budget=None, node_budget=10_000, shorten=False)
    with pytest.raises(SolverBug):
        verify(new_game(rules, deck), result.moves[:-1])
    with pytest.raises(SolverBug):
        verify(new_game(rules, deck), [{"type": "move", "from": "t0", "to": "t0", "count": 1}])
