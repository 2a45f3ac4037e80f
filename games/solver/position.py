"""The search's compact positions and moves, the rule tables, applying a move, and the
transposition key with the pruning rules that live in it.

The search (:class:`.core.Search`) is a stack of classes, one concern each, every one
building on the one below it: :class:`Board` (here), :class:`.deadends.DeadEnds`,
:class:`.movegen.MoveGen`, :class:`.autoplay.AutoPlay` and :class:`.dfs.Search`.  Classes
rather than functions: the hot loops bind the methods they call to locals once, so the
stack costs them nothing measurable (``bench/README.md``, 2026-12-03).

Internal position: a plain tuple ``(cols, down, found, cells, dealt, waste)``

* ``cols``  – tuple of columns, each a ``bytes`` of cards, bottom first (cards are the
  engine's ints 0…51, one byte each): a ``bytes`` caches its hash and compares with one
  ``memcmp``, and every position's key, the column caches and the heuristic's caches hash
  and compare columns; tuples of ints hash every card every time (about 8-15 % of the
  time per position on Easthaven and Westcliff);
* ``down``  – tuple of face-down counts per column;
* ``found`` – tuple of four foundation heights (0…13), suits in ``SHDC`` order;
* ``cells`` – tuple of four cards or ``-1`` (Seahaven), ``()`` otherwise;
* ``dealt`` – how many stock cards have left the stock (the stock is a fixed sequence);
* ``waste`` – Westcliff's waste, top last (``bytes`` too).

Internal move: ``(src, dst, count)`` with piles encoded as ints: columns ``0…9``, cells
``10…13``, waste ``20``, foundation ``30``; a deal is ``(DEAL, DEAL, 0)``.  Moves keep the
*actual* pile indices (canonical order is used only for keys), so a path translates
one-to-one into the engine's API moves (:mod:`.translate`).

Pruning rules of the key (all off with ``pruning=False``) and why each is sound
===============================================================================

A rule is sound when every win from the position before it still has a win (no longer)
after it; then ``unwinnable`` stays a proof and the shortening stays exact.  The other
rules and their proofs are in :mod:`.autoplay`, :mod:`.movegen`, :mod:`.deadends` and
:mod:`.deadrows`.

* **Transposition table.**  Positions are keyed by everything that decides the future:
  foundations, cells, stock position (the stock is a fixed sequence, so the number of
  cards dealt identifies it), waste, columns with their face-down counts.  Revisiting a
  key adds nothing (first search) or nothing shorter (when reached again at a depth not
  smaller, in branch and bound).
* **Canonical column order** where ``rules.columns_interchangeable`` (Westcliff, Seahaven):
  no rule reads a column's position there (no row deals), so a permutation of the columns
  is the same game: keys sort the columns.  In Easthaven presets row deals read positions:
  see the next rule.
* **Columns no deal reaches any more** (Easthaven presets, row deals): with ``left`` cards
  in the stock, the deals still to come put cards on ``t0`` … ``t(left-1)`` only (every
  column while ``left >= 7``; ``t0``–``t2`` for the last deal of 3; none once the stock is
  empty).  The columns from ``t(left)`` on are read by no rule any more: a deal does not
  reach them, and the King-fill rule asks only whether *some* column is empty and *some*
  King could fill it, never which.  So permuting those columns (with their face-down
  cards) maps every legal move sequence to a legal one, the piles relabelled, with the same
  foundation moves: keys sort those columns (the others stay in place), only the first
  space among them is a target, and a whole column among them is not moved into a space
  among them (a permutation, the same key; :mod:`.movegen`).  Moves keep the actual pile
  indices.
* **Canonical cell order** (Seahaven): a cell's index is read by no rule, so keys sort the
  cells; consequently a cell-to-cell move (same key as before) is not generated, and a
  card going to a cell is tried in the first empty cell only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine import State

# Type aliases are evaluated at run time: builtin generics only, no ``X | Y`` (the worker
# interpreter may be Python 3.9, see :mod:`.worker`).

#: A position (see the module notes): columns, face-down counts, foundations, cells, cards
#: dealt, waste.
Position = tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, bytes]
#: A move ``(src, dst, count)``; a path is a list of them.
Move = tuple[int, int, int]
Path = list[Move]
#: A generated move with its score first: ``(score, src, dst, count)``.
ScoredMove = tuple[int, int, int, int]
#: One way to leave a column: ``(count, the cards its lowest card fits on, score onto a
#: card, may go to a space, score into a space, score into a cell)``.
Exit = tuple[int, tuple[int, ...], int, bool, int, int]
#: The dead-end relaxation's table of one column, ``(wake, lows, adds, owns)``
#: (:meth:`.deadends.DeadEnds._dead_column`), or ``()`` without the check.
Strip = tuple[tuple[int, ...], ...]
#: What may leave a column, independent of the rest of the position
#: (:meth:`.movegen.MoveGen._column_info`): ``(foundation score, a King lying on a card may
#: leave, exits, suit of the top card, its rank, the two strips, the top run's length)``.
ColumnInfo = tuple[int, bool, tuple[Exit, ...], int, int, Strip, Strip, int]
#: A transposition key: a tuple sharing the position's parts.
Key = tuple[Any, ...]
KeyFunction = Callable[[Position], Key]


CELL0 = 10
WASTE = 20
FOUND = 30
DEAL = 40
KING = 12
INF = 10**9
#: In the dead-end relaxation's accessible-card mask: "some column is empty" (no card).
SPACE_BIT = 1 << 52
#: Each card as a one-byte column segment (columns are ``bytes``, see the module notes).
_CARD = tuple(bytes((c,)) for c in range(52))
#: The foundations of a won position.
_ALL_HOME = (13, 13, 13, 13)

RANK = tuple(c % 13 for c in range(52))
SUIT = tuple(c // 13 for c in range(52))
RED = tuple(SUIT[c] in (1, 2) for c in range(52))
#: Suits of the other colour, for each suit (S, H, D, C).
OTHER_COLOUR = ((1, 2), (0, 3), (0, 3), (1, 2))


def _tables(same_suit: bool) -> tuple[list[bool], tuple[tuple[int, ...], ...]]:
    """``fits[below * 52 + above]`` and, per card, the cards it may be built on."""
    fits = [False] * (52 * 52)
    parents: list[tuple[int, ...]] = []
    for above in range(52):
        ps = []
        for below in range(52):
            ok = RANK[below] == RANK[above] + 1 and (
                SUIT[below] == SUIT[above] if same_suit else RED[below] != RED[above]
            )
            if ok:
                fits[below * 52 + above] = True
                ps.append(below)
        parents.append(tuple(ps))
    return fits, tuple(parents)


_TABLES = {True: _tables(True), False: _tables(False)}


class OutOfBudget(Exception):
    """The node or time budget is spent."""


class Board:
    """One deal under one rule set: the tables its rules decide, the start position, the
    key and :meth:`apply`.  ``pruning=False`` turns off every optional pruning rule
    (auto-play, canonical keys, no-op and equivalent-target pruning, the dead-end
    relaxation); what remains is plain DFS over exact positions with a visited set
    (needed to terminate)."""

    def __init__(self, state: State, pruning: bool = True) -> None:
        """``state`` is an engine :class:`~games.engine.State` (any position, not only an
        opening one)."""
        rules = state.rules
        self.rules = rules
        self.pruning = pruning
        same_suit = rules.build == "suit"
        self.fits, self.parents = _TABLES[same_suit]
        self.same_suit = same_suit
        self.king_space = rules.space == "king"
        self.supermove = rules.runs == "supermove"
        self.classic = bool(rules.classic_supermove)
        self.partial = bool(rules.partial_runs) or self.supermove
        self.king_fill = bool(rules.king_fill_before_deal)
        self.rows_deal = rules.stock == "rows"
        self.waste_deal = rules.stock == "waste"
        self.ncols = rules.columns
        self.canon = pruning and bool(rules.columns_interchangeable)
        #: Row deals: ``fixed[d]`` = how many columns (``t0`` on) still receive stock cards
        #: after ``d`` were dealt; the columns from there on are interchangeable (pruning
        #: only; ``ncols`` everywhere means no column is).
        self.stock = tuple(state.stock)
        self.nstock = len(self.stock)
        self.rows_canon = pruning and self.rows_deal and not self.canon
        self.fixed = tuple(
            min(self.nstock - d, self.ncols) if self.rows_canon else self.ncols
            for d in range(self.nstock + 1)
        )
        self.canon_cells = pruning
        self.has_down = any(state.down)
        self._colcache: dict[Any, ColumnInfo] = {}
        #: Seahaven: a cell card goes onto its same-suit parent once that is a column's top,
        #: and a natural run goes into cells only whole (see "Cell cards onto their parents"
        #: in :mod:`.autoplay`).  Off while :meth:`.dfs.Search.shorten` runs: it keeps no
        #: lengths.
        self.cell_parent = pruning and same_suit and bool(rules.cells)
        #: The single moves of the last run :meth:`apply` put into cells.
        self._macro: Path = []
        #: A deal is irreversible progress: tried before moves that only shuffle built runs.
        self.deal_score = 20
        self.suit_king = same_suit and self.king_space
        self.start: Position = (
            tuple(bytes(col) for col in state.cols),
            tuple(state.down),
            tuple(state.found),
            tuple(state.cells),
            0,
            bytes(state.waste),
        )
        self._keyfn = self._make_key()
        self.nodes = 0
        self.node_limit = INF
        self.deadline = float("inf")

    # ------------------------------------------------------------------ positions

    def key(self, st: Position) -> Key:
        """The transposition key: a tuple sharing the position's column tuples.  (The
        search calls :meth:`_keyfn`, the same function specialised to the rules.)"""
        return self._keyfn(st)

    def _make_key(self) -> KeyFunction:
        """The key function for these rules, with its branches decided once: foundations,
        cells (sorted where cells are canonical), stock position, waste, then the columns
        (sorted with their face-down counts where columns are interchangeable, else the
        face-down counts and the columns as they stand)."""
        canon, has_down = self.canon, self.has_down
        sort_cells = self.canon_cells and bool(self.start[3])
        if self.rows_canon and not sort_cells:
            # Row deals: the columns no deal reaches any more are sorted (with their
            # face-down counts), the others stay where they are.
            fixed, ncols = self.fixed, self.ncols

            def rows_key(st: Position) -> Key:
                f = fixed[st[4]]
                if f == ncols:
                    return (st[2], st[3], st[4], st[5], st[1], st[0])
                if f == 0:
                    return (st[2], st[3], st[4], st[5], tuple(sorted(zip(st[1], st[0]))))
                down, cols = st[1], st[0]
                return (
                    st[2],
                    st[3],
                    st[4],
                    st[5],
                    down[:f],
                    cols[:f],
                    tuple(sorted(zip(down[f:], cols[f:]))),
                )

            return rows_key
        if canon and has_down:
            if sort_cells:
                return lambda st: (
                    st[2],
                    tuple(sorted(st[3])),
                    st[4],
                    st[5],
                    tuple(sorted(zip(st[1], st[0]))),
                )
            return lambda st: (st[2], st[3], st[4], st[5], tuple(sorted(zip(st[1], st[0]))))
        if canon:
            if sort_cells:
                # Seahaven: one shared sorted tuple per cell contents (fewer sorts, and the
                # keys in the table share it).
                sorted_cells: dict[tuple[int, ...], tuple[int, ...]] = {}

                def key(st: Position) -> Key:
                    cells = st[3]
                    canon_cells = sorted_cells.get(cells)
                    if canon_cells is None:
                        canon_cells = sorted_cells[cells] = tuple(sorted(cells))
                    return (st[2], canon_cells, st[4], st[5], tuple(sorted(st[0])))

                return key
            return lambda st: (st[2], st[3], st[4], st[5], tuple(sorted(st[0])))
        if sort_cells:
            return lambda st: (st[2], tuple(sorted(st[3])), st[4], st[5], st[1], st[0])
        return lambda st: (st[2], st[3], st[4], st[5], st[1], st[0])

    def remaining_deals(self, dealt: int) -> int:
        left = self.nstock - dealt
        if self.rows_deal:
            return -(-left // self.ncols)
        return left

    def lower_bound(self, st: Position) -> int:
        """Moves still needed at least: one foundation move per card, one per deal."""
        return 52 - sum(st[2]) + self.remaining_deals(st[4])

    def apply(self, st: Position, move: Move) -> Position:
        """The position ``move`` makes from ``st`` (no auto-play: see
        :meth:`.autoplay.AutoPlay.settle`)."""
        # The parts are rebuilt as lists where a move changes them (no run-time cost).
        cols: Any
        down: Any
        cells: Any
        moved: bytes
        cols, down, found, cells, dealt, waste = st
        src, dst, cnt = move
        if src == DEAL:
            if self.rows_deal:
                n = min(self.ncols, self.nstock - dealt)
                stock = self.stock
                new = tuple(
                    col + _CARD[stock[dealt + i]] if i < n else col for i, col in enumerate(cols)
                )
                return (new, down, found, cells, dealt + n, waste)
            return (cols, down, found, cells, dealt + 1, waste + _CARD[self.stock[dealt]])
        if src < CELL0:
            col = cols[src]
            moved = col[-cnt:]
            rest = col[:-cnt]
            cols = list(cols)
            cols[src] = rest
            if rest and len(rest) == down[src]:
                down = list(down)
                down[src] -= 1
                down = tuple(down)
        elif src < WASTE:
            moved = _CARD[cells[src - CELL0]]
            cells = list(cells)
            cells[src - CELL0] = -1
            cells = tuple(cells)
        else:
            moved = _CARD[waste[-1]]
            waste = waste[:-1]
        if dst == FOUND:
            c = moved[0]
            s = SUIT[c]
            found = found[:s] + (found[s] + 1,) + found[s + 1 :]
        elif dst < CELL0:
            if not isinstance(cols, list):
                cols = list(cols)
            cols[dst] = cols[dst] + moved
        else:
            cells = list(cells)
            if cnt == 1:
                cells[dst - CELL0] = moved[0]
            else:
                # A natural run into cells (``cell_parent``): one card at a time, the top
                # card first, each into the first free cell; :meth:`settle` puts these
                # single moves in the path.
                singles: Path = []
                k = 0
                for c in reversed(moved):
                    while cells[k] >= 0:
                        k += 1
                    cells[k] = c
                    singles.append((src, CELL0 + k, 1))
                self._macro = singles
            cells = tuple(cells)
        return (tuple(cols), down, found, cells, dealt, waste)

    # ------------------------------------------------------------------ columns

    def _infos(self, st: Position) -> list[ColumnInfo | None]:
        """:meth:`_column_info` of each column (``None`` for a space), from the cache
        (looked up once per position, for :meth:`moves` and :meth:`dead` both)."""
        cols, down = st[0], st[1]
        cache = self._colcache
        cache_get = cache.get
        has_down = self.has_down
        infos: list[ColumnInfo | None] = []
        for col, d in zip(cols, down):
            if not col:
                infos.append(None)
                continue
            ck = (d, col) if has_down else col
            info = cache_get(ck)
            if info is None:
                info = self._column_info(col, d)
                if len(cache) > 300_000:
                    cache.clear()
                cache[ck] = info
            infos.append(info)
        return infos

    def _info(self, col: bytes, d: int) -> ColumnInfo:
        """:meth:`_column_info` of one column, through the cache of :meth:`_infos`."""
        ck = (d, col) if self.has_down else col
        cache = self._colcache
        info = cache.get(ck)
        if info is None:
            info = self._column_info(col, d)
            if len(cache) > 300_000:
                cache.clear()
            cache[ck] = info
        return info

    def _column_info(self, col: bytes, d: int) -> ColumnInfo:
        """What may leave a column (:meth:`.movegen.MoveGen._column_info`)."""
        raise NotImplementedError
