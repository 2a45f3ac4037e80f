"""The search for a day's deal: candidates tried in order until one is ``winnable``.

That one is stored with its par (the length of the solution found), the solution and the
rejected candidates with their verdicts (``Deal.attempts``, each with the pass that judged
it).

1. **Screening**: each candidate gets ``DAILY_SCREEN_NODES`` (50 000) solver positions, no
   shortening, capped by ``SOLVER_BUDGET_SECONDS``.  Easthaven candidates are mostly
   undecided or unwinnable, and an undecided one burns the whole time budget; the winnable
   ones we sampled mostly had their first solution within 40 000 positions (one to three
   seconds), so screening makes a typical day several times cheaper (``bench/README.md``).
   Being a node budget, its answer does not depend on the machine's speed or load, so the
   same secret picks the same candidate everywhere (as long as the time cap is not what
   stops a screen).  The cap, ``DAILY_MAX_ATTEMPTS`` (50), is counted in screening work:
   screening stops once it has spent 50 × 50 000 positions, a candidate left undecided
   counting a whole 50 000 and one proven unwinnable the positions it took, and after
   20 × 50 = 1000 candidates in any case.  (Easthaven by suit proves most candidates
   unwinnable in a few hundred positions: on 2026-11-30 the first 74 all were, 0.6 s in
   all; a plain cap of 50 would have stored an "unknown" that is very likely unwinnable.)
2. The first candidate screened ``winnable`` is solved again with the settings' budgets
   (``SOLVER_BUDGET_SECONDS``, ``SOLVER_NODE_BUDGET``) and shortening, for its par.
3. If screening finds nothing winnable, the candidates it left ``unknown`` (at most 50) get a
   full solve each, in order; the first winnable one is stored.
4. Otherwise the outcome is stored explicitly: the earliest candidate the solver could not
   decide, with verdict ``unknown`` (or, if every candidate was proven unwinnable, the next
   untried one, also ``unknown``), and an error is logged.  A proven-unwinnable deck is
   never a daily deal.  A candidate on which the solver raises is logged, recorded as
   ``error`` and skipped; if it raised on every candidate, nothing is stored
   (:class:`SolverFailed`: a broken deploy must not fill days with undecided deals).

Par
---
The par is the length of the winner's solution after shortening (cycles cut, shortcuts,
then branch and bound for shorter wins).  Branch and bound rarely finishes on a whole deal,
so it used to run until its share of the budget (half of ``SOLVER_BUDGET_SECONDS``, 5 s)
was spent: 30 of a day's 55 s.  A full solve now gets ``DAILY_PAR_SECONDS`` (default 0.5 s)
of shortening; what that costs in par length is measured in ``bench/README.md`` ("Par").
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.conf import settings

from games import engine
from games.models import Source, Verdict

from .candidates import candidate_seed

log = logging.getLogger(__name__)

#: Below this many seconds left, an on-demand preparation stops solving and stores "unknown".
MIN_SOLVE_SECONDS = 0.05
#: Candidates proven unwinnable cheaply count for less: at most this many per attempt.
CANDIDATES_PER_ATTEMPT = 20


class SolverFailed(RuntimeError):
    """The solver raised on every candidate tried: nothing is stored (a broken deploy must
    not fill days with undecided deals); the task fails and the next beat tries again."""


def max_attempts() -> int:
    """The cap of the search, in candidates' worth of screening (module doc)."""
    return int(settings.DAILY_MAX_ATTEMPTS)


def par_seconds() -> float:
    """Seconds the winner's solution gets for shortening into the par (module doc, "Par")."""
    return float(settings.DAILY_PAR_SECONDS)


def screen_nodes() -> int:
    """Positions a candidate gets in the screening pass (module doc)."""
    nodes = int(settings.DAILY_SCREEN_NODES)
    return min(nodes, settings.SOLVER_NODE_BUDGET or nodes)


