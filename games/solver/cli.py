"""The ``solve`` command's logic, free of Django (``manage.py solve`` is a thin wrapper).

``run(argv)`` parses the arguments, solves every deal (in ``--jobs`` spawned worker
processes that import only the pure-Python engine and solver; ``--workers 2`` gives each
deal a second, forked process, see :mod:`games.solver.race`), writes one JSON line per
deal and ends with a summary: counts per verdict, the winnable share with its 95 % Wilson
interval, mean and median seconds.  Bad arguments raise :class:`CliError`, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO

from .external import WorkerError, Workers, same_interpreter
from .protocol import solve_deck
from .race import MAX_WORKERS
from .verdicts import UNKNOWN, UNWINNABLE, WINNABLE

MAX_DEALS = 10_000_000
#: A work item: ``("seed", n)``, ``("pysol", n)`` or ``("deck", cards)``.
Task = tuple[str, Any]
Z95 = 1.959963984540054

#: Every preset with its default options, and the option sets measured besides: the
#: configurations of the winnability tables and of ``bench/solver.py``.
CONFIGS = (
    "easthaven",
    "easthaven-open",
    "easthaven-open+partial_runs",
    "easthaven-suit",
    "westcliff",
    "westcliff-classic",
    "seahaven",
    "seahaven+classic_supermove",
)


class CliError(ValueError):
    """A bad argument: the message says which and why."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # never sys.exit from inside the command logic
        raise CliError(message)


