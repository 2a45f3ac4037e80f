"""The search: a compact position, its move generator, DFS with a transposition table, and
branch-and-bound shortening.  See :mod:`games.solver` for the pruning rules and why each
is sound.

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
one-to-one into the engine's API moves.
"""

from __future__ import annotations

import time
from operator import itemgetter

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


class Search:
    """One deal under one rule set.  ``pruning=False`` turns off every optional pruning
    rule (auto-play, canonical keys, no-op and equivalent-target pruning, the dead-end
    relaxation of :meth:`dead`); what remains is plain DFS over exact positions with a
    visited set (needed to terminate)."""

    def __init__(self, state, pruning: bool = True) -> None:
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
        self._colcache: dict = {}
        self._found_masks: dict = {}
        self.auto_always = pruning and not self.king_fill
        #: Seahaven: a cell card goes onto its same-suit parent once that is a column's top,
        #: and a natural run goes into cells only whole (see "Cell cards onto their parents"
        #: in :mod:`games.solver`).  Off while :meth:`shorten` runs: it keeps no lengths.
        self.cell_parent = pruning and same_suit and bool(rules.cells)
        #: The single moves of the last run :meth:`apply` put into cells.
        self._macro: list = []
        #: A deal is irreversible progress: tried before moves that only shuffle built runs.
        self.deal_score = 20
        #: kings_in_stock[d]: is a King among the stock cards left after ``d`` were dealt?
        self.kings_in_stock = [
            any(RANK[c] == KING for c in self.stock[d:]) for d in range(self.nstock + 1)
        ]
        self.suit_king = same_suit and self.king_space
        self.start = (
            tuple(bytes(col) for col in state.cols),
            tuple(state.down),
            tuple(state.found),
            tuple(state.cells),
            0,
            bytes(state.waste),
        )
        self._keyfn = self._make_key()
        # Dead-end detection by a relaxation (see :meth:`dead`): not with cells, which a
        # card may enter while one is free (no bound the relaxation could keep).
        self.dead_check = pruning and not rules.cells
        bit = [1 << c for c in range(52)]
        self._bit = bit
        #: Per card: the cards it may be built on, and the lower cards of its suit.
        self._parent_mask = tuple(sum(bit[p] for p in self.parents[c]) for c in range(52))
        self._lower_mask = tuple(((1 << RANK[c]) - 1) << (13 * SUIT[c]) for c in range(52))
        #: Per card: may it enter a space (every card, or only Kings)?
        self._space_ok = tuple(RANK[c] == KING or not self.king_space for c in range(52))
        #: Per card: the accessible cards (and ``SPACE_BIT``) that let it leave when no run
        #: carries it, by (b) or (c) of :meth:`dead` (waste, stock and dealt cards).
        self._loose_wake = tuple(
            self._parent_mask[c] | (SPACE_BIT if self._space_ok[c] else 0) for c in range(52)
        )
        #: Per stock position: the stock cards that some deal will follow (all but the
        #: last deal's), for :meth:`fill_neutral`.
        step = self.ncols if self.rows_deal else 1
        self._early_stock_mask = tuple(
            sum(bit[c] for c in self.stock[d : d + step * ((self.nstock - d - 1) // step)])
            for d in range(self.nstock + 1)
        )
        #: Per stock position: is every column interchangeable for the rest of the game
        #: (no row deal reaches any column any more)?  Then some shortest win never moves a
        #: whole column into a space (see :meth:`dead`).
        self._bottom_stays = tuple(self.canon or self.fixed[d] == 0 for d in range(self.nstock + 1))
        self._safe_cache: dict = {}
        self.nodes = 0
        self.node_limit = INF
        self.deadline = float("inf")

    # ------------------------------------------------------------------ positions

    def key(self, st) -> tuple:
        """The transposition key: a tuple sharing the position's column tuples.  (The
        search calls :meth:`_keyfn`, the same function specialised to the rules.)"""
        return self._keyfn(st)

    def _make_key(self):
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

            def rows_key(st):
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
                sorted_cells: dict = {}

                def key(st):
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

    def lower_bound(self, st) -> int:
        """Moves still needed at least: one foundation move per card, one per deal."""
        return 52 - sum(st[2]) + self.remaining_deals(st[4])

    def auto_allowed(self, st) -> bool:
        """May every safe card be auto-played?  Everywhere except in Easthaven proper while
        its King-fill rule can still refuse a deal: there only once the stock is empty, or
        once no King can ever lie on another card again (every King on its foundation or
        at the bottom of a column, none left in the stock), when the rule can never refuse
        a deal.  Before that :meth:`autoplay` plays only what :meth:`fill_neutral` accepts."""
        if not self.pruning:
            return False
        if not self.king_fill:
            return True
        dealt = st[4]
        if dealt >= self.nstock:
            return True
        if self.kings_in_stock[dealt]:
            return False
        cols, found = st[0], st[2]
        bottoms = {col[0] for col in cols if col}
        return all(found[s] == 13 or s * 13 + KING in bottoms for s in range(4))

    def apply(self, st, move):
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
                singles = []
                k = 0
                for c in reversed(moved):
                    while cells[k] >= 0:
                        k += 1
                    cells[k] = c
                    singles.append((src, CELL0 + k, 1))
                self._macro = singles
            cells = tuple(cells)
        return (tuple(cols), down, found, cells, dealt, waste)

    def opening(self, path: list):
        """The start position settled (auto-play, cell cards onto their parents), the
        moves that made it appended to ``path``."""
        start = self.start
        if self.pruning:
            start = self.autoplay(start, path)
            if self.cell_parent:
                start = self.cells_home(start, path)
        return start

    def settle(self, child, move, path: list):
        """Settle ``child``, just made by ``move`` (the last item of ``path``) from a
        settled position: a run :meth:`apply` put into cells becomes its single moves in
        ``path``; then auto-play, and cell cards go onto their parents."""
        if self.cell_parent:
            mark = len(path) - 1
            if move[2] > 1 and CELL0 <= move[1] < WASTE:
                path[-1:] = self._macro
            child = self._autoplay_after(child, move, path)
            cells = child[3]
            if cells.count(-1) < 4:
                # A cell card's parent can have become a top only in a column these moves
                # touched: :meth:`moves` puts no card into a cell while its parent is a
                # top, and the parent position had none waiting.
                cols = child[0]
                for i in range(mark, len(path)):
                    for pile in path[i][:2]:
                        if pile < CELL0:
                            col = cols[pile]
                            if col and RANK[col[-1]] and col[-1] - 1 in cells:
                                return self.cells_home(child, path)
            return child
        return self._autoplay_after(child, move, path)

    def _autoplay_after(self, child, move, path: list):
        """Auto-play after ``move`` produced ``child`` (whose parent was settled already):
        only a card the move uncovered, or anything after a foundation move or a deal,
        can have become safe."""
        if not self.auto_always:
            if not self.pruning:
                return child
            # Easthaven proper (guarded auto-play): what may be played can change with any
            # move, so look at every free card.
            return self.autoplay(child, path)
        src, dst, _ = move
        if dst == FOUND or src == DEAL:
            return self.autoplay(child, path)
        if src < CELL0:
            col = child[0][src]
            if col:
                safe = self._safe_cache.get(child[2])
                if safe is None:
                    safe = self.safe_cards(child[2])
                if col[-1] in safe:
                    return self.autoplay(child, path)
        elif src == WASTE:
            waste = child[5]
            if waste and waste[-1] in self.safe_cards(child[2]):
                return self.autoplay(child, path)
        return child

    #: Skip the move that undoes the last one in :meth:`first_solution` (never changes
    #: what is searched: the tests compare both settings).
    skip_undo = True

    @staticmethod
    def _undo(parent, child, move):
        """The move that turns ``child`` back into exactly ``parent``, or ``None``.

        Called only when ``move`` made ``child`` from ``parent`` with no auto-play move
        after it.  A column or cell card (or run) moved to a column or cell goes back the
        same way unless the move turned a face-down card (then ``down`` is a new tuple).
        The result is the parent itself; settling it changes nothing, because every
        position on the stack is already settled (auto-play, a function of the position
        alone, has reached a fixed point there).
        So the undoing move yields the parent's key, which is in ``seen``."""
        src, dst, cnt = move
        if src >= WASTE or dst >= WASTE or child[1] is not parent[1]:
            return None
        return (dst, src, cnt)

    def fill_neutral(self, col: tuple, d: int, dealt: int, cols: tuple) -> bool:
        """May the safe top card of ``col`` (``d`` cards face down) go home now although
        the King-fill rule can still refuse a deal?  Yes when it is no Queen or King,
        its column keeps a card, its leaving lets no King (or King-headed run) that lay
        still leave its column, and its twin (same rank and colour) is not in the stock,
        or comes only with the last deal (after which the rule refuses nothing), or is
        dealt onto a column of ``cols`` (the position's) where no King lies on a card
        and none is dealt before it.  Then playing it early never makes the rule refuse
        a deal that a win from here makes (see "Auto-play" in :mod:`games.solver`)."""
        n = len(col)
        c = col[-1]
        if n < 2 or RANK[c] >= KING - 1:
            return False
        twin = (3 - SUIT[c]) * 13 + RANK[c]
        if self._early_stock_mask[dealt] >> twin & 1 and self._king_under(twin, cols, dealt):
            # The twin could be dealt onto the parent c may move to, above a King that
            # lies on a card, before a deal.
            return False
        if self._info(col, d)[1]:
            return True  # a King may leave the column already
        # The column without c, the card under it turned face up: no King may leave it.
        return not self._info(col[:-1], d - 1 if n - 1 == d else d)[1]

    def _king_under(self, card: int, cols: tuple, dealt: int) -> bool:
        """Row deals: may a King lie on a card in the column the stock card ``card`` is
        dealt onto, when it comes?  A King moves only into a space or home, so it lies
        on a card only where it lies on one now or where a deal puts it: yes when the
        column (in ``cols``) has a King above its bottom card, or a King in the stock is
        dealt onto it first."""
        if not self.rows_deal:
            return True
        # Rows are dealt from stock index 0 on, so stock card k lands on column k % ncols.
        k = self.stock.index(card, dealt)
        j = k % self.ncols
        if any(RANK[x] == KING for x in cols[j][1:]):
            return True
        return any(RANK[self.stock[i]] == KING for i in range(dealt + j, k, self.ncols))

    def _info(self, col: tuple, d: int) -> tuple:
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

    def safe_cards(self, found) -> frozenset:
        """The cards :meth:`safe` accepts under foundations ``found`` (cached per
        foundation tuple: at most 14**4 of them)."""
        cards = self._safe_cache.get(found)
        if cards is None:
            cards = frozenset(c for c in range(52) if self.safe(c, found))
            self._safe_cache[found] = cards
        return cards

    def safe(self, c: int, found) -> bool:
        """May ``c`` go home now whatever comes later?  When it is next on its foundation
        and no card that could ever be placed on it needs it: same-suit builds always;
        alternate colours when each card that fits on ``c`` (the other colour's
        ``rank - 1``) is home or *next* on its foundation, and then the cards that fit
        on those (``c``'s colour, ``rank - 2``) are home or next too: a win that puts
        such a card on ``c`` can send it home instead.  Twos always qualify (aces are
        next once out).  Proof: "Safe auto-play" in :mod:`games.solver`."""
        s = SUIT[c]
        r = RANK[c]
        if found[s] != r:
            return False
        if self.same_suit:
            return True
        a, b = OTHER_COLOUR[s]
        low = min(found[a], found[b])
        # found[3 - s]: the other suit of c's colour (S-C, H-D).
        return low >= r or (low == r - 1 and found[3 - s] >= r - 2)

    def autoplay(self, st, out: list):
        """Play every safe card to its foundation (repeatedly), appending the moves.  In
        Easthaven proper, while the King-fill rule can still refuse a deal
        (:meth:`auto_allowed` is false), only the cards :meth:`fill_neutral` accepts."""
        safe_cache = self._safe_cache
        guarded = self.king_fill
        while True:
            cols, down, found, cells, dealt, waste = st
            nexts = safe_cache.get(found)
            if nexts is None:
                nexts = self.safe_cards(found)
            if not nexts:
                return st
            # Whether the King-fill rule still guards auto-play is asked only once a
            # column's top card is safe: most positions have none.
            free = None
            move = None
            for i, col in enumerate(cols):
                if col and col[-1] in nexts:
                    if free is None:
                        free = not guarded or self.auto_allowed(st)
                    if free or self.fill_neutral(col, down[i], dealt, cols):
                        move = (i, FOUND, 1)
                        break
            else:
                for k, c in enumerate(cells):
                    if c >= 0 and c in nexts:
                        move = (CELL0 + k, FOUND, 1)
                        break
                else:
                    if waste and waste[-1] in nexts:
                        move = (WASTE, FOUND, 1)
                    else:
                        return st
            out.append(move)
            st = self.apply(st, move)

    def cells_home(self, st, out: list):
        """Seahaven: move every cell card whose same-suit parent is a column's top card
        onto it (repeatedly: the card may be the parent of another cell card), appending
        the moves.  Sound, see "Cell cards onto their parents" in :mod:`games.solver`."""
        while True:
            cells = st[3]
            # parents[k]: the card cell k's card fits on (a King fits on none: -1).
            parents = [c + 1 if c >= 0 and RANK[c] != KING else -1 for c in cells]
            move = None
            for j, col in enumerate(st[0]):
                if col and col[-1] in parents:
                    move = (CELL0 + parents.index(col[-1]), j, 1)
                    break
            if move is None:
                return st
            out.append(move)
            st = self.apply(st, move)

    def dead(self, st) -> bool:
        """Is ``st`` lost by the *removal relaxation*?  (Sound: see "Dead ends" in
        :mod:`games.solver`.)

        Every card that is not on a foundation starts in its *place*: a column (at its
        index there), the stock or the waste.  A relaxed move *removes* a card from its
        place for good.  A column's top card (all cards above it removed), or by (a)–(c)
        only the waste's top card and any stock card (waste deals: a stock card leaves
        from the waste's top, in whatever order the deals allow, here in any), may be
        removed when

        (a) every lower card of its suit is on a foundation or removed (it goes home), or
        (b) a card it may be built on is *accessible*: removed, or the top card of its
            column, or
        (c) it may enter a space (a King where only Kings may), some column is empty, and
            it is not its column's bottom card while every column is interchangeable for
            the rest of the game (``bottom_stays``), or
        (d) it would leave carried by a run: the cards from the run's lowest card up to it
            form a run of face-up cards (without partial runs the run's lowest card is the
            column's lowest face-up card), and that lowest card may leave by (b) or (c).

        Each condition only gets easier as cards are removed, so removing every removable
        card until none is left decides the relaxed game; the position is dead when some
        column keeps a card."""
        return self._dead(st, self._infos(st))

    def _dead(self, st, infos: list) -> bool:
        """:meth:`dead`, given the position's :meth:`_infos`."""
        cols, down, found, cells, dealt, waste = st
        if self.rows_deal and dealt < self.nstock:
            return self._dead_rows(st, infos)
        bit = self._bit
        # Waste deals: a stock card leaves only from the waste's top, so by (a)-(c) like
        # a waste card (in any order: the order of the deals is relaxed away).  Row deals
        # come here only once their stock is empty.
        stock = self.stock[dealt:]
        acc = 0
        gone = self._found_mask(found)
        heights = [len(col) for col in cols]
        # The table of :meth:`_dead_column` for this ``bottom_stays``.
        w = 6 if self._bottom_stays[dealt] else 5
        strips = [info[w] if info else None for info in infos]
        for col in cols:
            acc |= bit[col[-1]] if col else SPACE_BIT
        lmask = self._lower_mask
        loose = self._loose_wake
        ncols = len(cols)
        # Sweep the columns cyclically until ``ncols`` scans in a row remove nothing
        # (every column then fails at its top with the same accessible set: a fixpoint).
        # Every condition only gets easier as cards are removed, so the set removed at the
        # fixpoint is the same in whatever order the columns are scanned; stopping there
        # skips the full extra pass a "repeat while some pass made progress" loop makes.
        # (b)-(d) of a column's card are one test against :meth:`_dead_column`'s table
        # (``SPACE_BIT`` in ``acc`` stands for "some column is empty").
        i = 0
        idle = 0
        while True:
            while idle < ncols:
                top = heights[i]
                if top:
                    # The column's relaxed top and the cards under it, for as long as each
                    # may leave by the table (b)-(d) or by (a).  Written out here and in
                    # :meth:`_dead_rows` rather than shared: a function call per column
                    # scan made the check 1-9 % slower (``bench/README.md``).
                    wake, low, add, own = strips[i]
                    x = top - 1
                    while x >= 0 and (acc & wake[x] or gone & low[x] == low[x]):
                        acc |= add[x]
                        gone |= own[x]
                        x -= 1
                    x += 1
                    if x != top:
                        heights[i] = x
                        idle = 0
                idle += 1
                i += 1
                if i == ncols:
                    i = 0
            # The waste: its top card leaves like a column's top card, by (a), (b) or
            # (c); a waste card is no parent (nothing goes onto the waste).
            taken = False
            while waste:
                c = waste[-1]
                if not (acc & loose[c] or gone & lmask[c] == lmask[c]):
                    break
                acc |= bit[c]
                gone |= bit[c]
                waste = waste[:-1]
                taken = True
            if stock:
                kept = []
                for c in stock:
                    if acc & loose[c] or gone & lmask[c] == lmask[c]:
                        acc |= bit[c]
                        gone |= bit[c]
                        taken = True
                    else:
                        kept.append(c)
                stock = kept
            if not taken:
                break
            idle = 0
        return bool(waste) or bool(stock) or any(heights)

    def _found_mask(self, found: tuple) -> int:
        """The cards on the foundations ``found``, as a mask (cached)."""
        mask = self._found_masks.get(found)
        if mask is None:
            mask = 0
            for s in range(4):
                mask |= ((1 << found[s]) - 1) << (13 * s)
            if len(self._found_masks) > 100_000:
                self._found_masks.clear()
            self._found_masks[found] = mask
        return mask

    def _dead_column(self, col: tuple, d: int) -> tuple:
        """The relaxation's conditions (b)-(d) for the cards of one column (``d`` of them
        face down), as far as they depend on the column alone; cached in
        :meth:`_column_info`.  Returns two *strip tables* ``(wake, lows, adds, owns)``,
        the first without ``bottom_stays``, the second with it; each member is a tuple by
        index ``x``.  ``lows[x]`` is the mask of ``col[x]``'s lower cards of its suit (for
        (a)), ``owns[x]`` its bit, ``adds[x]`` its bit and that of the card it uncovers
        (``SPACE_BIT`` for the bottom card): precomputed so that the check's inner loop
        does one lookup per mask.  ``wake[x]``: while ``col[x]`` is the
        relaxed top (the cards above it removed, the cards below it all there), it may
        leave by (b), (c) or (d) exactly when the accessible set, with ``SPACE_BIT``
        added once some column is empty, meets ``wake[x]``: its parents, the parents of
        every lowest card ``y`` of a run it may leave with, and ``SPACE_BIT`` if it or
        such a ``y`` may enter a space.  That is the walk down the run the check used to
        make at every scan of the column, made once per column, and in one pass: the
        walk from ``x`` visits ``x - 1`` and then the walk from ``x - 1`` when ``col[x]``
        continues a face-up run on ``col[x - 1]``, nothing otherwise, so the run part of
        ``wake[x]`` is that of ``wake[x - 1]`` plus ``col[x - 1]``'s own part, or 0."""
        pmask = self._parent_mask
        space_ok = self._space_ok
        fits = self.fits
        partial = self.partial
        wake0 = []
        wake1 = []
        # The run part for the current card: what the lowest cards of runs it may leave
        # with contribute (their parents, SPACE_BIT if one may enter a space).
        run0 = run1 = 0
        for x, c in enumerate(col):
            if x > d and fits[col[x - 1] * 52 + c]:
                k = x - 1
                if partial or k == d:
                    y = col[k]
                    p = pmask[y]
                    if space_ok[y]:
                        run0 |= p | SPACE_BIT
                        run1 |= p | SPACE_BIT if k else p
                    else:
                        run0 |= p
                        run1 |= p
            else:
                run0 = run1 = 0
            p = pmask[c]
            if space_ok[c]:
                wake0.append(p | SPACE_BIT | run0)
                wake1.append((p | SPACE_BIT if x else p) | run1)
            else:
                wake0.append(p | run0)
                wake1.append(p | run1)
        lmask = self._lower_mask
        bit = self._bit
        lows = tuple(lmask[c] for c in col)
        # Removing ``col[x]`` makes it accessible and the card under it the top (or the
        # column a space): both bits at once.
        adds = tuple(bit[c] | (bit[col[x - 1]] if x else SPACE_BIT) for x, c in enumerate(col))
        owns = tuple(bit[c] for c in col)
        return (tuple(wake0), lows, adds, owns), (tuple(wake1), lows, adds, owns)

    def _dead_rows(self, st, infos: list) -> bool:
        """:meth:`dead` with row deals still to come: the stock cards are not removed from
        the start but dealt, a row at a time, onto the columns' relaxed top cards (a card
        *dealt onto* a column has that column as its place); before each deal every
        removable card is removed (removing more before a deal never hurts the relaxed
        game).  A dealt card may also leave carried by a run of face-up cards beneath it
        in its column, any run, whose lowest card leaves by (b) or (c); a column's bottom
        card is kept out of spaces only after the last deal."""
        cols, down, found, cells, dealt, waste = st
        bit = self._bit
        home = self._found_mask(found)
        gone = home
        pmask = self._parent_mask
        lmask = self._lower_mask
        space_ok = self._space_ok
        loose = self._loose_wake
        fits = self.fits
        ncols = len(cols)
        stock = self.stock
        nstock = self.nstock
        # A relaxed column is its own cards still there (``heights``: the first ones of
        # its tuple) with the cards dealt onto it since (``extra``, bottom first) on top.
        # Its own cards leave as in :meth:`dead`, by :meth:`_dead_column`'s table (without
        # ``bottom_stays`` until the last deal).
        heights = [len(col) for col in cols]
        extra: list = [[] for _ in cols]
        strips = [info[5] if info else None for info in infos]
        final = stays = False
        while True:
            # Accessible: the removed cards (gone, not home) and the relaxed tops.
            acc = gone ^ home
            for i in range(ncols):
                e = extra[i]
                if e:
                    acc |= bit[e[-1]]
                elif heights[i]:
                    acc |= bit[cols[i][heights[i] - 1]]
                else:
                    acc |= SPACE_BIT
            # Cyclic sweep to the fixpoint, as in :meth:`dead`.
            i = 0
            idle = 0
            while idle < ncols:
                e = extra[i]
                x = heights[i]
                if e or x:
                    col = cols[i]
                    moved = False
                    while e:
                        # A dealt card: by (a)-(c), or carried by any run of face-up cards
                        # beneath it whose lowest card ``y`` leaves by (b) or (c) (only
                        # an own card of the column can be its bottom card or face down).
                        c = e[-1]
                        low = lmask[c]
                        if not (acc & loose[c] or gone & low == low):
                            above = c
                            k = len(e) - 2
                            while True:
                                if k >= 0:
                                    y = e[k]
                                else:
                                    j = x + k
                                    if j < 0 or (j < down[i] and j < x - 1):
                                        break
                                    y = col[j]
                                if not fits[y * 52 + above]:
                                    break
                                if acc & pmask[y] or (
                                    acc & SPACE_BIT and space_ok[y] and (k >= 0 or j or not stays)
                                ):
                                    k = None
                                    break
                                above = y
                                k -= 1
                            if k is not None:
                                break
                        acc |= bit[c]
                        gone |= bit[c]
                        e.pop()
                        moved = True
                        if e:
                            acc |= bit[e[-1]]
                        elif x:
                            acc |= bit[col[x - 1]]
                        else:
                            acc |= SPACE_BIT
                    if not e and x:
                        # The column's own cards, by the table (as in :meth:`dead`).
                        top = x
                        wake, low, add, own = strips[i]
                        x -= 1
                        while x >= 0 and (acc & wake[x] or gone & low[x] == low[x]):
                            acc |= add[x]
                            gone |= own[x]
                            x -= 1
                        x += 1
                        if x != top:
                            heights[i] = x
                            moved = True
                    if moved:
                        idle = 0
                idle += 1
                i += 1
                if i == ncols:
                    i = 0
            if final:
                break
            n = min(ncols, nstock - dealt)
            for i in range(n):
                extra[i].append(stock[dealt + i])
            dealt += n
            if dealt >= nstock:
                final = True
                stays = self._bottom_stays[nstock]
                if stays:
                    strips = [info[6] if info else None for info in infos]
        return any(heights) or any(extra)

    # ------------------------------------------------------------------ moves

    def _infos(self, st) -> list:
        """:meth:`_column_info` of each column (``None`` for a space), from the cache
        (looked up once per position, for :meth:`moves` and :meth:`dead` both)."""
        cols, down = st[0], st[1]
        cache = self._colcache
        cache_get = cache.get
        has_down = self.has_down
        infos = []
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

    def _column_info(self, col: tuple, d: int) -> tuple:
        """What may leave a column, independent of the rest of the position:
        ``(foundation score, a King lying on a card may leave, [(count, the cards the
        first card fits on, score onto a card, may go to a space, score into a space,
        score into a cell), ...], suit of the top card, its rank, the dead-end
        relaxation's two tables of :meth:`_dead_column`, the length of the top run)``."""
        fits = self.fits
        canon_prune = self.pruning and self.canon
        n = len(col)
        length = 1
        k = n - 1
        while k > d and fits[col[k - 1] * 52 + col[k]]:
            length += 1
            k -= 1
        up = n - d
        if self.partial:
            if self.suit_king and length > 2:
                # Same suit, King-only spaces: a middle part of a run sits on its only
                # possible parent and is no King, so it can go nowhere but a cell (1)
                # or as the whole run (length).  Skipping the rest is not pruning.
                counts = (1, length)
            else:
                counts = range(1, length + 1)
        elif length == up and up > 1:
            counts = (1, up)
        else:
            counts = (1,)
        entries = []
        king_lying = False
        for cnt in counts:
            first = col[n - cnt]
            rest = n - cnt
            is_king = RANK[first] == KING
            if rest and is_king:
                king_lying = True
            if rest == 0:
                base = 40
            elif rest == d:
                base = 60 + 5 * (3 - d if d < 3 else 0)
            elif fits[col[rest - 1] * 52 + first]:
                base = 5  # breaks a built run
            else:
                base = 30
            # Decided here once rather than per position: may it go to a space (a King
            # where only Kings may; not a whole column where columns are interchangeable),
            # and the scores of its moves onto a card, into a space, into a cell.
            space_ok = (is_king or not self.king_space) and bool(rest or not canon_prune)
            entries.append(
                (
                    cnt,
                    self.parents[first],
                    base + cnt,
                    space_ok,
                    base - 20 + (15 if is_king else 0),
                    base - 30,
                )
            )
        fscore = 100 + (20 if n - 1 == d and d else 0)
        top = col[-1]
        strip0, strip1 = self._dead_column(col, d) if self.dead_check else ((), ())
        return (fscore, king_lying, tuple(entries), SUIT[top], RANK[top], strip0, strip1, length)

    def moves(self, st) -> list:
        """Legal moves (modulo pruning), best first."""
        infos = self._infos(st)
        if self.dead_check and self._dead(st, infos):
            return []
        cols, down, found, cells, dealt, waste = st
        parents = self.parents
        pruning = self.pruning
        king_space = self.king_space
        supermove = self.supermove
        cell_parent = self.cell_parent
        tops = {}
        empties = []
        for j, col in enumerate(cols):
            if col:
                tops[col[-1]] = j
            else:
                empties.append(j)
        free_cells = [k for k, c in enumerate(cells) if c < 0]
        nfree = len(free_cells)
        nempty = len(empties)
        # Columns from ``free`` on are interchangeable (all where ``canon``; under row deals
        # those no deal reaches any more): only the first space among them is a target,
        # and a whole column among them does not move into one of them.
        free = self.fixed[dealt]
        if pruning and self.canon:
            empty_targets = empties[:1]
        elif free < self.ncols and nempty > 1:
            empty_targets = [j for j in empties if j < free]
            for j in empties:
                if j >= free:
                    empty_targets.append(j)
                    break
        else:
            empty_targets = empties
        cell_targets = free_cells[:1] if pruning else free_cells
        out = []
        append = out.append
        tops_get = tops.get
        king_could_fill = False
        # Without supermove no run is too long: a cap no count reaches.
        cap_target = cap_space = INF
        if supermove:
            cap_target = nfree + 1 if self.classic else (nfree + 1) << nempty
            cap_space = nfree + 1 if self.classic else (nfree + 1) << max(nempty - 1, 0)
        for i, col in enumerate(cols):
            if not col:
                continue
            fscore, king_lying, entries, top_suit, top_rank, _, _, run = infos[i]
            if found[top_suit] == top_rank:
                append((fscore, i, FOUND, 1))
            if king_lying:
                king_could_fill = True
            for cnt, ps, onto, space_ok, sc, cell_sc in entries:
                if cnt <= cap_target:
                    for p in ps:
                        j = tops_get(p)
                        if j is not None:
                            append((onto, i, j, cnt))
                if empty_targets and space_ok and cnt <= cap_space:
                    whole_free = i >= free and cnt == len(col)
                    for j in empty_targets:
                        if j != i and not (whole_free and j >= free):
                            append((sc, i, j, cnt))
                if cnt == 1 and not cell_parent:
                    for k2 in cell_targets:
                        append((cell_sc, i, CELL0 + k2, 1))
                elif cnt == 1 and cell_targets and run <= nfree:
                    # Only a whole natural run goes into cells (a part would come straight
                    # back; ``cell_targets`` is the first free cell), and not when its
                    # lowest card's parent is a top (the position of the run moved there).
                    low = col[-run]
                    if RANK[low] == KING or tops_get(low + 1) is None:
                        append((cell_sc, i, CELL0 + cell_targets[0], run))
        if waste:
            c = waste[-1]
            if found[SUIT[c]] == RANK[c]:
                out.append((100, WASTE, FOUND, 1))
            for p in parents[c]:
                j = tops.get(p)
                if j is not None:
                    out.append((50, WASTE, j, 1))
            if not (king_space and RANK[c] != KING):
                for j in empty_targets:
                    out.append((20, WASTE, j, 1))
        for k, c in enumerate(cells):
            if c < 0:
                continue
            if found[SUIT[c]] == RANK[c]:
                out.append((100, CELL0 + k, FOUND, 1))
            for p in parents[c]:
                j = tops.get(p)
                if j is not None:
                    out.append((55, CELL0 + k, j, 1))
            if not (king_space and RANK[c] != KING):
                for j in empty_targets:
                    out.append((45 if RANK[c] == KING else 25, CELL0 + k, j, 1))
            if not pruning:
                for k2 in free_cells:
                    out.append((-50, CELL0 + k, CELL0 + k2, 1))
        if dealt < self.nstock and not (self.king_fill and empties and king_could_fill):
            out.append((self.deal_score, DEAL, DEAL, 0))
        out.sort(key=_score, reverse=True)  # stable: ties keep generation order
        return out

    # ------------------------------------------------------------------ search

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise OutOfBudget
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise OutOfBudget

    def first_solution(self, node_limit: int, deadline: float):
        """DFS for any win.  Returns the path (list of internal moves), ``None`` when the
        search was exhaustive, raises :class:`OutOfBudget` otherwise.  Iterative (an
        explicit stack), so deep paths cannot hit Python's recursion limit."""
        self.node_limit = node_limit
        self.deadline = deadline
        path: list = []
        start = self.opening(path)
        if sum(start[2]) == 52:
            return path
        # Kept on the search, not only in this frame: a caller that leaves with os._exit
        # (the race's child, :mod:`.race`) then never pays for freeing it, which is half a
        # second at 250k positions, before its answer could be sent.
        self._dfs_seen = seen = {self.key(start)}
        seen_add = seen.add
        apply = self.apply
        key = self._keyfn
        settle = self.settle
        moves = self.moves
        self._tick()
        # ``_tick`` inlined: ``nodes`` is local and written back on every exit.
        nodes = self.nodes
        clock = time.perf_counter
        # A frame is [position, its moves, next index, path length, the move that undoes
        # the one that made the position, or None].  That undoing move leads back to the
        # parent position exactly (see :meth:`_undo`), which is in ``seen``: it is skipped
        # without being applied, as the key lookup would skip it.
        skip_undo = self.skip_undo
        undo = self._undo
        frames = [[start, moves(start), 0, len(path), None]]
        pop = frames.pop
        push = frames.append
        try:
            while frames:
                frame = frames[-1]
                st, options, index, base, back = frame
                if index == len(options):
                    pop()
                    continue
                frame[2] = index + 1
                move = options[index][1:]
                if move == back:
                    continue
                del path[base:]
                path.append(move)
                child = settle(apply(st, move), move, path)
                if child[2] == _ALL_HOME:
                    return path
                k = key(child)
                if k in seen:
                    continue
                seen_add(k)
                nodes += 1
                if nodes >= node_limit:
                    raise OutOfBudget
                if not nodes & 255 and clock() > deadline:
                    raise OutOfBudget
                g = len(path)
                back = undo(st, child, move) if skip_undo and g == base + 1 else None
                push([child, moves(child), 0, g, back])
            return None
        finally:
            self.nodes = nodes

    def shorten(self, best: list, node_limit: int, deadline: float):
        """Branch and bound: DFS for wins shorter than ``best``, with the lower bound of
        :meth:`lower_bound` and a table of the shortest depth each position was reached at.
        Returns ``(path, exhaustive)``; stops quietly when the budget is spent."""
        self.node_limit = node_limit
        self.deadline = deadline
        # Cell cards onto their parents keeps wins, not their lengths: off here, so that
        # an exhausted search still proves the shortest win.
        cell_parent, self.cell_parent = self.cell_parent, False
        try:
            return self._shorten(best, node_limit)
        finally:
            self.cell_parent = cell_parent

    def _shorten(self, best: list, node_limit: int):
        bound = len(best) - 1
        path: list = []
        start = self.opening(path)
        if len(path) + self.lower_bound(start) > bound:
            return best, True
        depth_seen = {self.key(start): len(path)}
        apply = self.apply
        key = self._keyfn
        settle = self.settle
        lower_bound = self.lower_bound
        tick = self._tick
        moves = self.moves
        try:
            tick()
            frames = [[start, moves(start), 0, len(path)]]
            while frames:
                frame = frames[-1]
                st, options, index, base = frame
                if index == len(options):
                    frames.pop()
                    continue
                frame[2] = index + 1
                del path[base:]
                move = options[index][1:]
                path.append(move)
                child = settle(apply(st, move), move, path)
                g = len(path)
                if sum(child[2]) == 52:
                    if g <= bound:
                        best = list(path)
                        bound = g - 1
                    continue
                if g + lower_bound(child) > bound:
                    continue
                k = key(child)
                prev = depth_seen.get(k)
                if prev is not None and prev <= g:
                    continue
                depth_seen[k] = g
                tick()
                frames.append([child, moves(child), 0, g])
        except OutOfBudget:
            return best, False
        return best, True


#: A move's score (its first field), as a C-level sort key.
_score = itemgetter(0)
