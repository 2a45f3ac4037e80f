"""What a player may see of a state.

This is the only way a state leaves the server: face-down cards and the stock's order
are reduced to counts, so no response can leak them by accident.
"""

from __future__ import annotations

from typing import Any

from .cards import NAMES, SUITS
from .game import legal_moves
from .state import EMPTY, State


def visible(state: State, with_moves: bool = True) -> dict[str, Any]:
    """The player's view: columns as ``{"down": n, "up": [...]}``, foundations by suit (top
    card or ``None``), cells (Seahaven), the stock's size, the waste (Westcliff) and, unless
    ``with_moves`` is false, the legal moves."""
    view: dict[str, Any] = {
        "tableau": [
            {"down": down, "up": [NAMES[c] for c in col[down:]]}
            for col, down in zip(state.cols, state.down)
        ],
        "foundations": {
            suit: (NAMES[i * 13 + n - 1] if n else None)
            for i, (suit, n) in enumerate(zip(SUITS, state.found))
        },
    }
    if state.rules.cells:
        view["cells"] = [NAMES[c] if c != EMPTY else None for c in state.cells]
    view["stock"] = len(state.stock)
    if state.rules.has_waste:
        view["waste"] = [NAMES[c] for c in state.waste]
    if with_moves:
        view["legal_moves"] = [move.to_dict() for move in legal_moves(state)]
    return view
