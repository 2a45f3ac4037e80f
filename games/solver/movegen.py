"""Move generation: the legal moves of a position, modulo the pruning rules, best first.

What may leave a column depends on that column alone and is cached per column
(:meth:`MoveGen._column_info`, through :meth:`.position.Board._infos`); a position the
dead-end relaxation (:mod:`.deadends`) finds lost gets no moves.

A rule is sound when every win from the position before it still has a win (no longer)
after it; then ``unwinnable`` stays a proof and the shortening stays exact.  The rules of
the generator itself:

* **Equivalent spaces** (interchangeable columns only): moving into one empty column or
  another gives positions with the same key, so only the first space is a target.
* **Whole column into a space** (interchangeable columns only): the result is a
  permutation of the columns, i.e. the same key: not generated.  In Easthaven it is a real
  move (the cards then receive other row deals) and is kept, except between two columns
  no deal reaches any more (below).
* **Columns no deal reaches any more** (row deals): only the first space among them is a
  target, and a whole column among them does not move into one of them (the key sorts
  them: see :mod:`.position`).
* **Canonical cell order** (Seahaven): no cell-to-cell moves, a card goes into the first
  empty cell only (:mod:`.position`).
* **Cell cards onto their parents** (Seahaven): a column's top card that lies on its own
  parent goes into the cells only with its whole natural run, and not when the run's
  lowest card's parent is a top (proof in :mod:`.autoplay`).

Nothing else is cut: no move is forbidden as "dominated" beyond the above, so the
comparison with ``pruning=False`` (plain DFS over exact positions, ``tests/solver``)
checks exactly these rules.  (The generator also skips moves that are impossible rather
than pruned, e.g. in same-suit presets with King-only spaces a middle part of a run sits
on the only card it fits and is no King, so only its top card and the whole run can go
anywhere; ``tests/solver/test_generator.py`` checks the generator against the engine's
``legal_moves``, exactly with pruning off and as a subset with pruning on, a run into
cells as its single moves.)

Move order (heuristic only, never soundness): foundation moves; moves that turn a
face-down card; cell and waste cards onto columns; moves that empty a column or lift a
card off one it does not fit; the deal (irreversible progress, so before the shuffles);
moves of runs off cards they fit; moves into spaces; moves into cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from .deadends import DeadEnds
from .position import (
    CELL0,
    DEAL,
    FOUND,
    INF,
    KING,
    RANK,
    SUIT,
    WASTE,
    ColumnInfo,
    Exit,
    Position,
    ScoredMove,
)


class MoveGen(DeadEnds):
    """The move generator (:meth:`moves`)."""

    def _column_info(self, col: bytes, d: int) -> ColumnInfo:
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
                counts: Sequence[int] = (1, length)
            else:
                counts = range(1, length + 1)
        elif length == up and up > 1:
            counts = (1, up)
        else:
            counts = (1,)
        entries: list[Exit] = []
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

    def moves(self, st: Position) -> list[ScoredMove]:
        """Legal moves (modulo pruning), best first."""
        infos: list[Any] = self._infos(st)
        if self.dead_check and self._dead(st, infos):
            return []
        cols, down, found, cells, dealt, waste = st
        parents = self.parents
        pruning = self.pruning
        king_space = self.king_space
        supermove = self.supermove
        cell_parent = self.cell_parent
        j: int | None  # a target column, or none (annotated only: no run-time cost)
        tops: dict[int, int] = {}
        empties: list[int] = []
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
        out: list[ScoredMove] = []
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


#: A move's score (its first field), as a C-level sort key.
_score = itemgetter(0)
