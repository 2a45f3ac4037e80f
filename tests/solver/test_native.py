"""The native prover (``native/``, :mod:`games.solver.native`) against the Python solver.

* On every endgame of the pruning-soundness test (:mod:`.test_soundness`) of the presets it
  plays, its verdict is the plain search's (``pruning=False``).
* Where the Python depth-first search proves a loss, the prover without stock plays
  visits exactly as many positions: a proof visits every reachable settled position
  whatever the order, so equal counts mean the same pruning rules (auto-play, dead ends,
  keys) built the same graph.  With stock plays (``docs/solver/stock-plays.md``) its
  positions are a part of that graph, so it proves the same loss with at most as many.
* Every win it reports replays to a win in the engine; limits, bad requests and a broken
  binary give ``unknown`` or :class:`~games.solver.native.NativeError`, never a wrong
  verdict.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine import WON, deck_from_seed, get_rules, new_game, replay, status
from games.solver import native
from games.solver.core import OutOfBudget, Search

from .helpers import RULE_SETS, rule_id, same_verdict
from .test_soundness import DEALS, endgames, mini_deal, reference_win

pytestmark = pytest.mark.native

NATIVE = Path(__file__).resolve().parents[2] / "native"

STOCK_RULE_SETS = [item for item in RULE_SETS if not item[0].startswith("seahaven")]


def python_proof_nodes(state, limit: int = 20_000) -> int | None:
    """Positions the Python depth-first search visits to prove ``state`` lost, or ``None``
    when it wins or runs out of positions."""
    search = Search(state)
    try:
        path = search.first_solution(limit, float("inf"))
    except OutOfBudget:
        return None
    return None if path is not None else search.nodes


@pytest.mark.parametrize("item", STOCK_RULE_SETS, ids=rule_id)
def test_endgame_verdicts_and_proof_sizes_match_the_python_solver(item):
    preset, options = item
    rules = get_rules(preset, options)
    deal = DEALS[(preset, tuple(sorted(options)))]
    deck = list(deal) if isinstance(deal, list) else deck_from_seed(deal)
    rng = random.Random(f"native{preset}{options}")
    positions = list(endgames(rules, deck, reference_win(rules, deck), 12, rng))
    positions += [mini_deal(rules, rng, suits=2) for _ in range(6)]
    compared = proofs = 0
    for state in positions:
        answer = native.solve_state(state, time_budget=20, node_budget=200_000)
        plain = native.solve_state(state, 20, 200_000, stock_plays=False)
        expected = same_verdict(state, 5_000)
        if expected is not None:
            assert answer.verdict == plain.verdict == expected, state
            compared += 1
        nodes = python_proof_nodes(state)
        if nodes is not None:
            assert answer.verdict == plain.verdict == "unwinnable"
            assert plain.nodes == nodes, state
            assert answer.nodes <= nodes, state
            proofs += 1
    assert compared >= 6
    PROOFS[rule_id(item)] = proofs


PROOFS: dict[str, int] = {}


def test_proof_sizes_were_compared_on_many_positions():
    """The count comparison above is only worth something if many endgames are lost."""
    if len(PROOFS) < len(STOCK_RULE_SETS):
        pytest.skip("run with the whole module")
    assert sum(PROOFS.values()) >= 30, PROOFS


# Deals whose Python proof or win is small (data/winnability.csv), per configuration.
DEALS_BY_CONFIG = {
    ("easthaven", ""): [(1, "unwinnable"), (2, "unwinnable"), (4, "unwinnable")],
    ("easthaven-open", ""): [(143, "winnable"), (467, "winnable")],
    ("easthaven-suit", ""): [(1, "unwinnable"), (2, "unwinnable")],
    ("westcliff", ""): [(1, "winnable"), (2, "winnable")],
    ("westcliff-classic", ""): [(1, "winnable"), (2, "winnable")],
}


@pytest.mark.parametrize(
    ("preset", "seed", "verdict"),
    [(p, s, v) for (p, _), deals in DEALS_BY_CONFIG.items() for s, v in deals],
)
def test_whole_deals_agree_and_wins_replay(preset, seed, verdict):
    rules = get_rules(preset)
    deck = deck_from_seed(seed)
    answer = native.solve_state(new_game(rules, deck), time_budget=30)
    assert answer.verdict == verdict
    if verdict == "winnable":
        state, index, error = replay(rules, deck, answer.moves)
        assert error is None and status(state) == WON
        assert answer.length == len(answer.moves)
    else:
        assert answer.moves == []
        # The Python search proves the same with the same count (PyPy's in the CSV).
        assert answer.nodes == python_proof_nodes(new_game(rules, deck), 100_000)


# Westcliff-classic deals the Python search proves lost in 70-160 thousand positions.
@pytest.mark.parametrize("seed", [445, 1710, 1648])
def test_stock_plays_prove_the_same_losses_with_fewer_positions(seed):
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(seed))
    plain = native.solve_state(state, time_budget=60, stock_plays=False)
    answer = native.solve_state(state, time_budget=60)
    assert plain.verdict == answer.verdict == "unwinnable"
    assert plain.nodes == python_proof_nodes(state, 200_000)
    assert answer.nodes < plain.nodes


@pytest.mark.parametrize("seed", range(1, 9))
def test_stock_plays_win_what_the_plain_search_wins(seed):
    """Westcliff-classic's first deals (all winnable): the wins replay in the engine."""
    rules = get_rules("westcliff-classic")
    deck = deck_from_seed(seed)
    plain = native.solve_state(new_game(rules, deck), 30, stock_plays=False)
    answer = native.solve_state(new_game(rules, deck), 30)
    assert answer.verdict == plain.verdict
    if answer.verdict == "winnable":
        state, _, error = replay(rules, deck, answer.moves)
        assert error is None and status(state) == WON


