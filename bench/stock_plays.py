"""Stock plays (``docs/solver/stock-plays.md``) against the prover's plain search, on
westcliff-classic deals both prove lost, timed in one run.

    .venv/bin/python bench/stock_plays.py
    .venv/bin/python bench/stock_plays.py --seeds 656,1034 --repeat 2

Prints, per deal, the positions and seconds of each search and their ratios (plain over
stock plays).  Both must prove the deal lost, and the stock plays with at most as many
positions (every position they store, the plain search stores too); the script stops
otherwise.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from prover import native_proof  # noqa: E402

#: Lost westcliff-classic deals, proofs of 0.1-10 million positions (data/winnability.csv).
SEEDS = [1710, 1648, 67, 656, 1297, 1777, 881, 1034]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    args = parser.parse_args()
    from games.solver import native

    if not native.available():
        sys.exit("the native prover is not built: make native")
    print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, westcliff-classic")
    print("| seed | positions, plain | with stock plays | ratio | seconds, plain | with | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    node_ratios, time_ratios = [], []
    for seed in map(int, args.seeds.split(",")):
        runs = {
            plays: min(
                (native_proof("westcliff-classic", seed, plays) for _ in range(args.repeat)),
                key=lambda r: r["seconds"],
            )
            for plays in (False, True)
        }
        plain, reduced = runs[False], runs[True]
        if plain["won"] or reduced["won"] or reduced["nodes"] > plain["nodes"]:
            sys.exit(f"seed {seed}: not the same proof: plain {plain}, stock plays {reduced}")
        node_ratios.append(plain["nodes"] / reduced["nodes"])
        time_ratios.append(plain["seconds"] / reduced["seconds"])
        print(
            f"| {seed} | {plain['nodes']:,} | {reduced['nodes']:,} | {node_ratios[-1]:.2f}× | "
            f"{plain['seconds']:.1f} | {reduced['seconds']:.1f} | {time_ratios[-1]:.2f}× |"
        )
    for name, ratios in (("positions", node_ratios), ("seconds", time_ratios)):
        ratios.sort()
        print(
            f"{name}: median {ratios[len(ratios) // 2]:.2f}×, "
            f"range {ratios[0]:.2f}-{ratios[-1]:.2f}×"
        )


if __name__ == "__main__":
    main()
