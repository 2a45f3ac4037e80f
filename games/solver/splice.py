"""Exact, cheap shortening of a found solution: cut its cycles and take its shortcuts.

A depth-first search finds long wins: it wanders through many positions (moving a card
back and forth, shuffling runs between columns) before it finds the way on.  Branch and
bound from the start can hardly improve a bound of thousands of moves within a budget, so
the daily deal's par would be absurd.  This pass runs first, on the engine's own states:

* **Cycles**: where the path reaches a position it reaches again later, everything between
  is dropped (the position is the same, so the rest of the path still applies).
* **Shortcuts**: from each position on the path, every legal move is tried; if one leads
  to a position further along the path than the next, the path jumps there.

Positions are compared exactly (no canonical column order), because the remaining moves
name columns and cells by position.  Cutting cycles costs one ``apply_move`` per move and
is always done; shortcuts cost a ``legal_moves`` and its ``apply_move`` calls per position
and are taken only until the deadline.  Passes repeat while they shorten the path.
The result replays through the engine by construction and is never longer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from games.engine import Move, State, apply_move, legal_moves


def _exact_key(state: State) -> tuple[Any, ...]:
    return (state.cols, state.down, state.found, state.cells, len(state.stock), state.waste)


def splice(
    start: State, moves: Sequence[Move], deadline: float = float("inf"), passes: int = 4
) -> list[Move]:
    """A win from ``start`` no longer than ``moves`` (itself a win from ``start``)."""
    path = list(moves)
    for _ in range(passes):
        shorter = _one_pass(start, path, deadline)
        if len(shorter) >= len(path):
            break
        path = shorter
    return path


def _one_pass(start: State, moves: list[Move], deadline: float) -> list[Move]:
    states = [start]
    for move in moves:
        states.append(apply_move(states[-1], move))
    last_seen: dict[tuple[Any, ...], int] = {}
    keys = [_exact_key(s) for s in states]
    for index, key in enumerate(keys):
        last_seen[key] = index
    out: list[Move] = []
    i = 0
    end = len(moves)
    while i < end:
        latest = last_seen[keys[i]]
        if latest > i:  # a cycle: skip it
            i = latest
            continue
        best_index, best_move = i + 1, moves[i]
        if time.perf_counter() < deadline:  # shortcuts while time lasts; cycles always
            here = states[i]
            for move in legal_moves(here):
                reached = last_seen.get(_exact_key(apply_move(here, move)))
                if reached is not None and reached > best_index:
                    best_index, best_move = reached, move
        out.append(best_move)
        i = best_index
    return out


def splice_api(
    start: State, moves: Sequence[dict[str, Any]], deadline: float
) -> list[dict[str, Any]]:
    """:func:`splice` for moves in the API's JSON form."""
    spliced = splice(start, [Move.from_dict(m) for m in moves], deadline)
    return [m.to_dict() for m in spliced]
