"""Translation between the search's internal moves (:mod:`.position`) and the API's move
dicts, which the engine replays (``{"type": "move", "from": "t3", "to": "f", "count": 1}``,
``{"type": "deal"}``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .position import CELL0, DEAL, FOUND, WASTE, Move

__all__ = ["from_api", "to_api"]


def _pile(p: int) -> str:
    if p < CELL0:
        return f"t{p}"
    if p < WASTE:
        return f"c{p - CELL0}"
    if p == WASTE:
        return "w"
    return "f"


def to_api(path: Sequence[Move]) -> list[dict[str, Any]]:
    """Internal moves → the API's move dicts."""
    out: list[dict[str, Any]] = []
    for src, dst, cnt in path:
        if src == DEAL:
            out.append({"type": "deal"})
        else:
            out.append({"type": "move", "from": _pile(src), "to": _pile(dst), "count": cnt})
    return out


_PILE_IDS = {
    **{f"t{i}": i for i in range(10)},
    **{f"c{k}": CELL0 + k for k in range(4)},
    "w": WASTE,
    "f": FOUND,
}


def from_api(moves: Sequence[dict[str, Any]]) -> list[Move]:
    """The API's move dicts → internal moves (inverse of :func:`to_api`)."""
    return [
        (DEAL, DEAL, 0)
        if m["type"] == "deal"
        else (_PILE_IDS[m["from"]], _PILE_IDS[m["to"]], m["count"])
        for m in moves
    ]
