"""Solver worker processes on another interpreter (PyPy), driven from this one.

:class:`Workers` starts ``count`` processes ``<python> -m games.solver.worker`` (the line
protocol of :mod:`.protocol`) and hands them decks, one at a time each, from a thread per
worker; :meth:`Workers.imap` yields the answers in the order of the requests, like
``multiprocessing.Pool.imap``.  A worker that dies, answers garbage or overruns its deal's
watchdog (twice the time budget plus :data:`WATCHDOG_SLACK`: the solver keeps to its
budget, so only a bug or a frozen machine trips it) raises :class:`WorkerError` in the
caller, after every worker has been stopped: a run is never left half-answered with
processes behind it.

:func:`solve_with` solves one deal this way and replays the solution through this
process's engine before returning it, as :func:`games.solver.solve` does: the
interpreter that persists an answer is the one that judges it.
"""

from __future__ import annotations

import json
import os
import queue
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .entry import SolveResult, check_replay
from .protocol import PROTOCOL, request, result_from, settings_for
from .verdicts import WINNABLE

if TYPE_CHECKING:
    from games.engine import Rules

__all__ = ["WorkerError", "Workers", "resolve_python", "same_interpreter", "solve_with"]

#: Seconds a worker gets to start (PyPy imports the engine in about a second).
START_TIMEOUT = 60.0
#: Seconds added to twice a deal's time budget before its worker is declared hung.
WATCHDOG_SLACK = 60.0
#: The folder holding the ``games`` package, put on the workers' ``PYTHONPATH``.
PROJECT_ROOT = Path(__file__).resolve().parents[2]


class WorkerError(RuntimeError):
    """A worker process could not be started, died, or broke the protocol."""


def resolve_python(python: str) -> str:
    """The absolute path of the interpreter ``python`` (a path, or a name on ``PATH``);
    :class:`WorkerError` when there is none."""
    found = shutil.which(python)
    if found is None:
        raise WorkerError(f"no Python interpreter {python!r} (not a path, not on PATH)")
    return os.path.abspath(found)


def same_interpreter(python: str) -> bool:
    """Is ``python`` this very interpreter (then no worker process is needed)?"""
    return os.path.realpath(resolve_python(python)) == os.path.realpath(sys.executable)


#: Of ``SOLVER_MEMORY_MB`` (the worker's address-space limit), the share PyPy's garbage
#: collector may grow its heap to (``PYPY_GC_MAX``); the rest is the JIT's code and raw
#: allocations.
GC_SHARE = 0.8