def _solve(
    rules: engine.Rules,
    deck: tuple[int, ...],
    time_budget: float,
    node_budget: int | None,
    shorten: bool,
) -> Any:
    """The solver (``games.solver.solve``, with ``SOLVER_WORKERS`` processes), in a worker
    process of ``SOLVER_PYTHON`` when one is set; a seam tests may replace.

    A worker interpreter that fails (missing, broken, hung) costs speed, not the day: the
    deal is solved again in this process and the failure is logged."""
    from games.solver import solve

    def limits() -> dict[str, Any]:
        found = {
            "time_budget": time_budget,
            "node_budget": node_budget,
            "shorten": shorten,
            "workers": settings.SOLVER_WORKERS,
        }
        par = _par_budget.get()
        if shorten and par is not None:
            found["shorten_budget"] = par
        return found

    if settings.SOLVER_PYTHON:
        from games.solver.external import WorkerError, solve_with

        started = time.monotonic()
        try:
            return solve_with(settings.SOLVER_PYTHON, rules, deck, **limits())
        except WorkerError as error:
            log.error("SOLVER_PYTHON=%s failed, solving here: %s", settings.SOLVER_PYTHON, error)
            if time_budget is not None:
                time_budget = max(MIN_SOLVE_SECONDS, time_budget - (time.monotonic() - started))
    return solve(rules, deck, **limits())


#: Seconds of shortening for the par, set by the caller of :func:`_solve` around a full
#: solve (``_Search.solve``); unset, the solver's default share applies.  A context
#: variable rather than a parameter, so that ``_solve``'s signature (the seam the tests
#: replace) stays as it is.
_par_budget: ContextVar[float | None] = ContextVar("daily_par_budget", default=None)


class _Search:
    """One series of candidates (a (day, preset), or a tournament's): tried in order, each
    verdict kept for ``Deal.attempts``. ``seed_of(n)`` is candidate ``n``'s engine seed;
    ``label`` names the series in the logs."""

    def __init__(
        self,
        rules: engine.Rules,
        seed_of: Callable[[int], int],
        label: str,
        deadline: float | None,
    ) -> None:
        self.rules, self.seed_of, self.label, self.deadline = rules, seed_of, label, deadline
        self.budget = float(settings.SOLVER_BUDGET_SECONDS)
        self.tried: dict[int, dict[str, Any]] = {}  # attempt -> its latest verdict record

    def time_left(self) -> float:
        if self.deadline is None:
            return self.budget
        return min(self.budget, self.deadline - time.monotonic())

    def solve(self, attempt: int, stage: str) -> Any | None:
        """Solve candidate ``attempt`` in ``stage`` ``"screen"`` (the screening node budget,
        no shortening) or ``"full"`` (the settings' budgets, shortening); None when there is
        no time left (on demand) or the solver failed."""
        if stage == "screen":
            node_budget, shorten = screen_nodes(), False
        else:
            node_budget, shorten = settings.SOLVER_NODE_BUDGET, True
        seconds = self.time_left()
        if seconds < MIN_SOLVE_SECONDS:
            return None
        deck = engine.deck_from_seed(self.seed_of(attempt))
        par = _par_budget.set(par_seconds() if shorten else None)
        try:
            result = _solve(self.rules, deck, seconds, node_budget, shorten)
        except Exception as error:  # a solver bug must not stop the day: skip the candidate
            log.exception("%s: solver failed on candidate %d", self.label, attempt)
            self.tried[attempt] = {
                "attempt": attempt, "verdict": "error", "error": repr(error)[:300],
                "nodes": None, "seconds": None, "pass": stage,
            }  # fmt: skip
            return None
        finally:
            _par_budget.reset(par)
        self.tried[attempt] = {
            "attempt": attempt,
            "verdict": result.verdict,
            "nodes": getattr(result, "nodes", None),
            "seconds": round(float(getattr(result, "seconds", 0.0) or 0.0), 3),
            "pass": stage,
        }
        return result

    def winner(self, attempt: int, found: Any) -> dict[str, Any]:
        """Candidate ``attempt`` is winnable (``found``): solve it again with the full budget
        and shortening for its par, keeping ``found``'s solution if that runs out of time."""
        best = self.solve(attempt, "full")
        if best is None or best.verdict != Verdict.WINNABLE:
            best = found
        self.tried.pop(attempt, None)
        return self.fields(attempt, Verdict.WINNABLE, list(best.moves), best.nodes, best.seconds)

    def fields(
        self, attempt: int, verdict: str, solution: list, nodes: Any, seconds: Any
    ) -> dict[str, Any]:
        rejected = [self.tried[n] for n in sorted(self.tried) if n != attempt]
        seed = self.seed_of(attempt)
        return {
            "deck": engine.format_deck(engine.deck_from_seed(seed)),
            "seed": seed,
            "verdict": verdict,
            "par": len(solution) if verdict == Verdict.WINNABLE else None,
            "solution": solution,
            "attempts": rejected,
            "solver_nodes": nodes,
            "solver_seconds": seconds,
        }


