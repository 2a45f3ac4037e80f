"""Solver benchmark: decided share, winnable share vs published figures, fc-solve side by side.

    .venv/bin/python bench/solver.py                       # 1000 seeds per configuration
    .venv/bin/python bench/solver.py --limit 200 --jobs 2  # the first 200 seeds
    .venv/bin/python bench/solver.py --configs seahaven+classic_supermove --fcs 200
    .venv/bin/python bench/solver.py --limit 0 --fcs 100   # only the fc-solve comparison

Per configuration (preset + options) it solves seeds ``--seeds`` (default 1-1000, cut to
``--limit``) with ``--budget`` seconds each (no shortening: deciding is what is measured)
and prints the counts, the share decided within the budget (target ≥ 99.9 %), the winnable
share of the decided deals with its 95 % Wilson interval, and, where the rules match a
published study, that study's interval and whether the two overlap.

``--fcs N`` compares with fc-solve (Debian ``freecell-solver-bin``) on PySolFC Seahaven
deals 1…N under classic supermove (fc-solve's Seahaven): fc-solve first runs its default
(fast, not exhaustive) scan; when that does not solve the board it runs the exhaustive
atomic-move scan ``-to 01ABCDE -sel`` (atomic moves through cells reach exactly the
positions classic supermove reaches), whose "could not solve" is a proof and whose
"iterations exceeded" or timeout is undecided.  Verdicts must agree wherever both decide;
the mean time per deal is printed as a ratio ours / fc-solve.

Raw records go to ``--out`` (JSON lines) when given.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.solver.cli import CONFIGS, parse_ranges, results, solve_task, wilson  # noqa: E402
from games.solver.worker import interpreter_name  # noqa: E402

#: Published winnable shares (95 % interval, as fractions) where the rules match.
PUBLISHED = {
    # Blake & Gent, 10^7 deals, Solvitaire: 89.332 % ± 0.020 %.
    "seahaven+classic_supermove": (0.89312, 0.89352, "Blake & Gent 2019 (10^7 deals)"),
    # Blake & Gent, Easthaven as PySolFC plays it (foundation cards may come back there,
    # never here: ours may be slightly lower).  ~82.8 %; their interval is narrower than ours.
    "easthaven-open+partial_runs": (0.8270, 0.8290, "Blake & Gent 2019 (~82.8 %)"),
}


def _split(config: str) -> tuple[str, dict[str, bool]]:
    preset, *options = config.split("+")
    return preset, {o: True for o in options}


def run_config(
    config: str,
    seeds: list[int],
    budget: float,
    jobs: int,
    out,
    workers: int = 1,
    python: str | None = None,
) -> dict:
    preset, options = _split(config)
    settings = {
        "preset": preset,
        "options": options,
        "budget": budget,
        "nodes": None,
        "shorten": False,
        "workers": workers,
    }
    records = []
    started = time.perf_counter()
    for record in results([("seed", s) for s in seeds], settings, jobs, python):
        records.append(record)
        _dump(out, config, record)
    wall = time.perf_counter() - started
    return _report(config, records, budget, wall)


def _dump(out, config, record):
    if out is not None:
        slim = {k: v for k, v in record.items() if k not in ("moves", "deck")}
        out.write(json.dumps({"config": config, **slim}) + "\n")
        out.flush()


def _report(config: str, records: list[dict], budget: float, wall: float) -> dict:
    n = len(records)
    w = sum(r["verdict"] == "winnable" for r in records)
    u = sum(r["verdict"] == "unwinnable" for r in records)
    k = n - w - u
    secs = [r["seconds"] for r in records]
    lo, hi = wilson(w, w + u)
    row = {
        "config": config,
        "deals": n,
        "winnable": w,
        "unwinnable": u,
        "unknown": k,
        "decided": (w + u) / n if n else 0.0,
        "share": w / (w + u) if w + u else None,
        "ci": (lo, hi),
        "mean_s": statistics.fmean(secs) if secs else 0.0,
        "median_s": statistics.median(secs) if secs else 0.0,
        "max_s": max(secs) if secs else 0.0,
        "wall_s": wall,
    }
    pub = PUBLISHED.get(config)
    line = (
        f"{config:30s} n={n:4d}  W {w:4d}  U {u:4d}  ? {k:3d}  decided {100 * row['decided']:6.2f}%"
        f" (target 99.9%: {'met' if row['decided'] >= 0.999 else 'missed'})"
    )
    if row["share"] is not None:
        line += f"  winnable {100 * row['share']:6.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"
    if pub:
        overlap = row["share"] is not None and lo <= pub[1] and pub[0] <= hi
        line += (
            f"  published [{100 * pub[0]:.3f}, {100 * pub[1]:.3f}] {pub[2]}: "
            f"{'overlaps' if overlap else 'NO overlap'}"
        )
        row["published_overlap"] = overlap
    line += f"  s/deal mean {row['mean_s']:.3f} median {row['median_s']:.3f} max {row['max_s']:.2f}"
    print(line, flush=True)
    return row


# --- fc-solve ----------------------------------------------------------------------------------


def pysol_board(number: int) -> str:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    game = Game("seahaven", number, RandomBase.DEALS_PYSOLFC)
    return game.calc_layout_string(CardRenderer(True))


def fcs_solve(board: str, budget: float, fcs: str = "fc-solve") -> tuple[str, float]:
    """fc-solve's verdict on a Seahaven board and its wall time."""
    started = time.perf_counter()
    left = budget
    for args in (["-g", "seahaven"], ["-g", "seahaven", "-sel", "-to", "01ABCDE"]):
        try:
            proc = subprocess.run(
                [fcs, *args, "-"],
                input=board,
                capture_output=True,
                text=True,
                timeout=max(left, 0.01),
            )
        except subprocess.TimeoutExpired:
            return "unknown", time.perf_counter() - started
        text = proc.stdout
        if "This game is solveable" in text:
            return "winnable", time.perf_counter() - started
        left = budget - (time.perf_counter() - started)
        if "-to" in args:
            if "Iterations count exceeded" in text:
                return "unknown", time.perf_counter() - started
            if "I could not solve" in text:
                return "unwinnable", time.perf_counter() - started
            return "unknown", time.perf_counter() - started
    return "unknown", time.perf_counter() - started


