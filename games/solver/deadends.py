"""Dead ends by a relaxation: a position whose cards cannot all leave even in a much
easier game is lost, and the move generator gives it no moves.

With row deals still to come the check is :func:`.deadrows.dead_rows` (its own rule and
proof); the rest is here.

A rule is sound when every win from the position before it still has a win (no longer)
after it; then ``unwinnable`` stays a proof and the shortening stays exact.

* **Dead ends by a relaxation** (presets without cells; :meth:`DeadEnds.dead`, checked
  by :meth:`.movegen.MoveGen.moves`, which gives a dead position no moves). Every card not on
  a foundation has a *place*: its column and index there, or the stock, waste (or cell).
  In the relaxed game a card is *removed* from its place for good; a column's top card
  (every card above it removed), and by (a)–(c) only the waste's top card (every waste
  card above it removed) and, with waste deals, any stock card (in any order; with row
  deals see the next rule), may be removed when (a) every lower card of its suit is home
  or removed, or (b) a card it fits on is *accessible* (removed, or the top card of its
  column), or (c) it may enter a space (a King where only Kings may), some column has had
  all its cards removed, and, if no deal reaches any column any more (stock empty, or
  columns interchangeable), it is not its column's bottom card, or (d) it and the cards
  beneath it down to some card ``y`` form a run of face-up cards (without partial runs:
  ``y`` is the column's lowest face-up card), and ``y`` may be removed by (b) or (c).
  Every condition only gets easier as cards are removed, so removing whatever is removable
  until nothing is decides the relaxed game exactly (greedily, a few hundred operations);
  if some card stays, the position is lost.  Proof: take a *shortest* win ``W``; if no
  deal reaches any column any more, ``W`` never moves a whole column into a space (that
  only permutes the columns, see above: dropping the move and relabelling the rest would
  give a shorter win), so a column's bottom card never enters a space in ``W``, alone or
  heading a run.  Remove each card at its *first departure* from its place in ``W`` (the
  cards of a moving run top first). That sequence is legal in the relaxed game, by
  induction: when ``c`` first leaves a column, every card that was above it has left
  already, so ``c`` is that column's relaxed top; if ``c`` goes home, the lower cards of
  its suit are home, each home from the start or departed (removed); if ``c`` goes onto a
  card ``p``, ``p`` is a top card in ``W``, so either ``p`` has left its own place
  (removed) or every card above it there has (``p`` is its relaxed column's top): (b); if
  ``c`` goes into a space, that column's original cards have all left: (c); if ``c`` rides
  in a run headed by a lower card ``y`` of its column (cards of other places lie only
  above a column's own cards), the cards from ``y`` up to ``c`` are a face-up run, without
  partial runs the run is all the face-up cards, whose lowest is the column's lowest
  face-up one (a face-down card turns up only as the top card), and ``y`` goes onto a card
  or into a space at that moment, by (b) or (c) as above (the cards above ``y`` removed
  first only make more cards accessible): (d); a waste card leaves only as the waste's top
  card (the waste cards above it have left), singly, home, onto a card or into a space,
  and no card ever goes onto the waste (so waste cards are not accessible); a stock card
  of a waste deal leaves the same way, from the waste's top, and is no card's parent
  before it has left (the order of the deals is relaxed away). Deals, the King-fill rule
  and cards covering others only restrict ``W``, never the relaxed game.  Every card
  leaves its place in ``W`` (all go home), so the relaxed game removes every card.  Cells
  are left out: a card may enter one whenever one is free, which the relaxation cannot
  bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .deadrows import dead_rows
from .position import KING, RANK, SPACE_BIT, SUIT, Board, ColumnInfo, Position, Strip

if TYPE_CHECKING:
    from games.engine import State


class DeadEnds(Board):
    """The dead-end check (:meth:`dead`) and its per-card and per-column tables."""

    def __init__(self, state: State, pruning: bool = True) -> None:
        super().__init__(state, pruning)
        rules = self.rules
        self._found_masks: dict[tuple[int, ...], int] = {}
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
        #: Per stock position: is every column interchangeable for the rest of the game
        #: (no row deal reaches any column any more)?  Then some shortest win never moves a
        #: whole column into a space (see :meth:`dead`).
        self._bottom_stays = tuple(self.canon or self.fixed[d] == 0 for d in range(self.nstock + 1))

    def dead(self, st: Position) -> bool:
        """Is ``st`` lost by the *removal relaxation*?  (Sound: see the module notes.)

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

    def _dead(self, st: Position, infos: list[ColumnInfo | None]) -> bool:
        """:meth:`dead`, given the position's :meth:`_infos`."""
        cols, down, found, cells, dealt, waste = st
        if self.rows_deal and dealt < self.nstock:
            return dead_rows(self, st, infos)
        bit = self._bit
        # Waste deals: a stock card leaves only from the waste's top, so by (a)-(c) like
        # a waste card (in any order: the order of the deals is relaxed away).  Row deals
        # come here only once their stock is empty.
        stock: Sequence[int] = self.stock[dealt:]
        acc = 0
        gone = self._found_mask(found)
        heights = [len(col) for col in cols]
        # The table of :meth:`_dead_column` for this ``bottom_stays``.
        w = 6 if self._bottom_stays[dealt] else 5
        strips: list[Any] = [info[w] if info else None for info in infos]
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
                    # :func:`.deadrows.dead_rows` rather than shared: a function call per column
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
                kept: list[int] = []
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

    def _found_mask(self, found: tuple[int, ...]) -> int:
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

    def _dead_column(self, col: bytes, d: int) -> tuple[Strip, Strip]:
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
        wake0: list[int] = []
        wake1: list[int] = []
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
