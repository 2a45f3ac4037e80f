"""Solving a chunk of seeds and storing each deal's result as soon as it is known.

A chunk is what one Celery task solves (:mod:`.tasks`); the same function runs in-process
when there is no broker.  Each deal's row is inserted the moment it is solved (ignoring a
row already there), and a chunk starts by skipping the seeds already stored at its budget,
so a worker killed in the middle of a chunk loses at most the deal it was solving: the
redelivered task (``acks_late``) solves only what is missing.
"""

from __future__ import annotations

import atexit
import functools
import logging
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone

from games import engine
from games.solver import UNKNOWN, WINNABLE, check_replay, native
from games.solver.cli import solve_deck
from games.solver.external import WorkerError, Workers, same_interpreter
from games.solver.worker import interpreter_name

from .configs import options_dict
from .models import DealResult

log = logging.getLogger(__name__)

#: ``prover`` of :func:`solve_one`: the native prover (:mod:`games.solver.native`) where it
#: plays the preset (``native``: and it must be built; ``auto``: where it is built), else
#: the Python solver (``python``: always).  Both are sound; the ``interpreter`` column of a
#: result says which one decided it.
NATIVE = "native"
AUTO = "auto"
PROVERS = (AUTO, NATIVE, "python")

_pools: dict[str, Workers] = {}
_pools_guard = threading.Lock()


def _pool(python: str) -> Workers:
    """One long-lived solver process of ``python`` per Celery process: PyPy's JIT warms up
    once (about a second), not once per chunk."""
    with _pools_guard:
        pool = _pools.get(python)
        if pool is None:
            pool = _pools[python] = Workers(python, 1)
            atexit.register(_drop_pool, python)
        return pool


def _drop_pool(python: str) -> None:
    with _pools_guard:
        pool = _pools.pop(python, None)
    if pool is not None:
        pool.close()


def _elsewhere(python: str) -> bool:
    """Is ``python`` another interpreter than this one?  One this host lacks is logged and
    the deal solved here: the run goes on, only slower."""
    try:
        return not same_interpreter(python)
    except WorkerError as error:
        log.error("solver interpreter unavailable, solving here: %s", error)
        return False


def solve_one(
    preset: str,
    options: str,
    seed: int,
    budget: float,
    python: str | None,
    race: bool,
    prover: str = AUTO,
) -> tuple[dict[str, Any], str]:
    """Decide deal ``seed`` (no shortening): the solver's answer and the interpreter that
    gave it.  With the native prover (``prover``, :data:`PROVERS`) where it plays the
    preset, its portfolio of searches (:func:`_solve_portfolio`); else the Python solver,
    in a solver process of ``python`` (e.g. pypy3) when given, else here.  A win found
    elsewhere is replayed by this process's engine before it counts."""
    deck = engine.deck_from_seed(seed)
    python_search = functools.partial(
        _solve_python, preset, options, seed, deck, python=python, race=race
    )
    if prover == NATIVE or (prover == AUTO and native.available()):
        rules = engine.get_rules(preset, options_dict(options))
        if native.supports(rules):
            return _solve_portfolio(engine.new_game(rules, deck), budget, python_search)
    return python_search(budget)


#: The best-first search's share of a budget after the glance: this, plus a twentieth of
#: the budget, at most three tenths of it.
BEST_FIRST_SECONDS = 2.5
#: The prover's depth-first glance, before the best-first share, at most.
NATIVE_FIRST_SECONDS = 0.5


def best_first_share(budget: float) -> float:
    """Seconds the best-first search gets: 3 s of 10 s, 5.5 s of 60 s, 17.5 s of 300 s.
    It wins in a few hundred thousand positions deals that the depth-first search misses
    for a hundred million (westcliff-classic 797: 356k positions, 0.95 s; left unknown
    at 300 s by the depth-first search), and most of its wins take under 2 s; the
    depth-first search's strength is the proofs behind the rest, with half the memory a
    position."""
    return min(budget * 3 / 10, BEST_FIRST_SECONDS + budget / 20)