def _fcs_work(item):
    number, budget = item
    ours = solve_task(
        ("pysol", number),
        {
            "preset": "seahaven",
            "options": {"classic_supermove": True},
            "budget": budget,
            "nodes": None,
            "shorten": False,
        },
    )
    verdict, seconds = fcs_solve(pysol_board(number), budget)
    return number, ours["verdict"], ours["seconds"], verdict, seconds


def run_fcs(count: int, budget: float, jobs: int, out) -> dict:
    if not shutil.which("fc-solve"):
        print("fc-solve: not installed (apt-get install -y freecell-solver-bin); skipped")
        return {}
    items = [(n, budget) for n in range(1, count + 1)]
    rows = []
    with multiprocessing.get_context("spawn").Pool(max(jobs, 1)) as pool:
        for row in pool.imap_unordered(_fcs_work, items, chunksize=1):
            rows.append(row)
            if out is not None:
                keys = ("pysol_deal", "ours", "ours_s", "fcs", "fcs_s")
                out.write(json.dumps({"config": "fc-solve", **dict(zip(keys, row))}) + "\n")
                out.flush()
    both = [r for r in rows if r[1] != "unknown" and r[3] != "unknown"]
    disagree = [r for r in both if r[1] != r[3]]
    ours_mean = statistics.fmean(r[2] for r in rows)
    fcs_mean = statistics.fmean(r[4] for r in rows)
    ours_dec = sum(r[1] != "unknown" for r in rows)
    fcs_dec = sum(r[3] != "unknown" for r in rows)
    print(
        f"fc-solve on PySol Seahaven 1-{count} (classic supermove): both decided {len(both)}, "
        f"disagreements {len(disagree)} {sorted(r[0] for r in disagree)}; decided: ours "
        f"{ours_dec}, fc-solve {fcs_dec}; mean s/deal ours {ours_mean:.3f}, fc-solve "
        f"{fcs_mean:.3f}, ratio ours/fc-solve {ours_mean / fcs_mean:.2f}",
        flush=True,
    )
    return {
        "both": len(both),
        "disagree": [r[0] for r in disagree],
        "ours_mean": ours_mean,
        "fcs_mean": fcs_mean,
        "ratio": ours_mean / fcs_mean,
    }


def _commit() -> str:
    """The checkout's commit (with ``+changes`` when the tree differs from it), so that
    recorded figures name the code they measured; ``unknown`` outside a git checkout."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
        if done.returncode:
            raise OSError(done.stderr)
        return done.stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except OSError:
        return "unknown"
    return head + ("+changes" if dirty else "")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma list preset+option")
    parser.add_argument("--seeds", default="1-1000")
    parser.add_argument("--limit", type=int, default=None, help="only the first N seeds")
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2, help="deals solved at once")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes per deal (2: a racing DFS beside)"
    )
    parser.add_argument(
        "--python",
        default=None,
        help="solve in worker processes of this interpreter (e.g. pypy3); fc-solve's side "
        "by side stays in this one",
    )
    parser.add_argument("--fcs", type=int, default=1000, help="PySol deals for fc-solve (0: no)")
    parser.add_argument("--out", default=None, help="raw records as JSON lines")
    args = parser.parse_args(argv)
    seeds = parse_ranges(args.seeds, "seeds", 0, 2**63 - 1)
    if args.limit is not None:
        seeds = seeds[: args.limit]
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    solver_python = interpreter_name()
    if args.python:
        from games.solver.external import Workers

        with Workers(args.python) as probe:
            solver_python = probe.name
    print(
        f"# solver bench {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
        f"commit {_commit()}, {os.cpu_count()} cores, {interpreter_name()}, "
        f"solver on {solver_python}, "
        f"budget {args.budget}s, {len(seeds)} seeds per configuration, jobs {args.jobs}, "
        f"workers {args.workers}",
        flush=True,
    )
    if seeds:
        for config in [c for c in args.configs.split(",") if c]:
            run_config(config, seeds, args.budget, args.jobs, out, args.workers, args.python)
    if args.fcs:
        run_fcs(args.fcs, args.budget, args.jobs, out)
    if out is not None:
        out.close()


if __name__ == "__main__":
    main()
