"""Dead ends with row deals still to come: the relaxation of :mod:`.deadends`, dealing the
stock a row at a time.

* **Dead ends with row deals to come** (Easthaven presets with stock left;
  :func:`dead_rows`).  The same relaxation, but the stock cards are not
  removed from the start: a relaxed *deal* puts the next row on the relaxed top cards of
  ``t0`` … (as the real deal does), and that column is then the dealt card's place.  The
  relaxed game removes everything removable, deals, and so on, and after the last deal
  removes everything removable once more; the bottom-card rule of (c) applies only then.
  A dealt card may also be removed when the cards beneath it down to some ``y`` form a
  face-up run (any run, even without partial runs) and ``y`` may be removed by (b) or
  (c).  Proof: map a shortest win ``W`` as in :mod:`.deadends`, each deal to the relaxed
  deal.  Along a column the cards whose place it is keep their order and lie at the bottom (its own
  cards) or on other cards (dealt cards), with only cards of other places between them,
  which have left their places (removed).  So a card leaving its place in ``W`` is its
  relaxed column's top; a card ``p`` it goes onto is removed or its column's relaxed top;
  a space in ``W`` has lost all the cards whose place it is; and a run carrying a dealt
  card ``c`` either continues down the relaxed column (same cards, same fits, face up: a
  column's own card turns up when it becomes the top) to its lowest card ``y``, leaving by
  (b) or (c), or meets a card of another place beneath some card ``z`` of the run, which
  ``z`` fits on and which is removed, so ``z`` may leave by (b).  Every card is dealt in
  ``W``, so only the greedy order remains: removing more before a deal never hurts,
  because a relaxed position whose columns are *subsequences* of another's (the missing
  cards removed) can copy any of the other's relaxed moves: the top card is the same if
  present, an accessible card stays accessible, a space stays one, the cards beneath one
  of a column's own cards are the same, and where a dealt card's run meets a missing card
  the card above it fits a removed card, i.e. may leave by (b); deals append the same
  cards to both.
"""

from __future__ import annotations

from typing import Any, Protocol

from .position import SPACE_BIT, ColumnInfo, Position


class RelaxationTables(Protocol):
    """What :func:`dead_rows` reads of :class:`.deadends.DeadEnds`: its per-card tables and
    the deal's stock.  A protocol, so that this module needs nothing from
    :mod:`.deadends`, which calls it."""

    fits: list[bool]
    stock: tuple[int, ...]
    nstock: int
    _bit: list[int]
    _parent_mask: tuple[int, ...]
    _lower_mask: tuple[int, ...]
    _space_ok: tuple[bool, ...]
    _loose_wake: tuple[int, ...]
    _bottom_stays: tuple[bool, ...]

    def _found_mask(self, found: tuple[int, ...]) -> int: ...


def dead_rows(search: RelaxationTables, st: Position, infos: list[ColumnInfo | None]) -> bool:
    """:meth:`.deadends.DeadEnds.dead` with row deals still to come: the stock cards are
    not removed from the start but dealt, a row at a time, onto the columns' relaxed top
    cards (a card *dealt onto* a column has that column as its place); before each deal every
    removable card is removed (removing more before a deal never hurts the relaxed
    game).  A dealt card may also leave carried by a run of face-up cards beneath it
    in its column, any run, whose lowest card leaves by (b) or (c); a column's bottom
    card is kept out of spaces only after the last deal."""
    cols, down, found, cells, dealt, waste = st
    bit = search._bit
    home = search._found_mask(found)
    gone = home
    pmask = search._parent_mask
    lmask = search._lower_mask
    space_ok = search._space_ok
    loose = search._loose_wake
    fits = search.fits
    ncols = len(cols)
    stock = search.stock
    nstock = search.nstock
    # A relaxed column is its own cards still there (``heights``: the first ones of
    # its tuple) with the cards dealt onto it since (``extra``, bottom first) on top.
    # Its own cards leave as in :meth:`.deadends.DeadEnds.dead`, by the table of
    # :meth:`.deadends.DeadEnds._dead_column` (without ``bottom_stays`` until the last
    # deal).
    heights = [len(col) for col in cols]
    extra: list[list[int]] = [[] for _ in cols]
    strips: list[Any] = [info[5] if info else None for info in infos]
    # Set to None when a run carries the dealt card (annotated only: no run-time cost).
    k: int | None
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
        # Cyclic sweep to the fixpoint, as in :meth:`.deadends.DeadEnds.dead`.
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
                    # The column's own cards, by the table (as in :meth:`.deadends.DeadEnds.dead`).
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
            stays = search._bottom_stays[nstock]
            if stays:
                strips = [info[6] if info else None for info in infos]
    return any(heights) or any(extra)
