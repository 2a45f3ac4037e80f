"""The prover's layered search (``docs/solver/layered.md``): the depth-first search's
proof, holding one layer of positions at a time.

Where the depth-first search proves a loss, the layered search must prove it over exactly
as many positions (the same graph, searched layer by layer), from a deal's start and from
a position deep in a game (its waste and its columns' face-down cards come from the
start); a win it meets is ``unknown`` (it keeps no line to replay); its limits stop it.
"""

from __future__ import annotations

import pytest

from games.engine import apply_move, deck_from_seed, get_rules, legal_moves, new_game
from games.solver import native

from .test_native import BEST_FIRST_PROOFS

pytestmark = pytest.mark.native

# Lost deals of each family (data/winnability.csv), westcliff (ten columns) the only one of
# its 2,000 seeds lost.
LOST_DEALS = [*BEST_FIRST_PROOFS, ("westcliff", {}, 929), ("easthaven-suit", {}, 167)]


def _lost(state) -> native.SolveResult:
    depth_first = native.solve_state(state, time_budget=60)
    assert depth_first.verdict == "unwinnable"
    return depth_first


@pytest.mark.parametrize("preset,options,seed", LOST_DEALS)
def test_layered_proves_the_same_losses_with_the_same_positions(preset, options, seed):
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    depth_first = _lost(state)
    layered = native.solve_state(state, time_budget=60, layered=True)
    assert layered.verdict == "unwinnable" and not layered.memory
    assert layered.nodes == depth_first.nodes


@pytest.mark.parametrize("preset,options,seed", LOST_DEALS[-4:])
def test_threads_share_a_layer_and_count_each_position_once(preset, options, seed, monkeypatch):
    """``HAVEN_PROVER_THREADS``: each position is claimed by one thread (the insert into
    its shard), so three threads prove the loss over exactly the same positions."""
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    depth_first = _lost(state)
    monkeypatch.setenv("HAVEN_PROVER_THREADS", "3")
    layered = native.solve_state(state, time_budget=60, layered=True)
    assert layered.verdict == "unwinnable" and layered.nodes == depth_first.nodes


def _dealt(state, deals: int):
    """``state`` after ``deals`` deals and nothing else: a position of a lost deal is lost."""
    for _ in range(deals):
        (deal,) = [move for move in legal_moves(state) if move.type != "move"]
        state = apply_move(state, deal)
    return state


@pytest.mark.parametrize("preset,seed,deals", [("westcliff-classic", 445, 6), ("easthaven", 2, 1)])
def test_layered_proofs_from_a_position_deep_in_a_game(preset, seed, deals):
    """From a position with a waste (Westcliff) or a dealt row (Easthaven): the queued
    positions are rebuilt from keys with the start's waste and face-down cards."""
    state = _dealt(new_game(get_rules(preset), deck_from_seed(seed)), deals)
    depth_first = _lost(state)
    assert depth_first.nodes > 1000
    layered = native.solve_state(state, time_budget=60, layered=True)
    assert layered.verdict == "unwinnable" and layered.nodes == depth_first.nodes


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_win_met_by_the_layered_search_is_unknown(threads, monkeypatch):
    """westcliff-classic 1 is won in 77 positions; the layered search meets the win but
    has no line for the engine to replay, so it does not claim it."""
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(1))
    assert native.solve_state(state, time_budget=10).verdict == "winnable"
    monkeypatch.setenv("HAVEN_PROVER_THREADS", threads)
    met = native.solve_state(state, time_budget=10, layered=True)
    assert met.verdict == "unknown" and not met.memory and met.moves == []


@pytest.mark.parametrize("threads", ["1", "2"])
def test_the_layered_search_stops_at_its_limits(threads, monkeypatch):
    monkeypatch.setenv("HAVEN_PROVER_THREADS", threads)
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(16))
    by_nodes = native.solve_state(state, time_budget=60, node_budget=5000, layered=True)
    assert by_nodes.verdict == "unknown" and not by_nodes.memory
    # One thread stops at the limit exactly; others may each count one more.
    assert 5000 <= by_nodes.nodes <= 5000 + int(threads) - 1
    by_memory = native.solve_state(state, time_budget=60, memory_mb=40, layered=True)
    assert by_memory.verdict == "unknown" and by_memory.memory
    by_time = native.solve_state(state, time_budget=0.3, layered=True)
    assert by_time.verdict == "unknown" and not by_time.memory and by_time.seconds < 5


def test_the_request_names_the_layered_search():
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(5))
    plain = list(map(int, native.request_line(state, 1000).split()))
    layered = list(map(int, native.request_line(state, 1000, layered=True).split()))
    assert layered[8] == 2 and layered[:8] + layered[9:] == plain[:8] + plain[9:]


def test_later_layers_go_to_files_that_leave_nothing_behind(tmp_path, monkeypatch):
    """A later layer's positions wait in a file in ``HAVEN_PROVER_SPILL_DIR``, read back
    when its turn comes (delayed duplicate detection): the same proof, and each file is
    unlinked as soon as it is made, so not even a killed prover leaves one."""
    monkeypatch.setenv("HAVEN_PROVER_SPILL_DIR", str(tmp_path))
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(881))
    depth_first = _lost(state)
    layered = native.solve_state(state, time_budget=60, layered=True)
    assert layered.verdict == "unwinnable" and layered.nodes == depth_first.nodes
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("spill", ["disk limit", "no such folder"])
def test_layer_files_that_cannot_be_written_stop_the_search_as_memory_does(
    spill, tmp_path, monkeypatch
):
    """Past ``HAVEN_PROVER_DISK_MB``, or with nowhere to write, the search stops with the
    answer a memory limit gives (unknown, by memory): never a wrong proof, never a crash."""
    if spill == "disk limit":
        monkeypatch.setenv("HAVEN_PROVER_DISK_MB", "1")
    else:
        monkeypatch.setenv("HAVEN_PROVER_SPILL_DIR", str(tmp_path / "missing"))
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(881))
    stopped = native.solve_state(state, time_budget=60, layered=True)
    assert stopped.verdict == "unknown" and stopped.memory
    assert 0 < stopped.nodes < 4_856_542