def add_arguments(parser: argparse.ArgumentParser, python: str | None = None) -> None:
    """The command's arguments; ``python`` is ``--python``'s default (``SOLVER_PYTHON``)."""
    parser.add_argument("--preset", required=True, help="easthaven, westcliff, seahaven, ...")
    parser.add_argument(
        "--options", default="", help="comma list of options: partial_runs, classic_supermove"
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--seeds", help="seeds to deal, e.g. 1-1000 or 1,5,7-9")
    source.add_argument("--pysol-deals", dest="pysol_deals", help="PySolFC game numbers")
    source.add_argument("--deck", help="one deck: 52 comma-separated cards, AS,2H,...")
    parser.add_argument("--budget", default="10", help="seconds per deal (default 10)")
    parser.add_argument("--nodes", default=None, help="node budget per deal (default none)")
    parser.add_argument("--jobs", default="1", help="deals solved at once (default 1)")
    parser.add_argument(
        "--workers",
        default="1",
        help="processes per deal (default 1; 2 races a depth-first search beside the main one)",
    )
    parser.add_argument("--out", default="-", help="JSON lines to this file; - for stdout")
    parser.add_argument(
        "--no-shorten", dest="no_shorten", action="store_true", help="keep the first solution"
    )
    parser.add_argument(
        "--python",
        default=python,
        help="solve in worker processes of this interpreter, e.g. pypy3 (default: "
        + (python or "this one")
        + ")",
    )
    parser.add_argument(
        "--no-progress", dest="no_progress", action="store_true", help="no progress bar"
    )


def parse_ranges(text: str, what: str, low: int, high: int) -> list[int]:
    """``"1-3,7"`` → ``[1, 2, 3, 7]``; :class:`CliError` for anything else."""
    numbers: list[int] = []
    if not isinstance(text, str) or not text.strip():
        raise CliError(f"--{what}: give numbers such as 1-1000 or 1,5,7-9")
    for part in text.split(","):
        part = part.strip()
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise CliError(f"--{what}: {part!r} is not a number or a range a-b") from None
        if lo > hi:
            raise CliError(f"--{what}: range {part!r} runs backwards")
        if lo < low or hi > high:
            raise CliError(f"--{what}: {part!r} is outside {low}…{high}")
        if len(numbers) + hi - lo + 1 > MAX_DEALS:
            raise CliError(f"--{what}: at most {MAX_DEALS} deals at once")
        numbers.extend(range(lo, hi + 1))
    return numbers


def _positive(
    text: Any, name: str, kind: Callable[[Any], Any] = float, allow_none: bool = False
) -> Any:
    if text is None and allow_none:
        return None
    try:
        value = kind(text)
    except (TypeError, ValueError):
        raise CliError(f"--{name}: {text!r} is not a {kind.__name__}") from None
    if not (value > 0) or (kind is float and math.isinf(value)):
        raise CliError(f"--{name} must be positive, not {text!r}")
    return value


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Counts per verdict, the winnable share of the decided deals with its 95 % Wilson
    interval, and the mean and median seconds."""
    counts = {WINNABLE: 0, UNWINNABLE: 0, UNKNOWN: 0}
    for r in records:
        counts[r["verdict"]] += 1
    decided = counts[WINNABLE] + counts[UNWINNABLE]
    seconds = [r["seconds"] for r in records]
    lo, hi = wilson(counts[WINNABLE], decided)
    total = len(records)
    return {
        "deals": total,
        **counts,
        "decided_share": decided / total if total else None,
        "winnable_share": counts[WINNABLE] / decided if decided else None,
        "winnable_ci95": [lo, hi],
        "mean_seconds": statistics.fmean(seconds) if seconds else None,
        "median_seconds": statistics.median(seconds) if seconds else None,
    }


def format_summary(s: dict[str, Any]) -> str:
    lines = [
        f"deals {s['deals']}: winnable {s['winnable']}, unwinnable {s['unwinnable']}, "
        f"unknown {s['unknown']}",
    ]
    if s["winnable_share"] is not None:
        lo, hi = s["winnable_ci95"]
        lines.append(
            f"winnable share of decided deals: {100 * s['winnable_share']:.2f}% "
            f"(95% Wilson {100 * lo:.2f}%–{100 * hi:.2f}%)"
        )
    if s["mean_seconds"] is not None:
        lines.append(
            f"seconds per deal: mean {s['mean_seconds']:.3f}, median {s['median_seconds']:.3f}"
        )
    return "\n".join(lines)


def build_tasks(opts: dict[str, Any]) -> tuple[list[Task], dict[str, Any]]:
    """Validate the options; return the work items and the solver settings."""
    from games.engine import (
        MAX_PYSOL_DEAL,
        MAX_SEED,
        DeckError,
        RulesError,
        get_rules,
        parse_deck,
    )

    names = [o.strip() for o in (opts.get("options") or "").split(",") if o.strip()]
    options = {name: True for name in names}
    try:
        rules = get_rules(str(opts.get("preset") or ""), options)
    except RulesError as error:
        raise CliError(error.detail) from None
    budget = _positive(opts.get("budget", 10), "budget")
    nodes = _positive(opts.get("nodes"), "nodes", int, allow_none=True)
    workers = _positive(opts.get("workers", 1), "workers", int)
    if workers > MAX_WORKERS:
        raise CliError(
            f"--workers must be 1 or {MAX_WORKERS} (the main search and one rival), not {workers}"
        )
    settings = {
        "preset": rules.name,
        "options": options,
        "budget": budget,
        "nodes": nodes,
        "shorten": not opts.get("no_shorten"),
        "workers": workers,
    }
    given = [k for k in ("seeds", "pysol_deals", "deck") if opts.get(k)]
    if len(given) != 1:
        raise CliError("give exactly one of --seeds, --pysol-deals or --deck")
    tasks: list[Task]
    if opts.get("seeds"):
        tasks = [("seed", n) for n in parse_ranges(opts["seeds"], "seeds", 0, MAX_SEED)]
    elif opts.get("pysol_deals"):
        tasks = [
            ("pysol", n)
            for n in parse_ranges(opts["pysol_deals"], "pysol-deals", 1, MAX_PYSOL_DEAL)
        ]
    else:
        try:
            deck = parse_deck(opts["deck"].split(","))
        except DeckError as error:
            raise CliError(f"--deck: {error.detail}") from None
        tasks = [("deck", deck)]
    return tasks, settings


def identify(task: Task) -> tuple[dict[str, Any], tuple[int, ...]]:
    """A work item → the fields that name its deal in the record, and the deck."""
    from games.engine import deck_from_pysol, deck_from_seed

    kind, value = task
    if kind == "seed":
        return {"seed": value}, deck_from_seed(value)
    if kind == "pysol":
        return {"seed": None, "pysol_deal": value}, deck_from_pysol(value)
    return {"seed": None}, tuple(value)


def solve_task(task: Task, settings: dict[str, Any]) -> dict[str, Any]:
    """One deal → its JSON record, solved in this process."""
    names, deck = identify(task)
    return _record(settings, names, solve_deck(deck, settings))


def _record(
    settings: dict[str, Any], names: dict[str, Any], solved: dict[str, Any]
) -> dict[str, Any]:
    return {"preset": settings["preset"], "options": settings["options"], **names, **solved}


def _work(item: tuple[Task, dict[str, Any]]) -> dict[str, Any]:
    task, settings = item
    return solve_task(task, settings)


def results(
    tasks: list[Task], settings: dict[str, Any], jobs: int, python: str | None = None
) -> Iterator[dict[str, Any]]:
    """The records of ``tasks``, in order: solved in this process (``jobs`` 1), in ``jobs``
    spawned processes of this interpreter, or in ``jobs`` worker processes of the
    interpreter ``python`` (:mod:`.external`).  An interpreter that does not exist is a
    :class:`CliError` at once, one that cannot run the workers at the first record."""
    try:
        external = python is not None and not same_interpreter(python)
    except WorkerError as error:
        raise CliError(f"--python: {error}") from None
    if python is None or not external:
        return _here(tasks, settings, jobs)
    return _elsewhere(python, tasks, settings, jobs)


def _elsewhere(
    python: str, tasks: list[Task], settings: dict[str, Any], jobs: int
) -> Iterator[dict[str, Any]]:
    named = [identify(task) for task in tasks]
    try:
        with Workers(python, min(jobs, len(tasks))) as pool:
            answers = pool.imap((deck, settings) for _, deck in named)
            for (names, _), solved in zip(named, answers):
                yield _record(settings, names, solved)
    except WorkerError as error:
        raise CliError(f"--python {python}: {error}") from None


def _here(tasks: list[Task], settings: dict[str, Any], jobs: int) -> Iterator[dict[str, Any]]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield solve_task(task, settings)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(_work, [(task, settings) for task in tasks], chunksize=1)


def execute(opts: dict[str, Any], stdout: TextIO, stderr: TextIO) -> dict[str, Any]:
    """Run the command for already-parsed options; return the summary."""
    tasks, settings = build_tasks(opts)
    jobs = _positive(opts.get("jobs", 1), "jobs", int)
    records_of = results(tasks, settings, jobs, opts.get("python"))
    out_path = opts.get("out") or "-"
    handle = None
    if out_path == "-":
        out, report = stdout, stderr
    else:
        try:
            handle = open(out_path, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise CliError(f"--out: cannot write {out_path!r}: {error.strerror}") from None
        out, report = handle, stdout
    records = []
    try:
        from tqdm import tqdm

        bar = tqdm(
            total=len(tasks), file=stderr, disable=bool(opts.get("no_progress")), unit="deal"
        )
        for record in records_of:
            records.append(record)
            out.write(json.dumps(record) + "\n")
            if handle is not None:
                handle.flush()
            bar.update(1)
            bar.set_postfix_str(record["verdict"][:5], refresh=False)
        bar.close()
    finally:
        if handle is not None:
            handle.close()
    summary = summarize(records)
    report.write(format_summary(summary) + "\n")
    return summary


def run(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> dict[str, Any]:
    """``python -m games.solver.cli --preset seahaven --seeds 1-10``; returns the summary."""
    parser = _Parser(prog="solve", description=__doc__.split("\n\n")[0])
    add_arguments(parser, os.environ.get("SOLVER_PYTHON") or None)
    opts = vars(parser.parse_args(argv))
    return execute(opts, stdout or sys.stdout, stderr or sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    try:
        run()
    except CliError as error:
        print(f"solve: {error}", file=sys.stderr)
        sys.exit(2)