#: A phase of the portfolio: ``(search, seconds)``.
Phase = tuple[str, float]
DEPTH_FIRST, BEST_FIRST, BEST_FIRST_PLAIN = "depth-first", "best-first", "best-first-plain"
LAYERED = "layered"
#: Budgets from this many seconds on (the final tiers, for the few deals every shorter
#: budget left undecided) prove with the layered search instead of the depth-first one:
#: the same positions in a fraction of the memory (``docs/solver/layered.md``), where
#: the depth-first search of 900 s stops at its memory limit.
LAYERED_FROM_SECONDS = 1800
#: With a waste (Westcliff): the best-first share's part searched without stock plays.
PLAIN_PART = 1 / 3


def portfolio(budget: float, waste: bool = False) -> list[Phase]:
    """The searches of :func:`_solve_portfolio` and their seconds, which add up to
    ``budget``: the depth-first glance, the best-first share, the depth-first rest (from
    ``LAYERED_FROM_SECONDS`` on, the layered search's instead).  With
    a waste the best-first share is split: two thirds over the stock plays' positions,
    a third over the plain graph (``BEST_FIRST_PLAIN``).  Each wins deals the other misses
    for seconds: on the 78 westcliff-classic deals of seeds 1-2000 that the portfolio of
    2026-12-03 left undecided at 10 s, 34 wins within 5 s with stock plays (four of them
    unknown plain) and 30 plain (seed 1987 in 0.05 s, 3.9 s with stock plays), and seed
    102 takes 877 positions plain and more than 4 million with stock plays
    (``bench/README.md``, 2026-12-04)."""
    glance = min(NATIVE_FIRST_SECONDS, budget / 20)
    share = best_first_share(budget)
    best: list[Phase] = [(BEST_FIRST, share)]
    if waste:
        best = [(BEST_FIRST, share * (1 - PLAIN_PART)), (BEST_FIRST_PLAIN, share * PLAIN_PART)]
    rest = LAYERED if budget >= LAYERED_FROM_SECONDS else DEPTH_FIRST
    return [(DEPTH_FIRST, glance), *best, (rest, budget - glance - share)]


def _solve_portfolio(
    state: engine.State,
    budget: float,
    python_search: Callable[[float], tuple[dict[str, Any], str]],
) -> tuple[dict[str, Any], str]:
    """The prover's searches of the deal, one after the other, until one decides it
    (:func:`portfolio`): a depth-first glance (most proofs take it milliseconds), the
    best-first search for wins (:func:`best_first_share`), the depth-first search for the
    rest.  All are exhaustive, so any may prove a loss; positions and seconds add up.
    The Python solver takes the whole budget where the prover is unusable."""
    nodes, seconds = 0, 0.0
    answer: dict[str, Any] = {}
    name = ""
    for kind, part in portfolio(budget, waste=state.rules.stock == "waste"):
        if part <= 0:
            continue
        best_first = kind in (BEST_FIRST, BEST_FIRST_PLAIN)
        answered = _solve_native(
            state,
            part,
            best_first=best_first,
            stock_plays=kind != BEST_FIRST_PLAIN,
            layered=kind == LAYERED,
        )
        if answered is None:  # the prover is unusable here: the Python solver alone
            return python_search(budget)
        answer, name = answered
        nodes += int(answer.get("nodes") or 0)
        seconds += float(answer.get("seconds") or 0.0)
        # A depth-first or layered search at its memory limit would meet it again with
        # more time; the best-first one forgets at its limit and goes on to the end of
        # its share (its memory flag says it forgot), then leaves the deal to the next.
        if answer["verdict"] != UNKNOWN or (not best_first and answer.get("memory")):
            break
    return {**answer, "nodes": nodes, "seconds": seconds}, name


