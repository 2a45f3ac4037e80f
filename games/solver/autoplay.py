"""Settling a position: safe auto-play to the foundations and, in Seahaven, cell cards onto
their parents, each played at once after every move (:meth:`AutoPlay.settle`).

A rule is sound when every win from the position before it still has a win (no longer)
after it; then ``unwinnable`` stays a proof and the shortening stays exact.

* **Safe auto-play to the foundations.**  A free card ``c`` (column top, cell, waste top)
  that is next on its foundation goes there at once when *no win needs it on the table*:
  same-suit builds always (the only card that fits on ``c`` is its suit's ``rank-1``,
  already on the foundation); alternate colours when each card ``x`` that fits on ``c``
  (the other colour's ``rank(c)-1``) is home or *next* on its foundation and, if one is
  next, the cards ``y`` that fit on ``x`` (``c``'s colour, ``rank(c)-2``) are home or next
  too (nothing fits on such a ``y``: the other colour's ``rank(c)-3`` are home).  Twos
  always qualify (the cards that fit on them are aces).  Proof by simulation: take any win
  ``W`` of the original position and delete every move of ``c`` alone (and drop ``c`` from
  the top of any run it moves with); where ``W`` puts a unit on ``c``, or on a card the
  simulation has sent home, send that unit home instead, top card first, and delete its
  cards' later moves (their home moves among them), dropping them, too, from the top of
  runs.  Such a unit is ``x``, ``y`` or ``x`` with ``y`` on it (only ``y`` fits on ``x``
  and nothing on ``y``); it is free in ``W``, hence in the simulation, and each of its
  cards is next on its foundation from the start, so still next (no other card of its suit
  can go home before it).  One move becomes one or two foundation moves, and each card
  sent home loses its own later home move, so the simulated win is no longer.  Every
  remaining move stays legal: no other move ever targets ``c`` or the cards sent home; a
  run minus its top cards is still a run of the same kind (top part, or all face-up cards
  of a column that now lacks them); cells, spaces and hence supermove capacities only
  grow; a column that held only ``c`` is a space that no move of ``W`` needed; a card
  under ``c`` that turns face up earlier only adds options, since in ``W`` nothing could
  have moved as a run through ``c`` (and a waste card under ``c`` becomes playable
  earlier, likewise only an option more).  So auto-play also keeps the shortening exact.
  **Exception**: in ``easthaven`` proper a deal is refused while a King could fill a
  space; removing ``c`` can make a space (a column of ``c`` alone), turn up a King, or
  join two cards into a King-headed run across the gap after later deals, and so forbid a
  deal that ``W`` made.  There auto-play waits until the rule can never refuse a deal
  again: the stock is empty, or every King is on its foundation or at the bottom of a
  column with none left in the stock (a King moves only to a space or a foundation, so
  none can ever lie on another card again, in ``W`` or in the simulation; from then on the
  preset plays like ``easthaven-open`` with King-only spaces, and the proof above
  applies).  Before that, a safe column top ``c`` still goes home when none of the three
  can happen (``Search.fill_neutral``): (i) ``c`` is no Queen or King; (ii) its column
  keeps a card; (iii) the column without ``c`` (the card under it turned up) has no King,
  alone or heading a run, that may leave while lying on a card, unless the column with
  ``c`` has one; (iv) ``c``'s twin (same rank, same colour, other suit) is not in the
  stock, or only among the last deal's cards, or no King lies on a card in the column it
  will be dealt onto, nor is dealt there before it. Proof: in the simulation above only the
  legality of deals can differ, and a deal is refused when some column is empty and some
  *King unit* (a King, or a King-headed run, that may leave while lying on a card) exists;
  it suffices that every King unit of the simulation is one of ``W`` at the same time.  No
  card is ever built on ``c`` in the simulation (the units ``W`` builds on it go home
  instead, and none is headed by a King), and neither ``c`` nor a card sent home ever
  enters a space (they are no Kings), so ``W`` and the simulation differ only in the one
  column where ``W`` has ``c``: ``U + c + X + S`` against ``U + S``, with ``X`` the cards
  on ``c`` that the simulation sent home (each fitting on the one below) and ``S`` the
  deal cards dealt there since; no column is empty in one and not the other (ii). With
  ``S`` empty: in ``c``'s own column (iii) is the claim (a King unit of ``U + c`` is one
  of ``U + c + X`` too); in a column where ``W`` moved ``c`` onto its parent ``p``, every
  unit of ``U`` grows by ``c`` and ``X`` into a unit of ``U + c + X`` with the same head,
  except ``p`` alone when ``U``'s face-up cards form no run, and a King ``p`` would make
  ``c`` a Queen (i).  With ``S`` not empty: a unit inside ``S`` is a unit in both; a unit
  of the simulation reaching below ``S`` joins ``U``'s top ``t`` to ``S``'s bottom card, a
  stock card that fits on ``t``.  If ``c`` fits on ``t`` (always when ``W`` moved it
  there), the only cards that fit on ``t`` are ``c`` and its twin: the twin, dealt, and by
  (iv) with the last deal, after which no deal is refused any more, or into a column
  where no King can lie on a card when it comes (a King moves only into a space or home,
  so it lies on a card only where it lay on one from the start or where a deal put it),
  while the unit's King lies on a card in ``U``, below it.  If not, that unit's
  King heads a run within ``U`` already, a King unit of ``U`` that (iii) rules out (and in
  ``W`` no unit reaches below ``c``, which does not fit on ``t``).  Easthaven seeds 1-40
  at 100k positions: 744k positions instead of 1.0M, 3 deals undecided instead of 5.
  The twin's column in (iv), where the twin alone was the condition before: depth-first
  proofs of seeds 9 and 68 take 97k and 84k positions instead of 188k and 186k.
* **Cell cards onto their parents** (Seahaven: same-suit builds, cells). A cell card ``x``
  whose parent ``x+1`` (the only card it fits on) is a column's top goes onto it at once
  (:meth:`AutoPlay.cells_home`, part of settling a position), and in return a column's
  top card that lies on its own parent goes into the cells only with the whole natural run
  above the first card that does not (one generated move, played as that many single moves
  into the first free cells, when there are enough): a part of such a run put into cells
  would come straight back, and so would a card or run whose lowest card's parent is a top
  (moving it there directly makes the same position): not generated either.  The first
  search and the depth-first one use the rule; branch and bound runs without it (it keeps
  wins, not their lengths). Proof, by a potential: count the moves of a win, except moves
  of a cell card onto a card, with a run into cells counted as one move, and let
  ``psi(P)`` be the least such count over wins from ``P``. (1) Moving a cell card ``x``
  onto its parent ``x+1``, a column's top, never raises ``psi``: take a win ``W`` reaching
  ``psi`` and play it with ``x`` riding on ``x+1``. Only ``x`` fits on ``x+1``, so ``x+1``
  stays a top card until ``W`` moves it or puts ``x`` on it (skipped: free and already
  done). ``W`` moving ``x`` home moves it from the column (``x`` is that column's top, its
  lower cards being home); a run that ``W`` moves with ``x+1`` on top moves with ``x`` on
  it, one card more, which the cell ``x`` left free pays for (supermove capacities
  ``(k+1)·2^e`` or ``k+1`` grow by at least one with one more free cell, the spaces
  unchanged); ``W`` putting ``x+1`` into cells, alone or as the top of a natural run, is
  that run into cells with ``x`` on top (the cell ``x`` left holds it), after which both
  positions are the same; every other move of ``W`` touches neither and has one free cell
  more.  (2) Auto-play and the key rules never raise ``psi`` (auto-play only deletes moves
  of a win). (3) In a settled position no cell card's parent is a column's top, so a win
  reaching ``psi`` begins with a counted move; it does not put a card lying on its parent
  into cells, alone or with less than the whole natural run (that position settles back to
  the one it left, with ``psi`` one lower, a contradiction), so the generator has it, and
  the settled child has a smaller ``psi``. So from every position with a win the searched
  graph leads to one with a smaller ``psi``, down to 0: a won position.  Classic Seahaven
  seeds 98 and 293 and PySol deal 73 took 240k, 315k and 336k positions before the rule
  and take 53k, 21k and 33k with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .movegen import MoveGen
from .position import (
    CELL0,
    DEAL,
    FOUND,
    KING,
    OTHER_COLOUR,
    RANK,
    SUIT,
    WASTE,
    Move,
    Path,
    Position,
)

if TYPE_CHECKING:
    from games.engine import State


class AutoPlay(MoveGen):
    """Settling positions: :meth:`autoplay`, :meth:`cells_home`, :meth:`settle`."""

    def __init__(self, state: State, pruning: bool = True) -> None:
        super().__init__(state, pruning)
        self.auto_always = pruning and not self.king_fill
        #: kings_in_stock[d]: is a King among the stock cards left after ``d`` were dealt?
        self.kings_in_stock = [
            any(RANK[c] == KING for c in self.stock[d:]) for d in range(self.nstock + 1)
        ]
        #: Per stock position: the stock cards that some deal will follow (all but the
        #: last deal's), for :meth:`fill_neutral`.
        step = self.ncols if self.rows_deal else 1
        self._early_stock_mask = tuple(
            sum(1 << c for c in self.stock[d : d + step * ((self.nstock - d - 1) // step)])
            for d in range(self.nstock + 1)
        )
        self._safe_cache: dict[tuple[int, ...], frozenset[int]] = {}

    def auto_allowed(self, st: Position) -> bool:
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

    def opening(self, path: Path) -> Position:
        """The start position settled (auto-play, cell cards onto their parents), the
        moves that made it appended to ``path``."""
        start = self.start
        if self.pruning:
            start = self.autoplay(start, path)
            if self.cell_parent:
                start = self.cells_home(start, path)
        return start

    def settle(self, child: Position, move: Move, path: Path) -> Position:
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

    def _autoplay_after(self, child: Position, move: Move, path: Path) -> Position:
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

    def fill_neutral(self, col: bytes, d: int, dealt: int, cols: tuple[bytes, ...]) -> bool:
        """May the safe top card of ``col`` (``d`` cards face down) go home now although
        the King-fill rule can still refuse a deal?  Yes when it is no Queen or King,
        its column keeps a card, its leaving lets no King (or King-headed run) that lay
        still leave its column, and its twin (same rank and colour) is not in the stock,
        or comes only with the last deal (after which the rule refuses nothing), or is
        dealt onto a column of ``cols`` (the position's) where no King lies on a card
        and none is dealt before it.  Then playing it early never makes the rule refuse
        a deal that a win from here makes (see "Auto-play" in the module notes)."""
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

    def _king_under(self, card: int, cols: tuple[bytes, ...], dealt: int) -> bool:
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

    def safe_cards(self, found: tuple[int, ...]) -> frozenset[int]:
        """The cards :meth:`safe` accepts under foundations ``found`` (cached per
        foundation tuple: at most 14**4 of them)."""
        cards = self._safe_cache.get(found)
        if cards is None:
            cards = frozenset(c for c in range(52) if self.safe(c, found))
            self._safe_cache[found] = cards
        return cards

    def safe(self, c: int, found: tuple[int, ...]) -> bool:
        """May ``c`` go home now whatever comes later?  When it is next on its foundation
        and no card that could ever be placed on it needs it: same-suit builds always;
        alternate colours when each card that fits on ``c`` (the other colour's
        ``rank - 1``) is home or *next* on its foundation, and then the cards that fit
        on those (``c``'s colour, ``rank - 2``) are home or next too: a win that puts
        such a card on ``c`` can send it home instead.  Twos always qualify (aces are
        next once out).  Proof: "Safe auto-play" in the module notes."""
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

    def autoplay(self, st: Position, out: Path) -> Position:
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

    def cells_home(self, st: Position, out: Path) -> Position:
        """Seahaven: move every cell card whose same-suit parent is a column's top card
        onto it (repeatedly: the card may be the parent of another cell card), appending
        the moves.  Sound, see "Cell cards onto their parents" in the module notes."""
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
