"""Moves in the API's JSON form and in a compact text form.

JSON (API.md): ``{"type": "move", "from": "t3", "to": "t5", "count": 2}``, ``{"type": "deal"}``,
and the server-side moves ``{"type": "undo"}`` and ``{"type": "resign"}``.

Text (logs, command line), after fc-solve's terse notation: ``t3-t5x2``, ``t3-f``, ``w-t0``,
``c1-t4``, ``deal``, ``undo``, ``resign``; ``x1`` is left out.  Both forms round-trip.

Parsing checks only the *shape* of a move (pile ids that exist in some preset, a count
that is a positive integer); whether the preset has that pile and the rules allow the move
is the job of :func:`games.engine.game.apply_move`.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from .errors import MoveFormatError

MOVE = "move"
DEAL = "deal"
UNDO = "undo"
RESIGN = "resign"
TYPES = (MOVE, DEAL, UNDO, RESIGN)

FOUNDATION = "f"
WASTE = "w"
STOCK = "s"
_PILE = re.compile(r"^(?:t[0-9]|c[0-3]|f|w|s)$")
_TEXT = re.compile(r"^(t[0-9]|c[0-3]|f|w|s)-(t[0-9]|c[0-3]|f|w|s)(?:x([0-9]{1,2}))?$")
MAX_COUNT = 52


class Move(NamedTuple):
    """One move; ``src`` and ``dst`` are pile ids, ``count`` the number of cards."""

    type: str
    src: str | None = None
    dst: str | None = None
    count: int = 1  # type: ignore[assignment]  # the field shadows tuple.count

    def to_dict(self) -> dict[str, Any]:
        if self.type != MOVE:
            return {"type": self.type}
        return {"type": MOVE, "from": self.src, "to": self.dst, "count": self.count}

    def __str__(self) -> str:
        if self.type != MOVE:
            return self.type
        suffix = f"x{self.count}" if self.count != 1 else ""
        return f"{self.src}-{self.dst}{suffix}"

    @classmethod
    def from_dict(cls, data: Any) -> Move:
        """Parse the API form; ``MoveFormatError`` if ``data`` is not a move at all."""
        if not isinstance(data, dict):
            raise MoveFormatError(detail="a move is a JSON object with a 'type'")
        kind = data.get("type")
        if kind not in TYPES:
            raise MoveFormatError(detail=f"'type' must be one of {', '.join(TYPES)}")
        extra = set(data) - ({"type", "from", "to", "count"} if kind == MOVE else {"type"})
        if extra:
            raise MoveFormatError(detail=f"unexpected field(s) {', '.join(sorted(extra))}")
        if kind != MOVE:
            return cls(kind, None, None, 0)
        src, dst = data.get("from"), data.get("to")
        for name, pile in (("from", src), ("to", dst)):
            if not isinstance(pile, str) or not _PILE.match(pile):
                raise MoveFormatError(
                    detail=f"'{name}' must be a pile id: t0…t9, c0…c3, f, w or s",
                )
        count = data.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise MoveFormatError(detail="'count' must be an integer from 1 to 52")
        return cls(MOVE, src, dst, count)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the text form (``t3-t5x2``, ``deal``)."""
        text = text.strip().lower()
        if text in (DEAL, UNDO, RESIGN):
            return cls(text, None, None, 0)
        match = _TEXT.match(text)
        if not match or (match.group(3) is not None and not 1 <= int(match.group(3)) <= 52):
            raise MoveFormatError(detail=f"{text!r} is not a move (e.g. t3-t5x2, t3-f, deal)")
        src, dst, count = match.groups()
        return cls(MOVE, src, dst, int(count) if count else 1)


def deal() -> Move:
    return Move(DEAL, None, None, 0)