def _solve_python(
    preset: str,
    options: str,
    seed: int,
    deck: tuple[int, ...],
    budget: float,
    python: str | None,
    race: bool,
) -> tuple[dict[str, Any], str]:
    settings = {
        "preset": preset,
        "options": options_dict(options),
        "budget": budget,
        "nodes": None,
        "shorten": False,
        "workers": 2 if race else 1,
    }
    if python and _elsewhere(python):
        for attempt in (1, 2):
            name = python
            try:
                pool = _pool(python)
                name = pool.name
                # Exhaust the generator: one left suspended closes the pool when collected.
                (answer,) = list(pool.imap([(deck, settings)]))
                if "error" in answer:
                    raise WorkerError(answer["error"])
                if answer.get("memory"):
                    # Out of its memory limit: unknown at this budget; a fresh process next.
                    log.warning("seed %d: the solver ran out of memory, unknown", seed)
                    _drop_pool(python)
                if answer["verdict"] == WINNABLE:
                    rules = engine.get_rules(preset, settings["options"])
                    check_replay(rules, deck, answer["moves"])
                return answer, pool.name
            except WorkerError as error:
                _drop_pool(python)
                if _out_of_memory(error):
                    # PyPy may abort instead of raising MemoryError: the deal is as
                    # undecided, and retrying it (or solving it here, unbounded) would only
                    # run out of memory again.
                    log.warning("seed %d: the solver ran out of memory, unknown", seed)
                    return _memory_unknown(), name
                log.warning("solver process %s failed (attempt %d): %s", python, attempt, error)
        log.error("solver process %s keeps failing: solving seed %d here", python, seed)
    return solve_deck(deck, settings), interpreter_name()


def _solve_native(
    state: engine.State,
    budget: float,
    best_first: bool = False,
    stock_plays: bool = True,
    layered: bool = False,
) -> tuple[dict[str, Any], str] | None:
    """The native prover's answer on ``state`` (a preset it plays), or ``None`` when it is
    unusable on this host (logged: the Python solver answers instead)."""
    try:
        result = native.solve_state(
            state, budget, best_first=best_first, stock_plays=stock_plays, layered=layered
        )
    except native.NativeError as error:
        log.error("native prover unusable, solving with Python: %s", error)
        return None
    if result.memory:
        log.warning("%s: the native prover reached its memory limit, unknown", state.rules.key)
    answer = {**result.to_dict(), "memory": result.memory}
    return answer, native.INTERPRETER


def _out_of_memory(error: WorkerError) -> bool:
    text = str(error)
    return "out of memory" in text or "MemoryError" in text


def _memory_unknown() -> dict[str, Any]:
    return {"verdict": UNKNOWN, "moves": [], "nodes": 0, "seconds": 0.0, "memory": True}


def solve_chunk(
    preset: str,
    options: str,
    seeds: Sequence[int],
    budget: float,
    version: str,
    python: str | None = None,
    race: bool = False,
    prover: str = AUTO,
    on_result: Callable[[DealResult], None] | None = None,
) -> dict[str, int]:
    """Solve the ``seeds`` not yet stored at this budget and version, storing each at once.
    Returns how many were solved and how many were already there."""
    done = set(
        DealResult.objects.filter(
            preset=preset, options=options, budget=budget, solver_version=version, seed__in=seeds
        ).values_list("seed", flat=True)
    )
    host = socket.gethostname()[:100]
    solved = 0
    for seed in seeds:
        if seed in done:
            continue
        answer, interpreter = solve_one(preset, options, seed, budget, python, race, prover)
        row = DealResult(
            preset=preset,
            options=options,
            seed=seed,
            budget=budget,
            solver_version=version,
            verdict=answer["verdict"],
            nodes=int(answer.get("nodes") or 0),
            seconds=float(answer.get("seconds") or 0.0),
            length=answer.get("first_length"),
            interpreter=interpreter[:40],
            host=host,
            solved_at=timezone.now(),
        )
        DealResult.objects.bulk_create([row], ignore_conflicts=True)
        done.add(seed)
        solved += 1
        if on_result is not None:
            on_result(row)
    return {"solved": solved, "skipped": len(seeds) - solved}
