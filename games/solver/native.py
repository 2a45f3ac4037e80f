"""The native prover (``native/``, Rust): the same question for the stock games, asked of
a compiled depth-first search that visits 11-30 times as many positions a second as PyPy
(``bench/prover.py``), or of its best-first search (``best_first``: the Python
:mod:`.bestfirst`, ported), which wins in milliseconds what PyPy wins in seconds.

Why: the Python search decides almost every deal in seconds, but a few in a hundred of
Easthaven's and Westcliff-classic's need millions of positions for a proof, which is
minutes of PyPy and, with its positions as Python objects, tens of gigabytes
(``bench/README.md``, "Winnability").  The prover keeps one position, applies and takes
back moves in place, and stores the transposition keys exactly, back to back in one
arena: a proof is still exhaustive, and its memory stays under a limit it checks itself.

It is a helper, not a second engine: it answers for Easthaven and Westcliff presets only
(no cells); its pruning rules are the Python search's, ported (:mod:`.position`,
:mod:`.autoplay`, :mod:`.movegen`, :mod:`.deadends`, :mod:`.deadrows`: a proof visits as
many positions with either, which ``tests/solver/test_native.py`` checks); and every win
it reports is replayed here by the engine
(:func:`.entry.verify`) before it is believed; :class:`~.entry.SolverBug` otherwise.
The binary is built by ``make native`` (``cargo build --release``); ``SOLVER_NATIVE``
names another path.  No binary: :func:`available` is false and callers use the Python
search.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .entry import SolveResult, verify
from .position import Move
from .translate import to_api
from .verdicts import UNKNOWN, UNWINNABLE, WINNABLE

if TYPE_CHECKING:
    from games.engine import Rules, State

__all__ = [
    "INTERPRETER",
    "NativeError",
    "available",
    "binary",
    "request_line",
    "solve_state",
    "supports",
]

PROTOCOL = 4
#: The ``interpreter`` of the results it gives (``winnability_dealresult``).
INTERPRETER = "haven-prover (native)"
#: Where ``make native`` puts the binary.
DEFAULT_BINARY = Path(__file__).resolve().parents[2] / "native/target/release/haven-prover"
_VERDICTS = {"won": WINNABLE, "lost": UNWINNABLE, "unknown": UNKNOWN}


class NativeError(RuntimeError):
    """The prover is missing, refused the request or died."""


def binary() -> Path | None:
    """The prover's path (``SOLVER_NATIVE``, else the build's), or ``None`` if absent."""
    named = os.environ.get("SOLVER_NATIVE")
    if named:
        found = shutil.which(named)
        return Path(found) if found else None
    return DEFAULT_BINARY if os.access(DEFAULT_BINARY, os.X_OK) else None


def available() -> bool:
    return binary() is not None


def supports(rules: Rules) -> bool:
    """The prover plays the games with a stock and no cells (Easthaven, Westcliff)."""
    return rules.stock in ("rows", "waste") and rules.cells == 0


def request_line(
    state: State,
    millis: int,
    node_limit: int | None = None,
    memory_mb: int | None = None,
    stock_plays: bool = True,
    best_first: bool = False,
    layered: bool = False,
) -> str:
    """The request for ``state`` (see ``native/src/main.rs``).  ``stock_plays``: with a
    waste, deal only as part of playing the dealt card (``docs/solver/stock-plays.md``);
    off, the prover's search is the Python search, position for position.
    ``best_first``: the prover's best-first search (the Python :mod:`.bestfirst`'s
    queues: quick to find wins) instead of its depth-first one (lighter for proofs).
    ``layered``: the prover's layered search, the depth-first search's proof in a layer
    of positions' memory at a time (``docs/solver/layered.md``); it keeps no line, so a
    win it meets is answered ``unknown``."""
    rules = state.rules
    if not supports(rules):
        raise NativeError(f"the native prover does not play {rules.key}")
    numbers: list[int] = [
        PROTOCOL,
        len(state.cols),
        int(rules.build == "alternate"),
        int(rules.space == "king"),
        int(rules.partial_runs),
        int(rules.stock == "rows"),
        int(stock_plays),
        int(rules.king_fill_before_deal),
        2 if layered else int(best_first),
        max(int(millis), 0),
        node_limit or 0,
        memory_mb or 0,
    ]
    for col, down in zip(state.cols, state.down):
        numbers += [len(col), down, *col]
    numbers += list(state.found)
    numbers += [len(state.stock), *state.stock]
    numbers += [len(state.waste), *state.waste]
    return " ".join(map(str, numbers))


def hang_grace(seconds: float) -> float:
    """Seconds past its budget before a prover is taken for hung and killed: it reads
    its clock every few thousand positions, so it overruns by milliseconds, plus its
    start and, at worst, one growth of a table of gigabytes.  Short budgets (a hint's
    quarter second) get a short grace: a hung prover must not hold a request for a
    minute."""
    return min(60.0, 2.0 + seconds / 2)


def solve_state(
    state: State,
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    memory_mb: int | None = None,
    stock_plays: bool = True,
    best_first: bool = False,
    layered: bool = False,
) -> SolveResult:
    """Solve ``state`` with the prover; a win is replayed by the engine before it is
    returned.  ``memory_mb`` (default ``SOLVER_MEMORY_MB``): the prover stops at it and
    answers ``unknown``; ``stock_plays``, ``best_first`` and ``layered``: see
    :func:`request_line`.  Raises
    :class:`NativeError` when the prover is unusable."""
    path = binary()
    if path is None:
        raise NativeError("the native prover is not built (make native)")
    if memory_mb is None:
        limit = os.environ.get("SOLVER_MEMORY_MB", "")
        memory_mb = int(limit) if limit.isdigit() else None
    millis = int((time_budget if time_budget is not None else 10**7) * 1000)
    line = request_line(
        state, millis, node_budget, memory_mb, stock_plays, best_first, layered=layered
    )
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [str(path)],
            input=line + "\n",
            capture_output=True,
            text=True,
            timeout=millis / 1000 + hang_grace(millis / 1000),
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise NativeError(f"the native prover failed: {error}") from None
    words = done.stdout.split()
    if done.returncode != 0 or not words or words[0] not in _VERDICTS:
        reason = done.stdout.strip() or done.stderr.strip()[-200:] or f"exit {done.returncode}"
        raise NativeError(f"the native prover failed: {reason}")
    verdict = _VERDICTS[words[0]]
    nodes = int(words[1])
    seconds = time.perf_counter() - started
    if verdict != WINNABLE:
        return SolveResult(verdict, [], nodes, seconds, memory=words[3] == "1")
    numbers = list(map(int, words[4:]))
    internal: list[Move] = [
        (numbers[k], numbers[k + 1], numbers[k + 2]) for k in range(0, len(numbers), 3)
    ]
    moves = to_api(internal)
    verify(state, moves)
    return SolveResult(WINNABLE, moves, nodes, seconds, first_length=len(moves), length=len(moves))
