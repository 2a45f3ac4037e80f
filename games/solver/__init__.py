"""Haven's solver: is a deal winnable by a player who knows every card ("thoughtful" play)?

``solve(rules, deck, time_budget=10.0, node_budget=None, shorten=True)`` answers
``winnable`` (with a solution the engine replays to a win), ``unwinnable`` (only after an
exhaustive search) or ``unknown`` (budget spent).  Pure Python, no Django, and no syntax
newer than Python 3.9: the same code also runs on PyPy, about twice as fast, in worker
processes that the service and the ``solve`` command feed one JSON line per deal
(:mod:`.protocol`; ``SOLVER_PYTHON``, ``solve --python pypy3``).

The modules, one concern each (each states the pruning rules it implements and why each
is sound):

* :mod:`.entry`: :func:`solve` and :func:`solve_state`: the searches raced, the first
  win shortened, every answer replayed by the engine (:class:`SolverBug` otherwise);
* :mod:`.translate`: internal moves to and from the API's move dicts;
* the search, :class:`.core.Search`, a stack of one class per concern:
  :mod:`.position` (positions, moves, the transposition key), :mod:`.deadends` and
  :mod:`.deadrows` (dead ends by a relaxation), :mod:`.movegen` (move generation),
  :mod:`.autoplay` (safe auto-play, cell cards onto their parents), :mod:`.dfs`
  (depth-first search and branch-and-bound shortening);
* the searches for a first win built on it: :mod:`.bestfirst`, :mod:`.dives`, taking
  turns (:mod:`.schedule`), and a depth-first rival in a forked process (:mod:`.race`);
  :mod:`.splice` cuts a win's cycles before the shortening;
* running it elsewhere: the worker protocol (:mod:`.protocol`), the worker
  (:mod:`.worker`), the parent driving workers (:mod:`.external`) and the ``solve``
  command's logic (:mod:`.cli`).
"""

from __future__ import annotations

from . import race
from .core import OutOfBudget, Search
from .entry import (
    SolverBug,
    SolveResult,
    check_replay,
    shorten_moves,
    solve,
    solve_state,
    verify,
)
from .translate import from_api, to_api
from .verdicts import DECIDED, UNKNOWN, UNWINNABLE, WINNABLE

__all__ = [
    "DECIDED",
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "OutOfBudget",
    "Search",
    "SolveResult",
    "SolverBug",
    "check_replay",
    "from_api",
    "race",
    "shorten_moves",
    "solve",
    "solve_state",
    "to_api",
    "verify",
]
