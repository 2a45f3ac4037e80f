"""A solver worker process: ``python -m games.solver.worker``, one deal per line.

Why: the solver is pure Python and imports nothing but the engine, so any interpreter that
can import those two packages runs it, PyPy among them, where the search is about twice
as fast as on CPython (``bench/README.md``, "Interpreter change").  The service and the
command stay on CPython (Django, psycopg); they hand deals to workers started with another
interpreter (``SOLVER_PYTHON``, ``solve --python``) through this line protocol, so that
only JSON crosses between the two interpreters, never pickles of one interpreter's objects.

The protocol (every message one line of JSON, UTF-8):

* the worker starts with ``{"ready": 1, "python": "PyPy 3.9.16"}``;
* then for every request ``{"deck": [card, ...], "settings": {...}}`` read from stdin
  (``settings`` as :func:`games.solver.cli.solve_deck` takes them) it writes the result
  ``{"deck": "AS,...", "verdict": ..., "moves": [...], "nodes": ..., "seconds": ...,
  "first_length": ..., "length": ...}``, or ``{"error": "..."}`` when the request is bad or
  the solver failed (the worker carries on with the next line);
* it leaves at the end of its input.

The engine and solver code must therefore stay importable on the oldest Python a worker
may run on: 3.9, Debian 12's PyPy (``from __future__ import annotations`` everywhere, no
``match``, no ``zip(strict=...)``); ``tests/solver/test_external.py`` runs it there when a
``pypy3`` is installed, and CI installs one.
"""

from __future__ import annotations

import json
import platform
import sys
from typing import Any, TextIO

PROTOCOL = 1


def interpreter_name() -> str:
    """``"CPython 3.11.7"``, ``"PyPy 3.9.16"``: what the figures of a run were measured on."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def handle(line: str) -> dict[str, Any]:
    """One request line → its answer (never raises: a failure is an ``error`` answer)."""
    from .cli import solve_deck

    try:
        request = json.loads(line)
        deck, settings = request["deck"], request["settings"]
        if not isinstance(deck, list) or not isinstance(settings, dict):
            raise TypeError("deck must be a list and settings an object")
        return solve_deck(tuple(deck), settings)
    except Exception as error:  # the parent decides what a failed deal means
        return {"error": f"{type(error).__name__}: {error}"[:500]}


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Answer request lines until the end of ``stdin``."""
    stdout.write(json.dumps({"ready": PROTOCOL, "python": interpreter_name()}) + "\n")
    stdout.flush()
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(handle(line)) + "\n")
            stdout.flush()


if __name__ == "__main__":  # pragma: no cover - run as a child process by .external
    serve(sys.stdin, sys.stdout)
