"""The solve entry: :func:`solve` and :func:`solve_state` race the searches, shorten the
first win, and have the engine replay every answer before it is returned.

``solve(rules, deck, time_budget=10.0, node_budget=None, shorten=True)`` answers
``winnable`` (with a solution the engine replays to a win), ``unwinnable`` (only after an
exhaustive search) or ``unknown`` (budget spent).

The search runs on its own compact positions and move generator (:mod:`.core`), much
cheaper than the engine's immutable ``State``; the engine is the judge: every solution is
translated to API moves and replayed with :func:`games.engine.replay` before it is
returned, and a solution that does not end in ``won`` raises :class:`SolverBug`.

1. **First solution**: best-first search (:mod:`.bestfirst`): every newly seen position
   goes into a priority queue ordered by a heuristic per rule family, and the most
   promising one is expanded next, so one bad early choice does not cost its whole
   subtree as it does depth-first.  Each position is keyed in a transposition set and
   expanded once; the graph is finite, so the search finds a win whenever one is
   reachable and an exhausted queue is a proof of ``unwinnable`` (the same set of
   positions a depth-first search, :meth:`.core.Search.first_solution`, visits: the tests
   compare the two).  Where they were measured to help (:func:`.dives.dive_share`),
   restarted randomized depth-first dives (:mod:`.dives`) run beside it on the same
   budget, taking turns in slices of 256 positions (:mod:`.schedule`): they win many
   deals on which best-first sinks into a basin of well-scored positions.  Each dive is
   the depth-first search above in a perturbed move order, so its wins are ordinary
   move sequences (replayed like any other) and a dive that runs out of positions before
   its share is the same exhaustive proof.  The first answer of either ends both.
   With ``workers=2`` (a machine with a core to spare) a plain depth-first search of the
   same position, :meth:`.core.Search.first_solution`, races the above in a forked
   process (:mod:`.race`), started once the main search has run 0.25 s without an
   answer; the first win or proof of either ends both.  It costs less per position than
   best-first and keeps one transposition set, so it finishes proofs sooner, and it wins
   deals that lie straight down the generator's move order (``bench/README.md``).
2. **Shortening** (``shorten=True``): first :mod:`.splice` cuts the first win's cycles and
   takes its one-move shortcuts (exact and cheap: first wins wander, and a bound of
   thousands of moves leaves branch and bound nothing to cut); then branch and bound
   from the start, looking only for
   wins shorter than the best so far.  A position is cut when ``g + h > bound`` with the
   admissible ``h`` = cards not yet on the foundations + deals still to make (every card
   needs exactly one foundation move and the stock must be dealt out to win), or when it
   was already reached at a depth ``<= g``.  ``first_length`` is the length of the first
   win found, ``length`` that of the final one; when branch and bound runs to the end
   ``optimal`` is true (the shortest win under the pruning rules, which all keep some
   shortest win: see :mod:`.dfs`).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bestfirst import best_first_steps
from .core import INF, OutOfBudget, Path, Search
from .dives import dive_share, dive_steps
from .race import MAX_WORKERS, STOP_GRACE, Rival, can_fork
from .schedule import Interrupted, StepsFactory, in_turns
from .splice import splice_api
from .translate import from_api, to_api
from .verdicts import DECIDED, UNKNOWN, UNWINNABLE, WINNABLE

if TYPE_CHECKING:
    from games.engine import Rules, State

__all__ = [
    "SolveResult",
    "SolverBug",
    "check_replay",
    "shorten_moves",
    "solve",
    "solve_state",
    "verify",
]


class SolverBug(RuntimeError):
    """The solver produced a solution the engine does not accept: a bug, never an answer."""


@dataclass
class SolveResult:
    verdict: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    first_length: int | None = None
    length: int | None = None
    optimal: bool = False
    #: Undecided because the search reached its memory limit (the native prover's).
    memory: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "moves": self.moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "first_length": self.first_length,
            "length": self.length,
            "optimal": self.optimal,
        }


def verify(state: State, moves: list[dict[str, Any]]) -> None:
    """Apply ``moves`` to the engine ``state``; raise :class:`SolverBug` unless they win."""
    from games.engine import WON, IllegalMove, Move, MoveFormatError, apply_move, status

    for index, raw in enumerate(moves):
        try:
            state = apply_move(state, Move.from_dict(raw))
        except (IllegalMove, MoveFormatError) as error:
            raise SolverBug(f"solution move {index} ({raw}) is illegal: {error!r}") from None
    if status(state) != WON:
        raise SolverBug(f"solution of {len(moves)} moves ends in {status(state)}, not won")


def solve(
    rules: Rules,
    deck: Sequence[int],
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    *,
    pruning: bool = True,
    shorten_budget: float | None = None,
    workers: int = 1,
) -> SolveResult:
    """Solve the deal of ``deck`` under ``rules`` (a :class:`games.engine.Rules`).

    ``time_budget`` (seconds) and ``node_budget`` (positions expanded) bound the whole call,
    shortening included; ``None`` means unbounded.  Shortening gets at most
    ``shorten_budget`` seconds (default: half the time budget) of what is left after the
    first solution.  ``pruning=False`` disables every optional pruning rule (for tests).
    ``workers=2`` races a depth-first search in a second process against the main one
    (:mod:`.race`; each gets the node budget, ``nodes`` counts both) for a machine with a
    core to spare.  The solution is replayed from the deal by the engine before it is
    returned.
    """
    from games.engine import new_game

    result = solve_state(
        new_game(rules, deck),
        time_budget,
        node_budget,
        shorten,
        pruning=pruning,
        shorten_budget=shorten_budget,
        workers=workers,
    )
    if result.verdict == WINNABLE:
        check_replay(rules, deck, result.moves)
    return result


def shorten_moves(
    state: State, moves: list[dict[str, Any]], seconds: float
) -> list[dict[str, Any]]:
    """A win's API ``moves`` from ``state`` (another search's, e.g. the native prover's),
    shortened within ``seconds`` as :func:`solve_state` shortens its own: cycles cut, then
    shortcuts and branch and bound.  The result is replayed before it is returned."""
    end = time.perf_counter() + max(seconds, 0.0)
    path = from_api(splice_api(state, moves, end))
    if end > time.perf_counter():
        path, _ = Search(state).shorten(path, INF, end)
    out = to_api(path)
    verify(state, out)
    return out


def check_replay(rules: Rules, deck: Sequence[int], moves: list[dict[str, Any]]) -> None:
    """Replay API ``moves`` from the deal of ``deck`` with the engine; :class:`SolverBug`
    unless they win (the engine is the judge of every answer, wherever it was found)."""
    from games.engine import replay, status

    state, index, error = replay(rules, tuple(deck), moves)
    if error is not None or status(state) != "won":
        raise SolverBug(f"solution does not replay from the deck (move {index}: {error!r})")


def _first_win(
    search: Search,
    node_limit: int,
    deadline: float,
    interrupt: Callable[[], bool] | None = None,
) -> Path | None:
    """Best-first search, with randomized dives beside it where they help (see
    :mod:`.dives`): a win's internal path, ``None`` for a proof.  ``interrupt``: see
    :func:`.schedule.in_turns`."""
    searches: list[tuple[StepsFactory, float]] = [(best_first_steps, 1.0)]
    share = dive_share(search)
    if share:
        searches.append((dive_steps, share))
    return in_turns(search, searches, node_limit, deadline, interrupt)


#: Seconds the main search runs alone before a rival (``workers=2``) is started: most
#: deals are decided in milliseconds, and those need no second process.
RIVAL_DELAY = 0.25


class _Race:
    """The main search and, with ``workers > 1``, a depth-first :class:`.race.Rival` in a
    forked process, started once the main search has run :data:`RIVAL_DELAY` seconds
    without an answer.  :meth:`decide` returns the first decided answer of either."""

    def __init__(
        self, search: Search, state: State, workers: int, node_limit: int, deadline: float
    ) -> None:
        self.search = search
        self.state = state
        self.node_limit = node_limit
        self.deadline = deadline
        self.enabled = workers > 1 and search.pruning and can_fork()
        self.start_at = time.perf_counter() + RIVAL_DELAY
        self.rival: Rival | None = None

    def interrupt(self) -> bool:
        """Called by the main search every few hundred positions: start the rival when
        its time has come; true once it has a win or a proof."""
        if self.rival is None:
            if time.perf_counter() < self.start_at:
                return False
            self.rival = Rival(self.state, self.node_limit, self.deadline)
        return self.rival.decided()

    def decide(self) -> tuple[str, Path | None]:
        """``(verdict, internal path or None)``; :class:`OutOfBudget` when neither search
        decided within the budget."""
        search = self.search
        try:
            if not search.pruning:
                # The plain reference search the pruning tests compare with: depth-first,
                # as documented; the service searches best-first.
                path = search.first_solution(self.node_limit, self.deadline)
            else:
                path = _first_win(
                    search,
                    self.node_limit,
                    self.deadline,
                    self.interrupt if self.enabled else None,
                )
        except Interrupted:
            # Only the rival interrupts, and only once it has its answer.
            assert self.rival is not None and self.rival.answer is not None
            verdict, path, _ = self.rival.answer
            return verdict, path
        except OutOfBudget:
            # The rival has the same deadline: its answer is due about now.
            if self.rival is not None:
                answer = self.rival.wait(self.deadline + STOP_GRACE)
                if answer is not None and answer[0] in DECIDED:
                    return answer[0], answer[1]
            raise
        return (WINNABLE if path is not None else UNWINNABLE), path

    def stop(self) -> int:
        """Stop the rival (reaped in the background, see :meth:`.race.Rival.stop`); the
        positions it searched (0 without one)."""
        if self.rival is None:
            return 0
        answer = self.rival.stop()
        return answer[2] if answer else 0


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Switch Python's cyclic garbage collector off for the duration of a search (used as
    a decorator of :func:`solve_state`).

    Why: a search allocates millions of tuples (positions, keys) that stay alive in its
    tables and form no reference cycles, so reference counting frees everything the
    search drops; the cyclic collector only rescans the live ones, again and again as
    allocations pile up: 6-11 % of the search's time on every rule family measured
    (``bench/README.md``), more in a process holding many other objects.  The previous
    setting is restored afterwards, so a caller with the collector off keeps it off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_without_cyclic_gc()
def solve_state(
    state: State,
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    *,
    pruning: bool = True,
    shorten_budget: float | None = None,
    workers: int = 1,
) -> SolveResult:
    """Like :func:`solve`, from any engine :class:`~games.engine.State` (e.g. an endgame)."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1 or {MAX_WORKERS}, not {workers}")
    started = time.perf_counter()
    deadline = started + time_budget if time_budget is not None else float("inf")
    node_limit = node_budget if node_budget is not None else INF
    search = Search(state, pruning=pruning)
    race = _Race(search, state, workers, node_limit, deadline)
    try:
        verdict, path = race.decide()
    except OutOfBudget:
        verdict, path = UNKNOWN, None
    finally:
        rival_nodes = race.stop()
    if verdict != WINNABLE or path is None:
        return SolveResult(verdict, [], search.nodes + rival_nodes, time.perf_counter() - started)

    first_length = len(path)
    optimal = False
    if shorten and search.nodes < node_limit:
        now = time.perf_counter()
        share = shorten_budget
        if share is None:
            share = 0.5 * time_budget if time_budget is not None else 60.0
        end = min(deadline, now + share)
        # Cutting cycles is linear and always done, even with no budget left (a first win
        # can wander for thousands of moves); shortcuts and branch and bound use the budget.
        path = from_api(splice_api(state, to_api(path), end))
        if end > time.perf_counter():
            path, optimal = search.shorten(path, node_limit, end)
    moves = to_api(path)
    verify(state, moves)
    return SolveResult(
        WINNABLE,
        moves,
        search.nodes + rival_nodes,
        time.perf_counter() - started,
        first_length=first_length,
        length=len(moves),
        optimal=optimal,
    )
