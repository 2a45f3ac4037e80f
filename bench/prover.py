"""The native prover against the Python search it ports: the same proofs, timed in one run.

    .venv/bin/python bench/prover.py                        # the default deals, PyPy
    .venv/bin/python bench/prover.py --python python3 --repeat 3

A proof visits every reachable settled position whatever the order, so the Python
depth-first search (:meth:`games.solver.core.Search.first_solution`, in a ``--python``
process: PyPy by default, the solver's worker interpreter) and the prover
(:mod:`games.solver.native`) must visit the same number of positions on a lost deal; the
script checks that, and prints for each deal the positions, both times (best of
``--repeat``, the prover's including its process start) and their ratio.  Ratios, not
seconds, are what to compare between runs: the machines here are noisy.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

#: Lost deals with proofs of 26k-1.5M positions (data/winnability.csv), per configuration.
DEALS = [
    ("easthaven", 2),
    ("easthaven", 9),
    ("easthaven", 30),
    ("easthaven-open", 198),
    ("easthaven-suit", 167),
    ("westcliff-classic", 87),
]

PYTHON_SIDE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from games.engine import deck_from_seed, get_rules, new_game
from games.solver.core import Search
preset, seed = sys.argv[2], int(sys.argv[3])
state = new_game(get_rules(preset), deck_from_seed(seed))
search = Search(state)
started = time.perf_counter()
path = search.first_solution(10**9, float("inf"))
print(json.dumps({"seconds": time.perf_counter() - started, "nodes": search.nodes,
                  "won": path is not None}))
"""


def python_proof(python: str, preset: str, seed: int) -> dict:
    done = subprocess.run(
        [python, "-c", PYTHON_SIDE, ROOT, preset, str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def native_proof(preset: str, seed: int, stock_plays: bool = False) -> dict:
    """The prover's search of the deal; without stock plays by default, the Python
    search's graph (``docs/solver/stock-plays.md``)."""
    from games.engine import deck_from_seed, get_rules, new_game
    from games.solver import native

    state = new_game(get_rules(preset), deck_from_seed(seed))
    started = time.perf_counter()
    answer = native.solve_state(state, time_budget=600, stock_plays=stock_plays)
    return {
        "seconds": time.perf_counter() - started,
        "nodes": answer.nodes,
        "won": answer.verdict == "winnable",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", default="pypy3", help="the Python search's interpreter")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    args = parser.parse_args()
    from games.solver import native

    if not native.available():
        sys.exit("the native prover is not built: make native")
    print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python side: {args.python}")
    print("| deal | positions | Python s | native s | ratio |")
    print("|---|---:|---:|---:|---:|")
    ratios = []
    for preset, seed in DEALS:
        slow = min(
            (python_proof(args.python, preset, seed) for _ in range(args.repeat)),
            key=lambda r: r["seconds"],
        )
        fast = min(
            (native_proof(preset, seed) for _ in range(args.repeat)), key=lambda r: r["seconds"]
        )
        if slow["won"] or fast["won"] or slow["nodes"] != fast["nodes"]:
            sys.exit(f"{preset} {seed}: not the same proof: python {slow}, native {fast}")
        ratio = slow["seconds"] / fast["seconds"]
        ratios.append(ratio)
        print(
            f"| {preset} {seed} | {fast['nodes']:,} | {slow['seconds']:.2f} | "
            f"{fast['seconds']:.3f} | {ratio:.0f}× |"
        )
    ratios.sort()
    print(f"median ratio {ratios[len(ratios) // 2]:.0f}×, range {ratios[0]:.0f}-{ratios[-1]:.0f}×")


if __name__ == "__main__":
    main()
