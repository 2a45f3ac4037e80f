"""Depth-first search for a first win and branch-and-bound shortening, over the settled
positions of :mod:`.autoplay` and the moves of :mod:`.movegen`; :class:`Search` is the
whole search (the stack of :mod:`.position`).

* :meth:`Search.first_solution`: depth-first, with a transposition set (needed to
  terminate); an exhausted search is a proof of ``unwinnable``.  It is the ``pruning=False``
  reference the pruning tests compare with, the rival of :mod:`.race`, and, in a
  perturbed move order, each dive of :mod:`.dives`.  It skips the move that undoes the
  last one without applying it (:meth:`Search._undo`): that move leads back to the parent
  exactly, whose key is in the set, so nothing searched changes (the tests compare both).
* :meth:`Search.shorten`: branch and bound from the start, looking only for wins shorter
  than the best so far.  A position is cut when ``g + h > bound`` with the admissible
  ``h`` = cards not yet on the foundations + deals still to make (every card needs
  exactly one foundation move and the stock must be dealt out to win), or when it was
  already reached at a depth ``<= g``.  When it runs to the end the win is the shortest
  under the pruning rules, which all keep some shortest win, except "Cell cards onto
  their parents" (:mod:`.autoplay`), which keeps wins but not their lengths and is off
  while it runs.
"""

from __future__ import annotations

import time
from typing import Any

from .autoplay import AutoPlay
from .position import _ALL_HOME, WASTE, Move, OutOfBudget, Path, Position

__all__ = ["Search"]


class Search(AutoPlay):
    """One deal under one rule set, searched (see :class:`.position.Board` for
    ``pruning``)."""

    #: Skip the move that undoes the last one in :meth:`first_solution` (never changes
    #: what is searched: the tests compare both settings).
    skip_undo = True

    @staticmethod
    def _undo(parent: Position, child: Position, move: Move) -> Move | None:
        """The move that turns ``child`` back into exactly ``parent``, or ``None``.

        Called only when ``move`` made ``child`` from ``parent`` with no auto-play move
        after it.  A column or cell card (or run) moved to a column or cell goes back the
        same way unless the move turned a face-down card (then ``down`` is a new tuple).
        The result is the parent itself; settling it changes nothing, because every
        position on the stack is already settled (auto-play, a function of the position
        alone, has reached a fixed point there).
        So the undoing move yields the parent's key, which is in ``seen``."""
        src, dst, cnt = move
        if src >= WASTE or dst >= WASTE or child[1] is not parent[1]:
            return None
        return (dst, src, cnt)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise OutOfBudget
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def first_solution(self, node_limit: int, deadline: float) -> Path | None:
        """DFS for any win.  Returns the path (list of internal moves), ``None`` when the
        search was exhaustive, raises :class:`OutOfBudget` otherwise.  Iterative (an
        explicit stack), so deep paths cannot hit Python's recursion limit."""
        self.node_limit = node_limit
        self.deadline = deadline
        path: Path = []
        start = self.opening(path)
        if sum(start[2]) == 52:
            return path
        # Kept on the search, not only in this frame: a caller that leaves with os._exit
        # (the race's child, :mod:`.race`) then never pays for freeing it, which is half a
        # second at 250k positions, before its answer could be sent.
        self._dfs_seen = seen = {self.key(start)}
        seen_add = seen.add
        apply = self.apply
        key = self._keyfn
        settle = self.settle
        moves = self.moves
        self._tick()
        # ``_tick`` inlined: ``nodes`` is local and written back on every exit.
        nodes = self.nodes
        clock = time.perf_counter
        # A frame is [position, its moves, next index, path length, the move that undoes
        # the one that made the position, or None].  That undoing move leads back to the
        # parent position exactly (see :meth:`_undo`), which is in ``seen``: it is skipped
        # without being applied, as the key lookup would skip it.
        skip_undo = self.skip_undo
        undo = self._undo
        frames: list[list[Any]] = [[start, moves(start), 0, len(path), None]]
        pop = frames.pop
        push = frames.append
        try:
            while frames:
                frame = frames[-1]
                st, options, index, base, back = frame
                if index == len(options):
                    pop()
                    continue
                frame[2] = index + 1
                move = options[index][1:]
                if move == back:
                    continue
                del path[base:]
                path.append(move)
                child = settle(apply(st, move), move, path)
                if child[2] == _ALL_HOME:
                    return path
                k = key(child)
                if k in seen:
                    continue
                seen_add(k)
                nodes += 1
                if nodes >= node_limit:
                    raise OutOfBudget
                if not nodes & 255 and clock() > deadline:
                    raise OutOfBudget
                g = len(path)
                back = undo(st, child, move) if skip_undo and g == base + 1 else None
                push([child, moves(child), 0, g, back])
            return None
        finally:
            self.nodes = nodes

    def shorten(self, best: Path, node_limit: int, deadline: float) -> tuple[Path, bool]:
        """Branch and bound: DFS for wins shorter than ``best``, with the lower bound of
        :meth:`lower_bound` and a table of the shortest depth each position was reached at.
        Returns ``(path, exhaustive)``; stops quietly when the budget is spent."""
        self.node_limit = node_limit
        self.deadline = deadline
        # Cell cards onto their parents keeps wins, not their lengths: off here, so that
        # an exhausted search still proves the shortest win.
        cell_parent, self.cell_parent = self.cell_parent, False
        try:
            return self._shorten(best, node_limit)
        finally:
            self.cell_parent = cell_parent

    def _shorten(self, best: Path, node_limit: int) -> tuple[Path, bool]:
        bound = len(best) - 1
        path: Path = []
        start = self.opening(path)
        if len(path) + self.lower_bound(start) > bound:
            return best, True
        depth_seen = {self.key(start): len(path)}
        apply = self.apply
        key = self._keyfn
        settle = self.settle
        lower_bound = self.lower_bound
        tick = self._tick
        moves = self.moves
        try:
            tick()
            frames: list[list[Any]] = [[start, moves(start), 0, len(path)]]
            while frames:
                frame = frames[-1]
                st, options, index, base = frame
                if index == len(options):
                    frames.pop()
                    continue
                frame[2] = index + 1
                del path[base:]
                move = options[index][1:]
                path.append(move)
                child = settle(apply(st, move), move, path)
                g = len(path)
                if sum(child[2]) == 52:
                    if g <= bound:
                        best = list(path)
                        bound = g - 1
                    continue
                if g + lower_bound(child) > bound:
                    continue
                k = key(child)
                prev = depth_seen.get(k)
                if prev is not None and prev <= g:
                    continue
                depth_seen[k] = g
                tick()
                frames.append([child, moves(child), 0, g])
        except OutOfBudget:
            return best, False
        return best, True
