"""The rules: which moves are legal, what a move does, and when a game is over.

Everything here reads the preset's :class:`~games.engine.presets.Rules`, so one code path
serves all six presets.  ``legal_moves`` is the hot path of the solver: it works on the
integer cards and precomputed tables, and builds each :class:`Move` once.

Refusal codes (``IllegalMove.code``), stable for clients:

=====================  ===============================================================
``no_such_pile``       the preset has no such pile (``w`` in Seahaven, ``t9`` in Easthaven)
``same_pile``          a card cannot move onto its own pile
``foundation_locked``  foundation cards never come back
``not_a_source``       the stock is dealt with ``{"type": "deal"}``, not moved from
``not_a_target``       nothing may be put on the stock or the waste
``empty_pile``         there is no card to move
``single_card_only``   cells, the waste and the foundations move and take one card
``not_enough_cards``   the column has fewer cards than ``count``
``face_down``          the move would take a face-down card
``not_a_run``          the cards are not a correct run (descending, built as the preset builds)
``partial_run``        only the top card or all face-up cards move (``partial_runs`` is off)
``run_too_long``       Seahaven: more cards than free cells and spaces allow
``foundation_order``   a foundation takes the next card of its suit, Ace first
``cell_occupied``      a cell holds one card
``space_needs_king``   this preset fills spaces with a King or a King-headed run only
``not_descending``     the moved card must be one rank below the target card
``wrong_colour``       the moved card must be of the other colour than the target card
``wrong_suit``         the moved card must be of the target card's suit
``no_stock``           this preset has no stock
``stock_empty``        the stock has been dealt out
``must_fill_space``    Easthaven: fill every space a King can fill before dealing
``not_an_engine_move`` undo and resign are handled by the server, not the rules
``game_over``          the game is won or lost; no move applies
=====================  ===============================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import NAMES, RANK, RED, SUIT, SUITS
from .errors import EngineError, IllegalMove, MoveFormatError
from .moves import DEAL, FOUNDATION, MAX_COUNT, MOVE, Move
from .presets import (
    ALTERNATE,
    RUNS_SUPERMOVE,
    SPACE_KING,
    STOCK_NONE,
    STOCK_ROWS,
    Rules,
)
from .state import EMPTY, State, new_game

KING = 12
_T = tuple(f"t{i}" for i in range(10))
_C = tuple(f"c{i}" for i in range(4))
_PILE_IDS = frozenset((*_T, *_C, FOUNDATION, "w", "s"))
_DEAL = Move(DEAL, None, None, 0)


def _fits_table(build: str) -> tuple[bool, ...]:
    """``table[below * 52 + above]``: may ``above`` lie on ``below`` in a built column?"""
    table = []
    for below in range(52):
        for above in range(52):
            ok = RANK[above] == RANK[below] - 1 and (
                RED[above] != RED[below] if build == ALTERNATE else SUIT[above] == SUIT[below]
            )
            table.append(ok)
    return tuple(table)


_FITS = {"alternate": _fits_table("alternate"), "suit": _fits_table("suit")}

WON = "won"
LOST = "lost"
PLAYING = "playing"


def run_length(col: Sequence[int], down: int, fits: Sequence[bool]) -> int:
    """How many face-up cards at the top of ``col`` form a correct run (0 for an empty column)."""
    if not col:
        return 0
    n = 1
    i = len(col) - 1
    while i > down and fits[col[i - 1] * 52 + col[i]]:
        n += 1
        i -= 1
    return n


def movable_counts(state: State, i: int) -> Sequence[int]:
    """The run lengths that may leave column ``i``, before any target is considered."""
    col = state.cols[i]
    if not col:
        return ()
    rules = state.rules
    down = state.down[i]
    length = run_length(col, down, _FITS[rules.build])
    if rules.runs == RUNS_SUPERMOVE or rules.partial_runs:
        return range(1, length + 1)
    up = len(col) - down
    if length == up and up > 1:
        return (1, up)
    return (1,)


def supermove_capacity(state: State, target_empty: bool) -> int:
    """Seahaven: the longest run that may move, given free cells and empty columns."""
    free_cells = state.cells.count(EMPTY)
    if state.rules.classic_supermove:
        return free_cells + 1
    spaces = sum(1 for col in state.cols if not col) - (1 if target_empty else 0)
    return (free_cells + 1) << spaces


def legal_moves(state: State) -> list[Move]:
    """Every legal move exactly once, in the canonical form of API.md.

    Order: sources ``t0`` … ``t9``, ``w``, ``c0`` … ``c3``; for each, the foundation, then
    columns left to right (by count), then empty cells; ``deal`` last.
    """
    rules = state.rules
    if sum(state.found) == 52:
        return []
    cols = state.cols
    found: tuple[int, ...] = state.found
    fits = _FITS[rules.build]
    king_only = rules.space == SPACE_KING
    supermove = rules.runs == RUNS_SUPERMOVE
    free_cells = [k for k, c in enumerate(state.cells) if c == EMPTY]
    ncols = len(cols)
    targets = [(j, col[-1] if col else -1) for j, col in enumerate(cols)]
    moves: list[Move] = []
    append = moves.append

    def to_columns(src: str, card: int, skip: int) -> None:
        for j, top in targets:
            if j == skip:
                continue
            if top < 0:
                if king_only and RANK[card] != KING:
                    continue
            elif not fits[top * 52 + card]:
                continue
            append(Move(MOVE, src, _T[j], 1))

    for i in range(ncols):
        col = cols[i]
        if not col:
            continue
        top = col[-1]
        src = _T[i]
        if found[SUIT[top]] == RANK[top]:
            append(Move(MOVE, src, FOUNDATION, 1))
        counts = movable_counts(state, i)
        capacity = {}
        for count in counts:
            first = col[-count]
            for j, dtop in targets:
                if j == i:
                    continue
                if dtop < 0:
                    if king_only and RANK[first] != KING:
                        continue
                elif not fits[dtop * 52 + first]:
                    continue
                if supermove and count > 1:
                    empty = dtop < 0
                    if empty not in capacity:
                        capacity[empty] = supermove_capacity(state, empty)
                    if count > capacity[empty]:
                        continue
                append(Move(MOVE, src, _T[j], count))
        for k in free_cells:
            append(Move(MOVE, src, _C[k], 1))

    if state.waste:
        card = state.waste[-1]
        if found[SUIT[card]] == RANK[card]:
            append(Move(MOVE, "w", FOUNDATION, 1))
        to_columns("w", card, -1)

    for k, card in enumerate(state.cells):
        if card == EMPTY:
            continue
        src = _C[k]
        if found[SUIT[card]] == RANK[card]:
            append(Move(MOVE, src, FOUNDATION, 1))
        to_columns(src, card, -1)
        for free in free_cells:
            append(Move(MOVE, src, _C[free], 1))

    if state.stock and not (rules.king_fill_before_deal and _king_could_fill(state)):
        append(_DEAL)
    return moves


def _king_could_fill(state: State) -> bool:
    """Easthaven: is there a space, and a King (or King-headed run) lying on another card
    that may legally move into it?  Then the stock may not be dealt."""
    cols = state.cols
    if all(cols):
        return False
    for i, col in enumerate(cols):
        for count in movable_counts(state, i):
            if count < len(col) and RANK[col[-count]] == KING:
                return True
    return False


def _pile(state: State, pile: str | None) -> tuple[str, int]:
    """``"t3"`` → ``("t", 3)``, checking that the preset has the pile."""
    rules = state.rules
    if pile is None:
        raise MoveFormatError(detail="a move needs 'from' and 'to'")
    if pile not in _PILE_IDS:
        raise MoveFormatError(detail=f"{pile!r} is not a pile id: t0…t9, c0…c3, f, w or s")
    kind = pile[0]
    index = int(pile[1:]) if len(pile) > 1 else 0
    exists = (
        (kind == "t" and index < rules.columns)
        or (kind == "c" and index < rules.cells)
        or kind == "f"
        or (kind == "w" and rules.has_waste)
        or (kind == "s" and rules.stock != STOCK_NONE)
    )
    if not exists:
        raise IllegalMove("no_such_pile", f"{rules.title} has no pile {pile!r}")
    return kind, index


def apply_move(state: State, move: Move) -> State:
    """The state after ``move``, or ``IllegalMove`` naming the rule it breaks."""
    if move.type == DEAL:
        return _deal(state)
    if move.type != MOVE:
        raise IllegalMove("not_an_engine_move", f"{move.type!r} is handled by the server")
    if sum(state.found) == 52:
        raise IllegalMove("game_over", "the game is won")
    src_kind, src_index = _pile(state, move.src)
    dst_kind, dst_index = _pile(state, move.dst)
    count = move.count
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise MoveFormatError(detail="'count' must be an integer from 1 to 52")
    if move.src == move.dst:
        raise IllegalMove("same_pile", "a card cannot move onto its own pile")
    if src_kind == "f":
        raise IllegalMove("foundation_locked", "foundation cards never come back")
    if src_kind == "s":
        raise IllegalMove("not_a_source", "the stock is dealt with {'type': 'deal'}")
    if dst_kind in "sw":
        raise IllegalMove("not_a_target", f"nothing may be put on {move.dst!r}")

    rules = state.rules
    cols = list(state.cols)
    down = list(state.down)
    cells = list(state.cells)
    waste = state.waste

    # Take the cards from the source.
    if src_kind == "t":
        col = cols[src_index]
        if not col:
            raise IllegalMove("empty_pile", f"{move.src} is empty")
        _check_run(state, src_index, count)
        moved = col[-count:]
        rest = col[:-count]
        cols[src_index] = rest
        if rest and len(rest) == down[src_index]:
            down[src_index] -= 1  # the new top card turns face up
    else:
        if count != 1:
            raise IllegalMove("single_card_only", f"{move.src} gives one card at a time")
        if src_kind == "w":
            if not waste:
                raise IllegalMove("empty_pile", "the waste is empty")
            moved = waste[-1:]
            waste = waste[:-1]
        else:
            if cells[src_index] == EMPTY:
                raise IllegalMove("empty_pile", f"{move.src} is empty")
            moved = (cells[src_index],)
            cells[src_index] = EMPTY
    first = moved[0]

    # Put them on the target.
    found = state.found
    if dst_kind == "f":
        if count != 1:
            raise IllegalMove("single_card_only", "a foundation takes one card at a time")
        suit = SUIT[first]
        if found[suit] != RANK[first]:
            need = "an Ace" if found[suit] == 0 else NAMES[suit * 13 + found[suit]]
            raise IllegalMove(
                "foundation_order",
                f"the {SUITS[suit]} foundation takes {need} next, not {NAMES[first]}",
            )
        found = found[:suit] + (found[suit] + 1,) + found[suit + 1 :]
    elif dst_kind == "c":
        if count != 1:
            raise IllegalMove("single_card_only", "a cell holds one card")
        if cells[dst_index] != EMPTY:
            raise IllegalMove("cell_occupied", f"{move.dst} is not empty")
        cells[dst_index] = first
    else:
        target = state.cols[dst_index]
        if not target:
            if rules.space == SPACE_KING and RANK[first] != KING:
                raise IllegalMove(
                    "space_needs_king", "only a King or a King-headed run may fill a space"
                )
        else:
            _check_build(rules, target[-1], first)
        if rules.runs == RUNS_SUPERMOVE and count > 1:
            capacity = supermove_capacity(state, target_empty=not target)
            if count > capacity:
                raise IllegalMove(
                    "run_too_long",
                    f"with these free cells and spaces at most {capacity} cards move together",
                )
        cols[dst_index] = target + moved

    return State(rules, tuple(cols), tuple(down), found, tuple(cells), state.stock, waste)


def _check_run(state: State, i: int, count: int) -> None:
    """May the top ``count`` cards of column ``i`` leave it together?"""
    col = state.cols[i]
    up = len(col) - state.down[i]
    if count > len(col):
        raise IllegalMove("not_enough_cards", f"t{i} has only {len(col)} cards")
    if count > up:
        raise IllegalMove("face_down", f"t{i} has only {up} face-up cards")
    if count == 1:
        return
    rules = state.rules
    length = run_length(col, state.down[i], _FITS[rules.build])
    if count > length:
        how = "in alternate colours" if rules.build == ALTERNATE else "in suit"
        raise IllegalMove("not_a_run", f"the top {count} cards of t{i} are not a run down {how}")
    if rules.runs != RUNS_SUPERMOVE and not rules.partial_runs and count != up:
        raise IllegalMove(
            "partial_run", "only the top card or all face-up cards may move (no partial runs)"
        )


def _check_build(rules: Rules, below: int, above: int) -> None:
    if RANK[above] != RANK[below] - 1:
        raise IllegalMove("not_descending", f"{NAMES[above]} is not one rank below {NAMES[below]}")
    if rules.build == ALTERNATE:
        if RED[above] == RED[below]:
            raise IllegalMove(
                "wrong_colour", f"{NAMES[above]} must be the other colour than {NAMES[below]}"
            )
    elif SUIT[above] != SUIT[below]:
        raise IllegalMove("wrong_suit", f"{NAMES[above]} must be of the suit of {NAMES[below]}")


def _deal(state: State) -> State:
    rules = state.rules
    if rules.stock == STOCK_NONE:
        raise IllegalMove("no_stock", f"{rules.title} has no stock")
    if not state.stock:
        raise IllegalMove("stock_empty", "the stock has been dealt out")
    if rules.king_fill_before_deal and _king_could_fill(state):
        raise IllegalMove(
            "must_fill_space", "fill every space a King can fill before dealing a new row"
        )
    if rules.stock == STOCK_ROWS:
        n = min(len(state.cols), len(state.stock))
        cols = tuple(col + (state.stock[i],) if i < n else col for i, col in enumerate(state.cols))
        return State(rules, cols, state.down, state.found, state.cells, state.stock[n:], ())
    return State(
        rules,
        state.cols,
        state.down,
        state.found,
        state.cells,
        state.stock[1:],
        state.waste + state.stock[:1],
    )


def is_legal(state: State, move: Move) -> bool:
    try:
        apply_move(state, move)
    except IllegalMove:
        return False
    return True


def status(state: State) -> str:
    """``won``, ``lost`` (stock empty and no legal move) or ``playing``."""
    if sum(state.found) == 52:
        return WON
    if state.stock or legal_moves(state):
        return PLAYING
    return LOST


def reveals_hidden(state: State, move: Move) -> bool:
    """Does ``move`` show a card the player has not seen (a deal, or turning a face-down
    card)?  Such moves cannot be undone in a ranked play."""
    if move.type == DEAL:
        return True
    if move.type != MOVE or not move.src or move.src[0] != "t":
        return False
    i = int(move.src[1:])
    if i >= len(state.cols):
        return False
    rest = len(state.cols[i]) - move.count
    return 0 < rest == state.down[i]


def coerce_move(move: Move | dict[str, Any] | str) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    return Move.from_dict(move)


def replay(
    rules: Rules, deck: Sequence[int], moves: Iterable[Move | dict[str, Any] | str]
) -> tuple[State, int | None, EngineError | None]:
    """Play ``moves`` from the deal of ``deck``.

    Returns the last state reached, and the index of the first move that could not be
    applied with its error (``None, None`` when every move applied).
    """
    state = new_game(rules, deck)
    for index, raw in enumerate(moves):
        try:
            state = apply_move(state, coerce_move(raw))
        except (IllegalMove, MoveFormatError) as error:
            return state, index, error
    return state, None, None
