"""The prover's layered search against its depth-first search: the same proofs, their
time and their peak memory, measured in one run.

    .venv/bin/python bench/layered.py                    # the default deals
    .venv/bin/python bench/layered.py --open 60          # and an open deal for 60 s each
    .venv/bin/python bench/layered.py --threads 2        # and the layered search on 2 threads
    .venv/bin/python bench/layered.py --baseline OLD --deals westcliff-classic:1473
                                                         # the build against another binary

Both searches must prove each deal lost over exactly as many positions (the same graph,
``docs/solver/layered.md``); the script checks that and prints, per deal, the positions,
both times and both peak resident sizes (the prover process's own, from ``wait4``), with
the ratios layered ÷ depth-first.  Ratios, not seconds, are what to compare between runs:
the machines here are noisy.  ``--open S`` adds westcliff-classic 16 (undecided at 900 s)
searched for S seconds by each: positions reached and memory at the same time.
``--threads N`` also runs the layered search with ``HAVEN_PROVER_THREADS=N`` and prints
its wall time as a ratio of the one-thread layered search's (same positions, checked).
``--baseline BINARY`` instead times the layered search of another prover binary (an older
build) and of this build on the same deals, side by side, and checks that both
count the same positions: a change of speed alone.  ``--deals`` names other deals
(``preset:seed,...``); proofs of 50 million positions or more are where the key set's
tables outgrow the caches.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

#: Lost deals (data/winnability.csv): proofs of 0.6 to 12 million positions.
DEALS = [
    ("easthaven", 63),
    ("easthaven-suit", 167),
    ("westcliff-classic", 881),
    ("westcliff-classic", 656),
    ("westcliff-classic", 1177),
    ("westcliff-classic", 633),
]


def run(
    preset: str,
    seed: int,
    layered: bool,
    seconds: float,
    threads: int = 1,
    binary: str | None = None,
) -> dict:
    """One prover process on the deal: its answer, wall seconds and peak RSS in MB."""
    from games.engine import deck_from_seed, get_rules, new_game
    from games.solver import native

    state = new_game(get_rules(preset), deck_from_seed(seed))
    line = native.request_line(state, int(seconds * 1000), None, 16000, layered=layered)
    binary = binary or native.binary()
    assert binary is not None
    started = time.perf_counter()
    env = {**os.environ, "HAVEN_PROVER_THREADS": str(threads)}
    child = subprocess.Popen(
        [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(line + "\n")
    child.stdin.close()
    out = child.stdout.read()
    # wait4, not communicate(): the child's own peak resident size.
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    words = out.split()
    mb = usage.ru_maxrss / 1024
    return {"verdict": words[0], "nodes": int(words[1]), "seconds": wall, "mb": mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--open", type=float, default=0, help="seconds on an open deal")
    parser.add_argument("--threads", type=int, default=1, help="also layered on N threads")
    parser.add_argument("--baseline", help="another prover binary to time against the build")
    parser.add_argument("--deals", help="preset:seed,... instead of the default deals")
    args = parser.parse_args()
    from games.solver import native

    if not native.available():
        sys.exit("the native prover is not built: make native")
    print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC")
    chosen = DEALS
    if args.deals:
        chosen = [(d.split(":")[0], int(d.split(":")[1])) for d in args.deals.split(",")]
    if args.baseline:
        compare(chosen, args.baseline)
        return
    extra = f" {args.threads} threads s / MB | ÷ one thread |" if args.threads > 1 else ""
    print(
        "| deal | positions | depth-first s / MB | layered s / MB | time ratio | memory ratio |"
        + extra
    )
    print("|---|---:|---:|---:|---:|---:|" + ("---:|---:|" if extra else ""))
    deals = [(preset, seed, 600.0) for preset, seed in chosen]
    if args.open:
        deals.append(("westcliff-classic", 16, args.open))
    for preset, seed, seconds in deals:
        depth = run(preset, seed, False, seconds)
        layer = run(preset, seed, True, seconds)
        if seconds == 600.0 and not (
            depth["verdict"] == layer["verdict"] == "lost" and depth["nodes"] == layer["nodes"]
        ):
            sys.exit(f"{preset} {seed}: not the same proof: {depth} {layer}")
        nodes = (
            f"{depth['nodes']:,}"
            if depth["nodes"] == layer["nodes"]
            else f"{depth['nodes']:,} / {layer['nodes']:,} in {seconds:.0f} s"
        )
        cells = ""
        if args.threads > 1 and seconds == 600.0:
            many = run(preset, seed, True, seconds, args.threads)
            if many["nodes"] != layer["nodes"]:
                sys.exit(f"{preset} {seed}: {args.threads} threads: {many} against {layer}")
            ratio = many["seconds"] / layer["seconds"]
            cells = f" {many['seconds']:.1f} / {many['mb']:.0f} | {ratio:.2f} |"
        elif args.threads > 1:
            cells = " | |"
        print(
            f"| {preset} {seed} | {nodes} | {depth['seconds']:.1f} / {depth['mb']:.0f} | "
            f"{layer['seconds']:.1f} / {layer['mb']:.0f} | "
            f"{layer['seconds'] / depth['seconds']:.2f} | {layer['mb'] / depth['mb']:.2f} |" + cells
        )


def compare(deals: list[tuple[str, int]], baseline: str) -> None:
    """The layered search of ``baseline`` and of the build side by side on each deal: on
    a shared machine both then meet the same load, which one after the other they would
    not."""
    from concurrent.futures import ThreadPoolExecutor

    print("| deal | positions | baseline s / MB | build s / MB | time ratio |")
    print("|---|---:|---:|---:|---:|")
    for preset, seed in deals:
        with ThreadPoolExecutor(2) as pool:
            later_old = pool.submit(run, preset, seed, True, 3600.0, 1, baseline)
            later_new = pool.submit(run, preset, seed, True, 3600.0)
            old, new = later_old.result(), later_new.result()
        if not (old["verdict"] == new["verdict"] and old["nodes"] == new["nodes"]):
            sys.exit(f"{preset} {seed}: not the same search: {old} {new}")
        print(
            f"| {preset} {seed} | {new['nodes']:,} | {old['seconds']:.1f} / {old['mb']:.0f} | "
            f"{new['seconds']:.1f} / {new['mb']:.0f} | {new['seconds'] / old['seconds']:.2f} |"
        )


if __name__ == "__main__":
    main()
