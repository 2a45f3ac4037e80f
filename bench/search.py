"""Search benchmark: positions and CPU time of the solver's searches on node budgets.

    .venv/bin/python bench/search.py                         # this checkout's solver
    pypy3 bench/search.py --root /tmp/base --rounds 3        # another checkout's, on PyPy

Per configuration it solves deck seeds ``--seeds`` on ``--nodes`` positions each, with no
time budget (so the counts do not depend on the machine's speed), in two ways: the
service's first search (:func:`games.solver.solve` without shortening: best-first with
the dives beside it) and the plain depth-first search (``Search.first_solution``).  It
prints, per configuration and search, the verdicts, the positions in all (identical for
two versions of the solver that search the same graph in the same order) and the
process's CPU time, best of ``--rounds``.  ``--root`` imports ``games`` from another
checkout, so that two versions compare in one session, round by round.  Engine and
solver only: no Django.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

CONFIGS = (
    "easthaven",
    "easthaven-open+partial_runs",
    "westcliff-classic",
    "seahaven+classic_supermove",
)

LABELS = {"winnable": "won", "unwinnable": "lost", "unknown": "open"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(__file__)) or ".")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--seeds", type=int, default=10, help="deck seeds 1…N")
    parser.add_argument("--nodes", type=int, default=20_000, help="positions per deal")
    parser.add_argument("--rounds", type=int, default=1, help="timed rounds (best counts)")
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.root))
    import gc

    from games.engine import deck_from_seed, get_rules, new_game
    from games.solver import solve
    from games.solver.core import OutOfBudget, Search

    gc.disable()  # as solve_state does: the searches keep no cycles
    interpreter = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"# {interpreter}, {args.root}, seeds 1-{args.seeds}, {args.nodes} positions each")
    for config in args.configs.split(","):
        preset, *options = config.split("+")
        rules = get_rules(preset, {name: True for name in options})
        decks = [deck_from_seed(seed) for seed in range(1, args.seeds + 1)]
        for name in ("first", "dfs"):
            best = float("inf")
            for _ in range(args.rounds):
                verdicts: dict[str, int] = {}
                positions = 0
                started = time.process_time()
                for deck in decks:
                    if name == "first":
                        result = solve(rules, deck, None, args.nodes, shorten=False)
                        verdict, nodes = result.verdict, result.nodes
                    else:
                        search = Search(new_game(rules, deck))
                        try:
                            won = search.first_solution(args.nodes, float("inf"))
                            verdict = "winnable" if won is not None else "unwinnable"
                        except OutOfBudget:
                            verdict = "unknown"
                        nodes = search.nodes
                    verdicts[verdict] = verdicts.get(verdict, 0) + 1
                    positions += nodes
                best = min(best, time.process_time() - started)
            counts = " ".join(f"{LABELS[v]} {n}" for v, n in sorted(verdicts.items()))
            print(
                f"{config:30} {name:5} {counts:20} positions {positions:8} "
                f"cpu {best:7.3f}s  {positions / best:9.0f}/s",
                flush=True,
            )


if __name__ == "__main__":
    main()