def test_a_node_budget_gives_unknown():
    state = new_game(get_rules("easthaven"), deck_from_seed(2))  # a 26,490-position proof
    answer = native.solve_state(state, time_budget=30, node_budget=1000)
    assert answer.verdict == "unknown" and answer.nodes == 1000 and not answer.memory


def test_the_memory_limit_gives_unknown_flagged():
    state = new_game(get_rules("easthaven-open"), deck_from_seed(432))  # millions of positions
    answer = native.solve_state(state, time_budget=60, memory_mb=1)
    assert answer.verdict == "unknown" and answer.memory


def test_the_time_budget_gives_unknown():
    state = new_game(get_rules("easthaven-open"), deck_from_seed(432))
    answer = native.solve_state(state, time_budget=0.2)
    assert answer.verdict == "unknown" and not answer.memory
    assert answer.seconds < 5


def test_the_request_names_only_what_the_rules_decide():
    state = new_game(get_rules("westcliff-classic", {"partial_runs": True}), deck_from_seed(5))
    numbers = list(map(int, native.request_line(state, 1000).split()))
    assert numbers[:12] == [native.PROTOCOL, 7, 1, 0, 1, 0, 1, 0, 0, 1000, 0, 0]
    # Then seven columns of three cards, the foundations, the stock of 31, an empty waste.
    assert len(numbers) == 12 + 7 * (2 + 3) + 4 + (1 + 31) + 1
    plain = list(map(int, native.request_line(state, 1000, stock_plays=False).split()))
    assert plain[6] == 0 and plain[:6] + plain[7:] == numbers[:6] + numbers[7:]
    best = list(map(int, native.request_line(state, 1000, best_first=True).split()))
    assert best[8] == 1 and best[:8] + best[9:] == numbers[:8] + numbers[9:]
    with pytest.raises(native.NativeError):
        native.request_line(new_game(get_rules("seahaven"), deck_from_seed(5)), 1000)
    assert not native.supports(get_rules("seahaven"))
    assert native.supports(get_rules("easthaven"))


@pytest.mark.parametrize(
    "line",
    [
        "",
        "3 7 1 1 0 1 0 1 0 1000 0 0",  # another protocol version
        "4 11 1 1 0 1 0 1 0 1000 0 0",  # too many columns
        "4 7 1 1 0 1 0 1 3 1000 0 0",  # no search 3
        "4 7 1 1 0 1 0 1 0 1000 0 0 3 0 0 0 0",  # cards missing
        "4 7 x",  # not a number
    ],
)
def test_malformed_requests_are_refused_by_the_prover(line):
    done = subprocess.run(
        [str(native.binary())], input=line + "\n4 7 z\n", capture_output=True, text=True
    )
    assert done.returncode == 0
    answers = done.stdout.splitlines()
    assert answers and all(answer.startswith("error ") for answer in answers)


def test_a_repeated_card_is_refused():
    state = new_game(get_rules("easthaven"), deck_from_seed(1))
    numbers = native.request_line(state, 1000).split()
    numbers[-2] = numbers[-3]  # the stock's last card repeats the one before (waste empty)
    done = subprocess.run(
        [str(native.binary())], input=" ".join(numbers) + "\n", capture_output=True, text=True
    )
    assert done.stdout.startswith("error ")


def test_a_broken_prover_is_an_error_not_a_verdict(monkeypatch, tmp_path):
    state = new_game(get_rules("easthaven"), deck_from_seed(1))
    monkeypatch.setenv("SOLVER_NATIVE", "/bin/false")
    with pytest.raises(native.NativeError):
        native.solve_state(state, time_budget=1)
    monkeypatch.setenv("SOLVER_NATIVE", str(tmp_path / "missing"))
    assert not native.available()
    with pytest.raises(native.NativeError):
        native.solve_state(state, time_budget=1)


def test_a_hung_prover_is_killed_soon_after_its_budget(monkeypatch, tmp_path):
    """A prover that never answers is an error once its budget and a short grace are
    spent, not a request held for a minute."""
    import time

    hung = tmp_path / "hung"
    hung.write_text("#!/bin/sh\nexec sleep 600\n")
    hung.chmod(0o755)
    monkeypatch.setenv("SOLVER_NATIVE", str(hung))
    state = new_game(get_rules("easthaven"), deck_from_seed(1))
    started = time.monotonic()
    with pytest.raises(native.NativeError):
        native.solve_state(state, time_budget=0.5)
    assert time.monotonic() - started < 0.5 + native.hang_grace(0.5) + 5
    assert native.hang_grace(0.5) < 3 and native.hang_grace(600) == 60