def search_day(day: dt.date, preset: str, deadline: float | None) -> dict[str, Any]:
    """Find the day's deal: the fields of the Deal to store (module doc).

    ``deadline`` (a ``time.monotonic()`` value) bounds the whole search (on demand);
    None: the workers' way, every solve gets the full budget and the cap is the only limit.
    """
    rules = engine.get_rules(preset)
    found = search_candidates(
        rules, lambda n: candidate_seed(day, preset, n), f"daily {preset} {day}", deadline
    )
    return {
        "preset": preset,
        "options": dict(rules.options),
        "source": Source.DAILY,
        "date": day,
        **found,
    }


def search_candidates(
    rules: engine.Rules,
    seed_of: Callable[[int], int],
    label: str,
    deadline: float | None,
) -> dict[str, Any]:
    """Search a series of candidates (``seed_of(n)``: candidate ``n``'s seed) for a
    winnable deal, as the daily's search does (module doc): the deal's fields (``deck``,
    ``seed``, ``verdict``, ``par``, ``solution``, ``attempts``, the solver's figures),
    without its source or preset. The dailies and the tournaments' own deals use it."""
    search = _Search(rules, seed_of, label, deadline)
    cap = max_attempts()
    out_of_time = False
    # Pass 1: screen candidates in order with a small, machine-independent node budget,
    # until the screening has spent ``cap`` candidates' worth of positions.
    per_screen = screen_nodes()
    spent = 0
    for attempt in range(cap * CANDIDATES_PER_ATTEMPT):
        if spent >= cap * per_screen:
            break
        result = search.solve(attempt, "screen")
        if result is None and attempt not in search.tried:
            out_of_time = True
            break
        if result is not None and result.verdict == Verdict.WINNABLE:
            return search.winner(attempt, result)
        if result is not None and result.verdict == Verdict.UNWINNABLE:
            spent += min(int(result.nodes or 0), per_screen)
        else:  # undecided or failed: the whole screening budget counts
            spent += per_screen
    # Pass 2: the candidates screening could not decide, with the full budget, in order.
    if not out_of_time:
        for attempt in sorted(search.tried):
            if search.tried[attempt]["verdict"] != Verdict.UNKNOWN:
                continue
            result = search.solve(attempt, "full")
            if result is None and search.tried[attempt]["verdict"] != "error":
                out_of_time = True
                break
            if result is not None and result.verdict == Verdict.WINNABLE:
                search.tried.pop(attempt)
                return search.fields(
                    attempt, Verdict.WINNABLE, list(result.moves), result.nodes, result.seconds
                )
    # Nothing winnable: say so, and never store a deck proven unwinnable.
    if search.tried and all(a["verdict"] == "error" for a in search.tried.values()):
        raise SolverFailed(f"the solver failed on every candidate of {label}")
    undecided = [n for n in sorted(search.tried) if search.tried[n]["verdict"] == Verdict.UNKNOWN]
    if undecided:
        chosen = undecided[0]
        nodes, seconds = search.tried[chosen]["nodes"], search.tried[chosen]["seconds"]
    else:
        chosen = max(search.tried, default=-1) + 1
        nodes = seconds = None
    if out_of_time:
        log.warning(
            "%s: time budget spent after %d candidates; storing candidate %d as unknown",
            label, len(search.tried), chosen,
        )  # fmt: skip
    else:
        log.error(
            "%s: no winnable deal in %d candidates; storing candidate %d as unknown",
            label, len(search.tried), chosen,
        )  # fmt: skip
    return search.fields(chosen, Verdict.UNKNOWN, [], nodes, seconds)
