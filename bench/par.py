"""Par quality: how far from shortest the daily pars are with shortening bounded.

    .venv/bin/python bench/par.py                  # 3 winnable seeds a preset, 1 s vs 12 s
    .venv/bin/python bench/par.py --per-preset 5 --par 1,2 --long 30

The daily par is the winner's solution after ``DAILY_PAR_SECONDS`` of shortening
(``games.daily.search``, "Par").  Branch and bound proves a line shortest only when it runs
to the end, which on a whole deal it rarely does within seconds; so the sample is where an
exhaustive shortest search is feasible: per preset, the first winnable seeds, each from
its opening deal and from the position halfway along its first win (an endgame).  Each
position is solved with each ``--par`` budget of shortening and once with ``--long``
seconds; the rows where the long run proved its line shortest (``optimal``) are the
sample.  Printed per preset: sample size, and for each par budget the mean and largest
excess over the shortest line (moves, and percent), plus how many pars are exact; then
the same against the long run's best line over every position (proven or not).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from games import engine  # noqa: E402
from games.solver import WINNABLE, solve_state  # noqa: E402


def sample(preset: str, count: int):
    """(name, state) pairs: the openings and halfway positions of the first winnable seeds."""
    rules = engine.get_rules(preset)
    found = 0
    for seed in range(1, 400):
        state = engine.new_game(rules, engine.deck_from_seed(seed))
        first = solve_state(state, time_budget=5.0, shorten=False)
        if first.verdict != WINNABLE:
            continue
        yield f"seed {seed}", state
        half = state
        for move in first.moves[: len(first.moves) // 2]:
            half = engine.apply_move(half, engine.Move.from_dict(move))
        yield f"seed {seed} halfway", half
        found += 1
        if found >= count:
            return


def length(state, shorten_seconds: float):
    result = solve_state(state, time_budget=None, node_budget=5_000_000, shorten=True,
                         shorten_budget=shorten_seconds)  # fmt: skip
    return result.length, result.optimal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-preset", type=int, default=3)
    parser.add_argument("--par", default="1")
    parser.add_argument("--long", type=float, default=12.0)
    parser.add_argument("--presets", default=",".join(engine.PRESETS))
    args = parser.parse_args()
    pars = [float(p) for p in args.par.split(",")]
    print(
        f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; par budgets {pars} s, "
        f"long {args.long:g} s, {args.per_preset} winnable seeds a preset"
    )
    for preset in args.presets.split(","):
        rows = []
        started = time.perf_counter()
        for name, state in sample(preset, args.per_preset):
            best, optimal = length(state, args.long)
            bounded = [length(state, p)[0] for p in pars]
            rows.append((name, best, optimal, bounded))
            print(f"  {preset} {name}: long {best}{' (shortest)' if optimal else ''}, "
                  f"par {bounded}", flush=True)  # fmt: skip
        for index, budget in enumerate(pars):
            proven = [(r[3][index], r[1]) for r in rows if r[2]]
            excess = [b - s for b, s in proven]
            against = [(r[3][index] - r[1]) / r[1] for r in rows]
            text = f"{preset} par {budget:g} s: shortest known on {len(proven)} of {len(rows)}"
            if proven:
                share = sum(e / s for e, (_, s) in zip(excess, proven)) / len(proven)
                text += (
                    f"; excess mean {sum(excess) / len(excess):.1f} max {max(excess)} moves "
                    f"(mean {100 * share:.1f} %)"
                    f", exact {sum(e == 0 for e in excess)}"
                )
            mean = 100 * sum(against) / len(against)
            text += (
                f"; vs the {args.long:g} s line on all: mean {mean:+.1f} %"
                f" ({time.perf_counter() - started:.0f} s)"
            )
            print(text, flush=True)


if __name__ == "__main__":
    main()
