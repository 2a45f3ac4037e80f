"""A plain depth-first search in a forked process, racing the main search for one deal.

Why: the main search (:func:`games.solver._first_win`: best-first queues, with restarted
dives where they help) is what finds most wins early, but a proof must expand every
reachable position whatever the order, and there it is the slower of the two: a
best-first position costs about 1.33 times a depth-first one, and the dives keep
transposition sets of their own, so their positions add nothing to a proof.  Some wins,
too, lie straight down the generator's own move order, which the restarted dives cut
short.  On the deals that the main search left undecided at 10 s (``bench/README.md``,
2026-12-02), the plain DFS alone at 10 s decided 6 of 13 easthaven-open + partial_runs
deals (three wins in 6k-31k positions, three proofs in 90k-143k) and 5 of 53
westcliff-classic deals.  A machine with a second core can run both: the first decided
answer ends the other.

The rival is :meth:`.core.Search.first_solution` on its own :class:`.core.Search` of the
same position, with the same pruning, node limit and deadline, so its answers are the
DFS's (sound for the same reasons, and a win is a path of the same internal moves, which
the caller shortens and replays like its own).  It runs in a child made with
``os.fork()`` (the position and the solver are already in memory; ``multiprocessing``
refuses children to daemonic processes such as pool and Celery prefork workers), sends
one pickled ``(verdict, path, nodes)`` through a pipe and leaves with ``os._exit``, so
nothing of the parent (database connections, atexit handlers) runs twice.  SIGTERM makes
it stop searching and still send its count, which is how the parent stops it.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import threading
import time
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

from .core import OutOfBudget, Path, Search
from .verdicts import DECIDED, UNKNOWN, UNWINNABLE, WINNABLE

if TYPE_CHECKING:
    from games.engine import State

__all__ = ["MAX_WORKERS", "Answer", "Rival", "can_fork"]

#: A rival's answer: ``(verdict, the internal path of a win or None, positions searched)``.
# ``X | None`` only inside a string: aliases run on the worker's Python 3.9 too.
Answer = tuple[str, "Path | None", int]

#: The main search and one rival: the most processes a deal can have.
MAX_WORKERS = 2
#: Seconds the parent waits for a stopped rival's last message before killing it outright.
STOP_GRACE = 2.0


def can_fork() -> bool:
    """Is ``os.fork`` available here (POSIX)?"""
    return hasattr(os, "fork")


class Rival:
    """A depth-first search of ``state`` in a forked child process.

    ``answer`` is ``None`` until the child has reported, then ``(verdict, path, nodes)``
    with ``verdict`` one of :data:`.verdicts.WINNABLE` (``path``: the internal moves of a
    win), :data:`.verdicts.UNWINNABLE` or :data:`.verdicts.UNKNOWN` (budget spent, or
    stopped)."""

    def __init__(
        self, state: State, node_limit: int, deadline: float, pruning: bool = True
    ) -> None:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child leaves through os._exit
            os.close(read_fd)
            _child(write_fd, state, node_limit, deadline, pruning)
        os.close(write_fd)
        self.pid = pid
        self._fd: int | None = read_fd
        self.answer: Answer | None = None
        self._reaper: threading.Thread | None = None

    def ready(self, timeout: float = 0.0) -> bool:
        """Has the child reported?  Waits at most ``timeout`` seconds for it."""
        if self.answer is None and self._fd is not None:
            readable, _, _ = select.select([self._fd], [], [], max(timeout, 0.0))
            if readable:
                self._collect()
        return self.answer is not None

    def decided(self) -> bool:
        """Has the child reported a verdict that ends the race (a win or a proof)?"""
        return self.ready() and self.answer is not None and self.answer[0] in DECIDED

    def wait(self, deadline: float) -> Answer | None:
        """The child's answer, waiting until ``deadline`` (``time.perf_counter()``) at most."""
        self.ready(deadline - time.perf_counter())
        return self.answer

    def stop(self) -> Answer | None:
        """End the child (it reports its count when asked to stop) and have it reaped;
        returns the answer, ``None`` if the child died without one.  Safe to call more
        than once.

        The child is reaped by a daemon thread, not here: a child that has sent its
        answer may still spend most of a second exiting (the kernel frees the gigabyte a
        long search holds), and that is no reason to keep the caller, or its deal's
        clock, waiting.  :meth:`join` waits for the reaping."""
        if self._fd is None:
            return self.answer
        if self.answer is None:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if not self.ready(STOP_GRACE):
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        os.close(self._fd)
        self._fd = None
        self._reaper = threading.Thread(target=_reap, args=(self.pid,), daemon=True)
        self._reaper.start()
        return self.answer

    def join(self, timeout: float | None = None) -> bool:
        """Wait until the stopped child has been reaped; true once it has."""
        if self._reaper is None:
            return False
        self._reaper.join(timeout)
        return not self._reaper.is_alive()

    def _collect(self) -> None:
        assert self._fd is not None  # only while the pipe is open
        chunks = []
        while True:
            chunk = os.read(self._fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        # A child that died without a message (killed, out of memory) leaves no bytes:
        # it counts as a rival that found nothing.
        self.answer = pickle.loads(data) if data else (UNKNOWN, None, 0)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already (e.g. by a SIGCHLD handler of the host)
        pass


def _send(write_fd: int, answer: Answer) -> None:
    data = memoryview(pickle.dumps(answer))
    while data:
        written = os.write(write_fd, data)
        data = data[written:]
    # The parent reads to end of file: close now rather than at the end of the exit,
    # which comes after the kernel has freed all of the search's memory.
    os.close(write_fd)


def _child(
    write_fd: int, state: State, node_limit: int, deadline: float, pruning: bool
) -> NoReturn:
    """The forked child: search, send one message, leave.  Never returns."""
    code = 0
    # The child leaves through os._exit and frees nothing, so the cyclic collector has no
    # work here; left on (a caller outside solve_state), it would walk the whole inherited
    # heap and copy every page of it on write, which under load kept a rival from
    # answering a stop within STOP_GRACE.
    gc.disable()
    try:
        searching = True

        def on_term(signum: int, frame: FrameType | None) -> None:
            # Only while searching: once the message is being written, let it finish.
            if searching:
                raise OutOfBudget

        signal.signal(signal.SIGTERM, on_term)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
        search = Search(state, pruning=pruning)
        try:
            path = search.first_solution(node_limit, deadline)
        except OutOfBudget:
            # Sent from inside the handler: its traceback keeps the search's frames alive,
            # so they are never freed (os._exit below), which would take half a second.
            searching = False
            _send(write_fd, (UNKNOWN, None, search.nodes))
        else:
            searching = False
            _send(write_fd, (WINNABLE if path is not None else UNWINNABLE, path, search.nodes))
    except BaseException:  # noqa: BLE001 - a child must never return into the parent's code
        code = 1
    finally:
        os._exit(code)
