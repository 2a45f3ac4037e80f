"""The full state of a game, hidden cards included.

A :class:`State` is immutable: applying a move builds a new one, so the API can keep the
old state for undo and the solver can keep states in a transposition table.  Columns are
tuples of cards listed bottom first; ``down[i]`` counts the face-down cards at the bottom
of column ``i`` (face-down cards only ever lie under face-up ones).

The state never leaves the server as it is: :func:`games.engine.view.visible` is the only
view a player gets.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .cards import NAMES, NUM_CARDS, card_names, parse_card
from .errors import DeckError
from .presets import Rules

EMPTY = -1  # an empty cell


class State:
    """One position: tableau, foundations, cells, stock and waste."""

    __slots__ = ("rules", "cols", "down", "found", "cells", "stock", "waste")

    def __init__(
        self,
        rules: Rules,
        cols: tuple[tuple[int, ...], ...],
        down: tuple[int, ...],
        found: tuple[int, ...],
        cells: tuple[int, ...] = (),
        stock: tuple[int, ...] = (),
        waste: tuple[int, ...] = (),
    ) -> None:
        self.rules = rules
        self.cols = cols
        self.down = down
        #: Cards on each suit's foundation (0 … 13), indexed like ``cards.SUITS``.
        self.found = found
        self.cells = cells
        #: Undealt cards, the next one out first.
        self.stock = stock
        #: Westcliff's waste, top card last.
        self.waste = waste

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"State({self.rules.key}, {state_to_json(self)})"

    def _fields(self) -> tuple[Any, ...]:
        return (self.rules, self.cols, self.down, self.found, self.cells, self.stock, self.waste)

    def all_cards(self) -> list[int]:
        """Every card somewhere in the state except the foundations' (which are implied)."""
        cards = [c for col in self.cols for c in col]
        cards += [c for c in self.cells if c != EMPTY]
        cards += self.stock
        cards += self.waste
        return cards


def new_game(rules: Rules, deck: Sequence[int]) -> State:
    """The opening position of ``deck`` under ``rules``, laid out as RULES.md prescribes.

    Easthaven and Westcliff: row ``r`` of column ``c`` is ``deck[r * N + c]``, the first
    ``face_down_rows`` rows face down, the rest is the stock with ``deck[3N]`` next out.
    Seahaven: ten columns of five, then ``deck[50]`` to cell ``c1`` and ``deck[51]`` to ``c2``.
    """
    check_deck(deck)
    n = rules.columns
    cols = tuple(tuple(deck[r * n + c] for r in range(rules.rows)) for c in range(n))
    dealt = n * rules.rows
    cells: tuple[int, ...] = ()
    if rules.cells:
        cells = (EMPTY, deck[dealt], deck[dealt + 1], EMPTY)
        dealt += 2
    return State(
        rules,
        cols,
        down=(rules.face_down_rows,) * n,
        found=(0, 0, 0, 0),
        cells=cells,
        stock=tuple(deck[dealt:]),
        waste=(),
    )


def check_deck(deck: Sequence[int]) -> None:
    if len(deck) != NUM_CARDS or set(deck) != set(range(NUM_CARDS)):
        raise DeckError("invalid_deck", "a deck is 52 distinct cards")


def state_to_json(state: State) -> dict[str, Any]:
    """The full state as JSON, for the database only (it contains every hidden card)."""
    return {
        "cols": [card_names(col) for col in state.cols],
        "down": list(state.down),
        "found": list(state.found),
        "cells": [NAMES[c] if c != EMPTY else None for c in state.cells],
        "stock": card_names(state.stock),
        "waste": card_names(state.waste),
    }


def state_from_json(rules: Rules, data: dict[str, Any]) -> State:
    """Inverse of :func:`state_to_json`."""
    return State(
        rules,
        cols=tuple(tuple(parse_card(c) for c in col) for col in data["cols"]),
        down=tuple(data["down"]),
        found=tuple(data["found"]),
        cells=tuple(parse_card(c) if c else EMPTY for c in data["cells"]),
        stock=tuple(parse_card(c) for c in data["stock"]),
        waste=tuple(parse_card(c) for c in data["waste"]),
    )


def state_key(state: State) -> bytes:
    """A compact key of the position for transposition tables.

    Two states with the same key are the same game from here on: where the preset never
    deals onto columns by position (Westcliff, Seahaven) the columns are sorted, and the
    cells are sorted too, since neither order changes which moves are possible.  The stock
    is a fixed sequence, so its length identifies it.
    """
    cols = [bytes((d,)) + bytes(col) for d, col in zip(state.down, state.cols)]
    if state.rules.columns_interchangeable:
        cols.sort()
    cells = bytes(sorted(c + 1 for c in state.cells))
    parts = [bytes(state.found), cells, bytes((len(state.stock),)), bytes(state.waste), *cols]
    return b"|".join(parts)


def state_hash(state: State) -> str:
    """A short stable fingerprint of the exact position (not canonicalised), for move logs."""
    data = repr(state_to_json(state)).encode()
    return hashlib.blake2b(data, digest_size=12).hexdigest()


def foundation_cards(state: State) -> int:
    return sum(state.found)
