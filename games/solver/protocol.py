"""The solver worker's line protocol, in one place for both sides: :mod:`.worker` (the
child, on any interpreter) and :mod:`.external` (the parent, driving workers).

Why a protocol: the solver is pure Python and imports nothing but the engine, so any
interpreter that can import those two packages runs it, PyPy among them, where the search
is about twice as fast as on CPython (``bench/README.md``, "Interpreter change").  The
service and the command stay on CPython (Django, psycopg); they hand deals to workers
started with another interpreter (``SOLVER_PYTHON``, ``solve --python``), and only JSON
crosses between the two interpreters, never pickles of one interpreter's objects.

Every message is one line of JSON, UTF-8:

* the worker starts with :func:`hello`, ``{"ready": 1, "python": "PyPy 3.9.16"}``;
* then for every request :func:`request`, ``{"deck": [card, ...], "settings": {...}}``
  (``settings`` from :func:`settings_for`), it writes the answer of :func:`solve_deck`,
  ``{"deck": "AS,...", "verdict": ..., "moves": [...], "nodes": ..., "seconds": ...,
  "first_length": ..., "length": ...}``, or ``{"error": "..."}`` when the request is bad
  or the solver failed (the worker carries on with the next line);
* it leaves at the end of its input.
"""

from __future__ import annotations

import gc
import json
import platform
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .entry import SolveResult, solve
from .verdicts import UNKNOWN

if TYPE_CHECKING:
    from games.engine import Rules

__all__ = [
    "PROTOCOL",
    "answer",
    "hello",
    "interpreter_name",
    "request",
    "result_from",
    "settings_for",
    "solve_deck",
]

#: The protocol's version, sent in :func:`hello`; the parent refuses any other.
PROTOCOL = 1


def interpreter_name() -> str:
    """``"CPython 3.11.7"``, ``"PyPy 3.9.16"``: what the figures of a run were measured on."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def hello() -> dict[str, Any]:
    """The worker's first line: it is ready, and on which interpreter."""
    return {"ready": PROTOCOL, "python": interpreter_name()}


def settings_for(
    rules: Rules,
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    workers: int = 1,
) -> dict[str, Any]:
    """The ``settings`` of a request: :func:`games.solver.solve`'s arguments as JSON."""
    return {
        "preset": rules.name,
        "options": dict(rules.options),
        "budget": time_budget,
        "nodes": node_budget,
        "shorten": shorten,
        "workers": workers,
    }


def request(deck: Sequence[int], settings: dict[str, Any]) -> dict[str, Any]:
    """A request line: solve ``deck`` under ``settings``."""
    return {"deck": list(deck), "settings": settings}


def solve_deck(deck: tuple[int, ...], settings: dict[str, Any]) -> dict[str, Any]:
    """Solve one deck under ``settings``; the answer (the solver fields of a ``solve``
    record).  This is all a worker process runs: engine and solver only."""
    from games.engine import format_deck, get_rules

    rules = get_rules(settings["preset"], settings["options"])
    result = solve(
        rules,
        deck,
        time_budget=settings["budget"],
        node_budget=settings["nodes"],
        shorten=settings["shorten"],
        shorten_budget=settings.get("shorten_budget"),
        workers=settings.get("workers", 1),
    )
    return {
        "deck": format_deck(deck),
        "verdict": result.verdict,
        "moves": result.moves,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "first_length": result.first_length,
        "length": result.length,
    }


def answer(line: str) -> dict[str, Any]:
    """One request line → its answer (never raises: a failure is an ``error`` answer).

    A search that runs out of memory (the worker's ``SOLVER_MEMORY_MB`` limit, see
    :mod:`.worker`) is undecided at this budget: ``unknown``, flagged ``memory``, so the
    parent stores it as such and replaces this process (its heap may stay large)."""
    started = time.monotonic()
    try:
        message = json.loads(line)
        deck, settings = message["deck"], message["settings"]
        if not isinstance(deck, list) or not isinstance(settings, dict):
            raise TypeError("deck must be a list and settings an object")
        return solve_deck(tuple(deck), settings)
    except MemoryError:
        gc.collect()
        return {
            "verdict": UNKNOWN,
            "moves": [],
            "nodes": 0,
            "seconds": round(time.monotonic() - started, 4),
            "first_length": None,
            "length": None,
            "memory": True,
        }
    except Exception as error:  # the parent decides what a failed deal means
        return {"error": f"{type(error).__name__}: {error}"[:500]}


def result_from(solved: dict[str, Any]) -> SolveResult:
    """An answer → the :class:`~games.solver.SolveResult` it reports (not yet replayed)."""
    return SolveResult(
        verdict=solved["verdict"],
        moves=list(solved["moves"]),
        nodes=int(solved["nodes"]),
        seconds=float(solved["seconds"]),
        first_length=solved.get("first_length"),
        length=solved.get("length"),
    )
