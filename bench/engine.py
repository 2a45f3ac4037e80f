"""Engine benchmark: legal-move generation and move application on random playouts.

    .venv/bin/python bench/engine.py            # all presets, 20 seeds each
    .venv/bin/python bench/engine.py --seeds 5  # quicker

For every preset, random games are played on fixed seeds (deck seeds 1 … N, the same play
seed per deck) and every position reached and every move chosen is recorded.  Then, timed
separately and best of seven rounds taken in turns:

* ``legal_moves(state)`` over every recorded position (generations per second);
* ``apply_move(state, move)`` over every recorded (position, move) pair (moves per second);
* a baseline measured in the same run on the same positions: building a ``State`` from the
  fields of the position (what the cheapest conceivable ``apply_move`` must at least do),
  so that figures from machines of different speed compare as ratios;
* the naive reference implementation (tests/conformance/reference.py) generating the legal
  moves of a sample of the same positions by brute force, for scale.

Times are the process's CPU time (``time.process_time``), not wall time: on a machine shared
with other work, time spent waiting for a core would otherwise count.  The output is a
Markdown table, ready for bench/README.md.  No Django, no database.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import (  # noqa: E402
    PRESETS,
    State,
    apply_move,
    deck_from_seed,
    get_rules,
    legal_moves,
    new_game,
    state_to_json,
)


def out(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def choose(rnd: random.Random, moves):
    """Random play that gets somewhere: foundation moves first, deals last."""
    found = [m for m in moves if m.dst == "f"]
    if found and rnd.random() < 0.6:
        return rnd.choice(found)
    others = [m for m in moves if m.type != "deal"]
    if others and rnd.random() < 0.85:
        return rnd.choice(others)
    return rnd.choice(moves)


def record(preset: str, seeds: int, max_moves: int):
    """Positions and (position, move) pairs of random games on deck seeds 1 … ``seeds``."""
    rules = get_rules(preset)
    states, pairs = [], []
    for seed in range(1, seeds + 1):
        rnd = random.Random(seed)
        state = new_game(rules, deck_from_seed(seed))
        for _ in range(max_moves):
            states.append(state)
            moves = legal_moves(state)
            if not moves:
                break
            move = choose(rnd, moves)
            pairs.append((state, move))
            state = apply_move(state, move)
    return states, pairs


def best_rate(fn, items, rounds: int = 1) -> float:
    """Items per second, best of ``rounds``."""
    return best_rates([(fn, items)], rounds)[0]


def best_rates(jobs, rounds: int) -> list[float]:
    """Items per second of each ``(fn, items)``, best of ``rounds``; the jobs take turns
    within each round, so a neighbour's load on a shared machine hits all of them alike."""
    best = [float("inf")] * len(jobs)
    for _ in range(rounds):
        for k, (fn, items) in enumerate(jobs):
            start = time.process_time()
            fn(items)
            best[k] = min(best[k], time.process_time() - start)
    return [len(items) / t for (_, items), t in zip(jobs, best, strict=True)]


def run_legal(states):
    for s in states:
        legal_moves(s)


def run_apply(pairs):
    for s, m in pairs:
        apply_move(s, m)


def run_baseline(states):
    for s in states:
        State(s.rules, s.cols, s.down, s.found, s.cells, s.stock, s.waste)


def reference_rate(preset: str, states, sample: int) -> float:
    sys.path.insert(0, str(ROOT / "tests"))
    from conformance.reference import Game

    step = max(1, len(states) // sample)
    games = [Game.from_snapshot(preset, state_to_json(s), s.rules.options) for s in states[::step]]

    def run(items):
        for g in items:
            g.legal_moves()

    return best_rate(run, games, rounds=2)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="deck seeds per preset")
    parser.add_argument("--max-moves", type=int, default=200, help="moves per game at most")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (best counts)")
    parser.add_argument(
        "--reference-sample", type=int, default=150, help="positions for the reference"
    )
    args = parser.parse_args()

    out(f"# Engine benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    out(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{cpu_model()} × {os.cpu_count()}, {platform.system()} {platform.release()}, "
        f"load average {load}; {args.seeds} seeds × ≤ {args.max_moves} moves per preset"
    )
    out()
    out(
        "| preset | positions | legal_moves/s | apply_move/s | baseline State()/s "
        "| baseline ÷ legal | baseline ÷ apply | reference legal/s | engine ÷ reference |"
    )
    out("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for preset in PRESETS:
        states, pairs = record(preset, args.seeds, args.max_moves)
        legal, applied, baseline = best_rates(
            [(run_legal, states), (run_apply, pairs), (run_baseline, states)], args.rounds
        )
        ref = reference_rate(preset, states, args.reference_sample)
        out(
            f"| {preset} | {len(states)} | {legal:,.0f} | {applied:,.0f} | {baseline:,.0f} "
            f"| {baseline / legal:.1f} | {baseline / applied:.1f} | {ref:,.0f} "
            f"| {legal / ref:.0f}× |"
        )


if __name__ == "__main__":
    main()