def worker_env() -> dict[str, str]:
    """A worker's environment: the project on its path, no host ``PYTHONHOME``, and under
    ``SOLVER_MEMORY_MB`` a PyPy heap cap below it, so PyPy collects harder near the
    address-space limit before a search fails on it (the worker also collects between
    searches: :func:`.worker.serve`)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PROJECT_ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("PYTHONHOME", None)  # this interpreter's home is not the worker's
    limit = env.get("SOLVER_MEMORY_MB", "")
    if limit.isdigit() and int(limit) > 0 and "PYPY_GC_MAX" not in env:
        env["PYPY_GC_MAX"] = f"{int(int(limit) * GC_SHARE)}MB"
    return env


class _Worker:
    def __init__(self, python: str) -> None:
        self.python = python
        self.stderr = tempfile.TemporaryFile()
        env = worker_env()
        try:
            self.proc = subprocess.Popen(
                [python, "-m", "games.solver.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                cwd=str(PROJECT_ROOT),
                env=env,
                bufsize=0,
                start_new_session=True,  # its own process group: a kill reaches its rival too
            )
        except OSError as error:
            self.stderr.close()
            raise WorkerError(f"cannot start {python}: {error.strerror or error}") from None
        # Both pipes exist: Popen was asked for them.
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.to_worker: IO[bytes] = self.proc.stdin
        self.from_worker: IO[bytes] = self.proc.stdout
        self.buffer = b""
        try:
            hello = self.read(time.monotonic() + START_TIMEOUT)
        except WorkerError as error:
            self.stop()
            raise WorkerError(f"{python} did not start a solver worker: {error}") from None
        if not isinstance(hello, dict) or hello.get("ready") != PROTOCOL:
            self.stop()
            raise WorkerError(f"{python} did not start a solver worker: it said {hello!r}")
        self.name = str(hello.get("python", "?"))

    def read(self, deadline: float) -> Any:
        """The next line's JSON; :class:`WorkerError` on death, garbage or the deadline."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerError(f"solver worker ({self.python}) answered nothing in time")
            ready, _, _ = select.select([self.from_worker], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_worker.fileno(), 1 << 16)
            if not chunk:
                raise WorkerError(
                    f"solver worker ({self.python}) died (exit code {self.proc.poll()}): "
                    f"{self.stderr_tail()}"
                )
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            raise WorkerError(f"solver worker ({self.python}) wrote {line[:200]!r}") from None

    def ask(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        try:
            self.to_worker.write(json.dumps(request).encode() + b"\n")
        except OSError:
            raise WorkerError(f"solver worker ({self.python}) died: {self.stderr_tail()}") from None
        answer = self.read(time.monotonic() + timeout)
        if not isinstance(answer, dict):
            raise WorkerError(f"solver worker ({self.python}) answered {answer!r}")
        if "error" in answer:
            raise WorkerError(f"solver worker ({self.python}) failed: {answer['error']}")
        return answer

    def stderr_tail(self) -> str:
        try:
            self.stderr.seek(0)
            return self.stderr.read()[-800:].decode("utf-8", "replace").strip() or "no output"
        except (OSError, ValueError):
            return "no output"

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.to_worker.close()  # the end of input: the worker leaves by itself
                self.proc.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and its rival
                except OSError:
                    self.proc.kill()
                self.proc.wait()
        for stream in (self.to_worker, self.from_worker):
            try:
                stream.close()
            except OSError:
                pass
        self.stderr.close()


def _watchdog(settings: dict[str, Any]) -> float:
    budget = settings.get("budget")
    return (2 * float(budget) if budget is not None else 24 * 3600.0) + WATCHDOG_SLACK


class Workers:
    """``count`` worker processes on the interpreter ``python``; a context manager.

    ``name`` tells which interpreter they run (``"PyPy 3.9.16"``)."""

    def __init__(self, python: str, count: int = 1) -> None:
        python = resolve_python(python)
        self.workers: list[_Worker] = []
        try:
            for _ in range(max(1, count)):
                self.workers.append(_Worker(python))
        except BaseException:
            self.close()
            raise
        self.name = self.workers[0].name

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def imap(
        self, decks: Iterable[tuple[Sequence[int], dict[str, Any]]]
    ) -> Iterator[dict[str, Any]]:
        """Solve ``(deck, settings)`` pairs; yield each answer (the solver fields of a
        record, :func:`.protocol.solve_deck`) in the order given."""
        todo: queue.Queue[tuple[int, dict[str, Any], float]] = queue.Queue()
        done: queue.Queue[tuple[int, Any]] = queue.Queue()
        count = 0
        for index, (deck, settings) in enumerate(decks):
            todo.put((index, request(deck, settings), _watchdog(settings)))
            count += 1
        stopping = threading.Event()

        def run(worker: _Worker) -> None:
            while not stopping.is_set():
                try:
                    index, request, timeout = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    done.put((index, worker.ask(request, timeout)))
                except BaseException as error:  # handed to the caller's thread
                    done.put((index, error))
                    return

        threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in self.workers]
        for thread in threads:
            thread.start()
        waiting: dict[int, Any] = {}
        finished = False
        try:
            for index in range(count):
                while index not in waiting:
                    got, answer = done.get()
                    if isinstance(answer, BaseException):
                        raise answer
                    waiting[got] = answer
                yield waiting.pop(index)
            finished = True
        finally:
            stopping.set()
            if finished:
                for thread in threads:  # each has nothing left to take: it is leaving
                    thread.join()
            else:
                self.close()  # an error or an abandoned run: stop the deals still running


def solve_with(
    python: str,
    rules: Rules,
    deck: Sequence[int],
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    workers: int = 1,
    shorten_budget: float | None = None,
) -> SolveResult:
    """:func:`games.solver.solve` in a worker process on the interpreter ``python``; the
    same :class:`games.solver.SolveResult`, the solution replayed here first."""
    settings = settings_for(rules, time_budget, node_budget, shorten, workers)
    settings["shorten_budget"] = shorten_budget
    with Workers(python, 1) as pool:
        result = result_from(next(pool.imap([(deck, settings)])))
    if result.verdict == WINNABLE:
        check_replay(rules, deck, result.moves)
    return result
