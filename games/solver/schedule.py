"""Several searches of one deal sharing one budget, taking turns in slices of positions.

Why: no single search order suits every deal.  Best-first with a heuristic finds most wins
early and is the only one that can prove a loss in a large graph; on other deals (chiefly
Westcliff's and Easthaven's winnable ones) it sinks into a basin of well-scored positions
while short randomized depth-first dives (:mod:`.dives`) win within a few thousand.  Run
side by side, each search gets a fixed share of the positions, so the pair costs each at
most a constant factor and the first answer (a win, or a proof) ends both.

A search is a :data:`Steps` generator, made by a :data:`StepsFactory` from the settled
start position and the moves that made it (every search of a deal starts from the same
opening, played once): primed with ``next()``, it is then sent a *target* (a count of
its own new positions) and runs until its count reaches the target, yielding the count;
it ends by returning ``(path, count)``, with ``path`` the internal move path of a win
(the opening included) or ``None`` when it has proved that none exists.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence

from .core import OutOfBudget, Path, Position, Search

__all__ = ["SLICE", "Interrupted", "Steps", "StepsFactory", "in_turns"]

# ``X | None`` only inside a string: aliases run on the worker's Python 3.9 too.
Steps = Generator[int, int, "tuple[Path | None, int]"]
#: ``factory(search, start, opening)`` → the search's :data:`Steps` from ``start``.
StepsFactory = Callable[[Search, Position, Path], Steps]

#: Positions per turn, and how often the clock is read (every ``SLICE`` positions in all).
SLICE = 256


class Interrupted(Exception):
    """The caller's ``interrupt`` asked the searches to stop (another search answered)."""


def in_turns(
    search: Search,
    searches: Sequence[tuple[StepsFactory, float]],
    node_limit: int,
    deadline: float,
    interrupt: Callable[[], bool] | None = None,
) -> Path | None:
    """Play ``search``'s opening, then run ``searches`` (pairs of a :data:`StepsFactory`
    and its share of the positions) from there in turns until one of them ends, and
    return its answer: a win's path, or ``None`` for a proof.  Raise
    :class:`~.core.OutOfBudget` once ``node_limit`` positions were seen in all or the
    ``deadline`` (``time.perf_counter()``) passed; ``search.nodes`` holds the count in all
    afterwards.

    Every turn ends when the count in all is a multiple of :data:`SLICE` (or reaches the
    limit), and the clock is read then; the next turn goes to the search furthest below
    its share.  ``interrupt``, when given, is asked whenever the clock is read; if it
    answers true, :class:`Interrupted` is raised (``search.nodes`` as above).
    """
    opening: Path = []
    start = search.opening(opening)
    if sum(start[2]) == 52:
        search.nodes = 0
        return opening
    gens = [factory(search, start, opening) for factory, _ in searches]
    shares = [share for _, share in searches]
    counts = [next(gen) for gen in gens]
    clock = time.perf_counter
    try:
        total = sum(counts)
        while total < node_limit:
            i = min(range(len(gens)), key=lambda k: counts[k] / shares[k])
            step = min(SLICE - total % SLICE, node_limit - total)
            try:
                counts[i] = gens[i].send(counts[i] + step)
            except StopIteration as stop:
                path: Path | None
                path, counts[i] = stop.value
                return path
            total = sum(counts)
            if clock() > deadline:
                break
            if interrupt is not None and interrupt():
                raise Interrupted
        raise OutOfBudget
    finally:
        search.nodes = sum(counts)
