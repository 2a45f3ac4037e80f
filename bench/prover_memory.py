"""How many positions the native prover holds under a memory limit: its bytes a position.

    .venv/bin/python bench/prover_memory.py                      # the built prover
    .venv/bin/python bench/prover_memory.py --memory 1000 OLD_BINARY NEW_BINARY

Runs the depth-first search on deals whose proofs outgrow any limit here (westcliff-classic
16 and 54: undecided at 300 s), each binary in turn, until the limit stops it, and prints
the positions held, the bytes a position and the positions a second.  Give two binaries
(an older build as the baseline) to compare them in one run: ratios, not absolute figures,
are what to compare between runs on these noisy machines.
"""

from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

DEALS = [("westcliff-classic", 16), ("westcliff-classic", 54)]


def main() -> None:
    from games.engine import deck_from_seed, get_rules, new_game
    from games.solver import native

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binaries", nargs="*", help="prover binaries (default: the build)")
    parser.add_argument("--memory", type=int, default=1000, help="MB (default 1000)")
    parser.add_argument("--seconds", type=float, default=600.0, help="time cap per search")
    args = parser.parse_args()
    binaries = args.binaries or [str(native.DEFAULT_BINARY)]
    print(f"memory limit {args.memory} MB")
    print("| deal | binary | stopped by | positions | bytes a position | positions a second |")
    print("|---|---|---|---:|---:|---:|")
    for preset, seed in DEALS:
        state = new_game(get_rules(preset), deck_from_seed(seed))
        for binary in binaries:
            os.environ["SOLVER_NATIVE"] = binary
            result = native.solve_state(state, args.seconds, memory_mb=args.memory)
            stop = "memory" if result.memory else result.verdict
            per = args.memory * 2**20 / max(result.nodes, 1)
            rate = result.nodes / max(result.seconds, 1e-9)
            print(
                f"| {preset} {seed} | {binary} | {stop} | {result.nodes:,} | {per:.0f} "
                f"| {rate:,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
