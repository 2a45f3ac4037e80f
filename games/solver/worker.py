"""A solver worker process: ``python -m games.solver.worker``, one deal per line.

The messages are those of :mod:`.protocol`; the parent side is :mod:`.external`.

The engine and solver code must stay importable on the oldest Python a worker may run
on: 3.9, Debian 12's PyPy (``from __future__ import annotations`` everywhere, no
``match``, no ``zip(strict=...)``, no ``X | Y`` outside annotations);
``tests/solver/test_external.py`` runs it there when a ``pypy3`` is installed, and CI
installs one.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any, TextIO

from .protocol import PROTOCOL, answer, hello, interpreter_name

__all__ = ["PROTOCOL", "handle", "interpreter_name", "limit_memory", "serve"]


def handle(line: str) -> dict[str, Any]:
    """One request line → its answer (never raises: a failure is an ``error`` answer)."""
    return answer(line)


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space: a search that would outgrow it gets a
    ``MemoryError`` (answered as ``unknown``, :func:`.protocol.answer`) instead of taking
    the host's memory. A 60 s search on PyPy was seen past 23 GB (issue 26)."""
    import resource

    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def serve(stdin: TextIO, stdout: TextIO) -> None:
    """Answer request lines until the end of ``stdin``, with a full collection after each
    answer: PyPy's collector sets its next major collection at a multiple of the heap it
    last saw, so a worker answering search after search kept each one's garbage (about
    200 MB a 5 s search, until ``SOLVER_MEMORY_MB`` failed a search: 5.8 GB resident
    after some dozens of deals, 2026-12-03); collected between searches, it stays at one
    search's size.  The search's tables are dropped by then, so the collection is short."""
    stdout.write(json.dumps(hello()) + "\n")
    stdout.flush()
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(answer(line)) + "\n")
            stdout.flush()
            gc.collect()


if __name__ == "__main__":  # pragma: no cover - run as a child process by .external
    memory = int(os.environ.get("SOLVER_MEMORY_MB") or 0)
    if memory > 0:
        limit_memory(memory)
    serve(sys.stdin, sys.stdout)