def test_a_wrong_win_is_caught_by_the_engine(monkeypatch, tmp_path):
    """A prover that claims a win with a path that does not win is a SolverBug."""
    from games.solver import SolverBug

    fake = tmp_path / "liar"
    fake.write_text("#!/bin/sh\nread line\necho won 1 0 0 40 40 0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("SOLVER_NATIVE", str(fake))
    with pytest.raises(SolverBug):
        native.solve_state(new_game(get_rules("easthaven"), deck_from_seed(1)), time_budget=1)


def test_the_provers_own_unit_tests_pass(tmp_path):
    """``cargo test`` in native/ (the key set's exactness through growth, compact keys
    paired one to one with full keys), in a build
    directory of the test's own."""
    cargo = shutil.which("cargo") or str(Path.home() / ".cargo/bin/cargo")
    if not Path(cargo).exists():
        if os.environ.get("CI") == "true":
            pytest.fail("cargo is needed for the prover's unit tests under CI=true")
        pytest.skip("no cargo")
    done = subprocess.run(
        [cargo, "test", "--quiet", "--manifest-path", str(NATIVE / "Cargo.toml")],
        env={**os.environ, "CARGO_TARGET_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "test result: ok" in done.stdout


# Lost deals of each family (data/winnability.csv: proofs of 1,766 to 647,421 positions).
BEST_FIRST_PROOFS = [
    ("easthaven", {}, 1),
    ("easthaven", {}, 63),
    ("easthaven-open", {"partial_runs": True}, 3),
    ("westcliff-classic", {}, 3),
    ("westcliff-classic", {}, 445),
]


@pytest.mark.parametrize("preset,options,seed", BEST_FIRST_PROOFS)
def test_best_first_proves_the_same_losses_with_the_same_positions(preset, options, seed):
    """The best-first search expands every position the depth-first one does, in another
    order: an exhausted queue is the same proof, over exactly as many positions."""
    state = new_game(get_rules(preset, options), deck_from_seed(seed))
    depth_first = native.solve_state(state, time_budget=60)
    best_first = native.solve_state(state, time_budget=60, best_first=True)
    assert depth_first.verdict == best_first.verdict == "unwinnable"
    assert best_first.nodes == depth_first.nodes


def test_best_first_wins_what_the_depth_first_search_misses():
    """westcliff-classic 797: the depth-first search was still undecided after 300 s and
    100 million positions (data/winnability.csv, 2026-12-03); the best-first search wins
    it in about 360k.  Its win is replayed by the engine (``solve_state`` verifies)."""
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(797))
    won = native.solve_state(state, time_budget=60, node_budget=1_000_000, best_first=True)
    assert won.verdict == "winnable"
    final, _, error = replay(get_rules("westcliff-classic"), deck_from_seed(797), won.moves)
    assert error is None and status(final) == WON
    assert 100 < len(won.moves) < 200  # a line a player could follow, not a wander
    missed = native.solve_state(state, time_budget=60, node_budget=1_000_000)
    assert missed.verdict == "unknown"


def test_best_first_forgets_at_its_memory_limit_and_still_wins():
    # In 48 MB the search without forgetting stopped after 209k positions; forgetting
    # all but each queue's best positions, it goes on and wins (806k positions), with a
    # line from the start that the engine replays.
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(797))
    won = native.solve_state(state, time_budget=120, memory_mb=48, best_first=True)
    assert won.verdict == "winnable" and won.nodes > 300_000
    final, _, error = replay(get_rules("westcliff-classic"), deck_from_seed(797), won.moves)
    assert error is None and status(final) == WON


def test_best_first_that_forgot_proves_nothing():
    # A lost deal (125,367 positions): in 32 MB the queues run dry, a proof; in 24 MB the
    # search forgets (without forgetting it stopped at 73,728 positions), searches on,
    # and ends unknown, flagged as memory, never lost: positions were dropped unsearched.
    state = new_game(get_rules("easthaven-suit"), deck_from_seed(167))
    proof = native.solve_state(state, time_budget=60, memory_mb=32, best_first=True)
    assert proof.verdict == "unwinnable" and proof.nodes == 125_367
    forgot = native.solve_state(state, time_budget=60, memory_mb=24, best_first=True)
    assert forgot.verdict == "unknown" and forgot.memory
    assert forgot.nodes > 80_000


def test_best_first_stops_at_its_limits():
    state = new_game(get_rules("westcliff-classic"), deck_from_seed(16))
    by_nodes = native.solve_state(state, time_budget=60, node_budget=5000, best_first=True)
    assert by_nodes.verdict == "unknown" and not by_nodes.memory
    assert by_nodes.nodes == 5000
    by_memory = native.solve_state(state, time_budget=60, memory_mb=8, best_first=True)
    assert by_memory.verdict == "unknown" and by_memory.memory
