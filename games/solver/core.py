"""The search, assembled: :class:`Search` and the names of its positions and moves.

The search is a stack of classes, one concern and one module each, every one building on
the one below it:

* :mod:`.position`: the compact position and move, the rule tables, :meth:`apply`, the
  transposition key and the pruning rules that live in it;
* :mod:`.deadends` (and :mod:`.deadrows`): dead ends by a relaxation;
* :mod:`.movegen`: move generation, with its pruning rules and move order;
* :mod:`.autoplay`: settling a position (safe auto-play, cell cards onto their parents);
* :mod:`.dfs`: depth-first search and branch-and-bound shortening, :class:`Search`.

Each module's docstring states its pruning rules and why each is sound.  The searches
built on :class:`Search` live beside it: :mod:`.bestfirst`, :mod:`.dives`, :mod:`.race`.
"""

from __future__ import annotations

from .dfs import Search
from .position import (
    _ALL_HOME,
    CELL0,
    DEAL,
    FOUND,
    INF,
    KING,
    OTHER_COLOUR,
    RANK,
    RED,
    SPACE_BIT,
    SUIT,
    WASTE,
    Move,
    OutOfBudget,
    Path,
    Position,
)

__all__ = [
    "_ALL_HOME",
    "CELL0",
    "DEAL",
    "FOUND",
    "INF",
    "KING",
    "OTHER_COLOUR",
    "RANK",
    "RED",
    "SPACE_BIT",
    "SUIT",
    "WASTE",
    "Move",
    "OutOfBudget",
    "Path",
    "Position",
    "Search",
]
