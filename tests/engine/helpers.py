"""Hand-built positions and short assertions for the engine tests (no Django, no database)."""

from __future__ import annotations

import pytest

from games.engine import (
    EMPTY,
    IllegalMove,
    Move,
    State,
    apply_move,
    get_rules,
    legal_moves,
    parse_card,
)

SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
RANKS = "A23456789TJQK"


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def position(
    preset: str,
    cols: list[str] = (),
    down: list[int] | None = None,
    found: dict[str, int | str] | None = None,
    cells: list[str | None] | None = None,
    stock: str = "",
    waste: str = "",
    options: dict | None = None,
) -> State:
    """A :class:`State` built directly from card names.

    ``cols`` lists columns bottom first as ``"KS QH"``; a ``|`` marks where the face-up part
    starts (``"2C 3D | KS QH"`` has two face-down cards) unless ``down`` is given.  Missing
    columns are empty.  ``found`` maps a suit to its top card (``"3S"``) or a count.  Cards
    nowhere named are simply absent: positions need not hold all 52 cards.
    """
    rules = get_rules(preset, options)
    columns: list[tuple[int, ...]] = []
    downs: list[int] = []
    for text in cols:
        if "|" in text:
            hidden, shown = text.split("|")
            columns.append(cards(hidden) + cards(shown))
            downs.append(len(hidden.split()))
        else:
            columns.append(cards(text))
            downs.append(0)
    assert len(columns) <= rules.columns, "more columns than the preset has"
    while len(columns) < rules.columns:
        columns.append(())
        downs.append(0)
    if down is not None:
        downs = list(down) + [0] * (rules.columns - len(down))
    counts = [0, 0, 0, 0]
    for suit, top in (found or {}).items():
        counts[SUIT_INDEX[suit]] = top if isinstance(top, int) else RANKS.index(top[0]) + 1
    cell_cards: tuple[int, ...] = ()
    if rules.cells:
        given = list(cells or [])
        given += [None] * (rules.cells - len(given))
        cell_cards = tuple(parse_card(c) if c else EMPTY for c in given)
    else:
        assert not cells, "this preset has no cells"
    return State(
        rules,
        tuple(columns),
        tuple(downs),
        tuple(counts),
        cell_cards,
        cards(stock),
        cards(waste),
    )


def mv(text: str) -> Move:
    """``"t3-t5x2"`` → Move."""
    return Move.parse(text)


def legal(state: State) -> set[str]:
    """The legal moves as a set of text forms."""
    return {str(m) for m in legal_moves(state)}


def ok(state: State, move: str) -> State:
    """Assert ``move`` is listed and applies; return the new state."""
    m = mv(move)
    assert m in legal_moves(state), f"{move} not listed in {sorted(legal(state))}"
    return apply_move(state, m)


def refused(state: State, move: str, code: str) -> None:
    """Assert ``move`` is not listed and that applying it raises ``IllegalMove(code)``."""
    m = mv(move)
    assert m not in legal_moves(state), f"{move} is listed but should be refused ({code})"
    with pytest.raises(IllegalMove) as info:
        apply_move(state, m)
    assert info.value.code == code, f"{move}: {info.value.code} ({info.value.detail}), not {code}"


def col(state: State, i: int) -> list[str]:
    from games.engine import card_name

    return [card_name(c) for c in state.cols[i]]
