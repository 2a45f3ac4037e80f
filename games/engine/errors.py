"""Engine errors: each carries a stable machine-readable ``code`` and a human ``detail``.

The API turns them into problem details without knowing the engine's internals, so the
codes are part of the contract: add new ones, never rename old ones.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "engine_error"

    def __init__(self, code: str | None = None, detail: str = "") -> None:
        if code is not None:
            self.code = code
        self.detail = detail or self.code
        super().__init__(self.detail)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.detail!r})"


class RulesError(EngineError):
    """An unknown preset or option, or an option value of the wrong type."""


class DeckError(EngineError):
    """A deck that is not 52 distinct cards, or a seed / deal number out of range."""


class MoveFormatError(EngineError):
    """Something that is not a move at all (the API answers 400)."""

    code = "invalid_move"


class IllegalMove(EngineError):
    """A well-formed move that the rules refuse; ``code`` names the rule (the API answers 422)."""
