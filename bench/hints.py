"""Hint latency: what ``POST /api/v1/plays/{id}/hint`` spends answering an uncached position.

    DATABASE_URL=postgres://... .venv/bin/python bench/hints.py            # 10 seeds a preset
    .venv/bin/python bench/hints.py --seeds 1-20 --steps 0,5,20,40

Per preset, positions are the opening deal of each seed and the positions after ``steps``
random legal moves from it (a seeded random player: many such positions are lost, as a
careless player's are).  Each is answered by :func:`games.winnability.hints.cached_or_solved`
(the solve within ``HINT_BUDGET_SECONDS``, the winning line stored for its positions) with
the cache and the stored answers emptied first, so every figure is a cache miss, the
slowest case.  Printed per preset: answers by kind and the wall seconds' p50 / p95 / max
(target: p95 under 2 s on every preset).  The stored answers are deleted at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A developer's machine: make run's secrets (docs/secrets-and-names.md).
    os.environ.setdefault("HAVEN_LOCAL", "1")
    import django

    django.setup()


def positions(preset: str, seeds: list[int], steps: list[int]):
    from games import engine

    rules = engine.get_rules(preset)
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_game(rules, engine.deck_from_seed(seed))
        done = 0
        for target in sorted(steps):
            while done < target and engine.status(state) == engine.PLAYING:
                state = engine.apply_move(state, rng.choice(engine.legal_moves(state)))
                done += 1
            if engine.status(state) == engine.PLAYING:
                yield seed, done, state


def nearest_rank(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[max(1, -(-p * len(ordered) // 100)) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-10")
    parser.add_argument("--steps", default="0,5,20")
    args = parser.parse_args()
    _setup()
    from django.core.cache import cache

    from games import engine
    from games.solver.cli import parse_ranges
    from games.winnability import hints
    from games.winnability.models import HintAnswer

    seeds = parse_ranges(args.seeds, "seeds", 0, 2**63 - 1)
    steps = [int(s) for s in args.steps.split(",")]
    print(
        f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; HINT_BUDGET_SECONDS "
        f"{hints.budget():g}; seeds {args.seeds}, after {args.steps} random moves"
    )
    every = []
    try:
        for preset in engine.PRESETS:
            times, kinds = [], {}
            for _seed, _done, state in positions(preset, seeds, steps):
                cache.clear()
                HintAnswer.objects.all().delete()
                started = time.perf_counter()
                answer, cached = hints.cached_or_solved(state)
                times.append(time.perf_counter() - started)
                assert not cached
                kinds[answer["result"]] = kinds.get(answer["result"], 0) + 1
            every += times
            print(
                f"{preset}: {len(times)} positions {kinds}; s p50 {nearest_rank(times, 50):.3f}"
                f" p95 {nearest_rank(times, 95):.3f} max {max(times):.3f}",
                flush=True,
            )
    finally:
        HintAnswer.objects.all().delete()
        cache.clear()
    print(f"all: p95 {nearest_rank(every, 95):.3f} s, max {max(every):.3f} s")


if __name__ == "__main__":
    main()
