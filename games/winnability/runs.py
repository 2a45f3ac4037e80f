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
    gave it.  In a solver process of ``python`` (e.g. pypy3) when given, else here; with
    the native prover (``prover``, :data:`PROVERS`) where it plays the preset, the Python
    solver first for :func:`python_share` of the budget, then the prover for the rest
    (:func:`_solve_portfolio`).  A win found elsewhere is replayed by this process's engine
    before it counts."""
    deck = engine.deck_from_seed(seed)
    if prover == NATIVE or (prover == AUTO and native.available()):
        rules = engine.get_rules(preset, options_dict(options))
        if native.supports(rules):
            python_search = functools.partial(
                _solve_python, preset, options, seed, deck, python=python, race=race
            )
            return _solve_portfolio(engine.new_game(rules, deck), budget, python_search)
    return _solve_python(preset, options, seed, deck, budget, python, race)


#: The Python solver's share of a budget before the native prover takes over: this, plus
#: a twentieth of the budget, at most a fifth of it.
PYTHON_FIRST_SECONDS = 2.0
#: The native prover's first look, before the Python solver's share, at most.
NATIVE_FIRST_SECONDS = 0.5


def python_share(budget: float) -> float:
    """Seconds the Python solver gets first: 2 s of 10 s, 5 s of 60 s, 17 s of 300 s.  Its
    best-first search wins many deals in a few hundred positions that the prover's
    depth-first search misses for millions (easthaven-open + partial_runs seed 22: 47
    positions against over 1.5 million), and most deals are decided within 2 s; but some
    of its wins take longer (easthaven-open seed 1848: 133k positions, 3.7 s on PyPy, left
    unknown at 300 s by a share of 2 s), so a larger budget gives it more.  The prover's
    strength is the proofs behind the rest."""
    return min(budget / 5, PYTHON_FIRST_SECONDS + budget / 20)


def _solve_portfolio(
    state: engine.State,
    budget: float,
    python_search: Callable[[float], tuple[dict[str, Any], str]],
) -> tuple[dict[str, Any], str]:
    """Three searches of the deal, one after the other, until one decides it: the native
    prover for a glance (:data:`NATIVE_FIRST_SECONDS`: most proofs take it milliseconds,
    and the Python solver would spend its whole share on them), the Python solver for
    :func:`python_share`, the prover for the rest.  Positions and seconds add up."""
    glance = min(NATIVE_FIRST_SECONDS, budget / 20)
    share = python_share(budget)
    phases = (("native", glance), ("python", share), ("native", budget - glance - share))
    nodes, seconds = 0, 0.0
    answer: dict[str, Any] = {}
    name = ""
    for kind, part in phases:
        if part <= 0:
            continue
        if kind == "python":
            answer, name = python_search(part)
        else:
            answered = _solve_native(state, part)
            if answered is None:  # the prover is unusable here: the Python solver alone
                return python_search(budget)
            answer, name = answered
        nodes += int(answer.get("nodes") or 0)
        seconds += float(answer.get("seconds") or 0.0)
        # A prover at its memory limit would meet it again with more time; a Python worker
        # at its limit says nothing of the prover's (some 25 times smaller positions).
        if answer["verdict"] != UNKNOWN or (kind == "native" and answer.get("memory")):
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


def _solve_native(state: engine.State, budget: float) -> tuple[dict[str, Any], str] | None:
    """The native prover's answer on ``state`` (a preset it plays), or ``None`` when it is
    unusable on this host (logged: the Python solver answers instead)."""
    try:
        result = native.solve_state(state, budget)
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
