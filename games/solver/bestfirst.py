"""Best-first search for a first win, over the same positions and moves as the DFS.

Why: the depth-first :meth:`~.core.Search.first_solution` commits to its first choice at
every level; one bad early move (a deal made too soon, a card parked in the wrong place)
costs the whole subtree below it before the search comes back.  Best-first keeps every
generated position in a priority queue and always expands the most promising one, so a
bad branch is left as soon as its positions score worse than an older alternative.

Soundness is unchanged: the same move generator and auto-play (:meth:`Search.moves`,
:meth:`Search.settle`) and the same transposition key build the same graph of settled
positions; every newly seen key is queued once and expanded once, so when the queue runs
dry every reachable position was expanded, exactly the set an exhaustive DFS visits, and
``None`` is a proof that no win exists.  Only the *order* differs, and order is heuristic.

Memory: each queued node keeps its position until it is expanded, plus a parent link and
the few moves (one move and its auto-play) that made it, never a whole path; a win's path
is rebuilt by walking the parent links.

The heuristic (lower is better) is a weighted sum of features that a player would read
off the table (see :func:`make_weights` for the weights per rule family and why):
cards on the foundations, face-down cards and the cards lying on them, stock cards still
to come, empty columns and free cells, cards lying above a lower card of their own suit
(each one must move again before that suit can go up), cards not on a card they fit, and
Westcliff's waste cards.  The column part depends on one column only and is cached per
column, like :meth:`Search._column_info`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from heapq import heappop, heappush
from typing import Any

from .core import _ALL_HOME, RANK, SUIT, Path, Position, Search
from .position import Move
from .schedule import Steps, in_turns

__all__ = ["Weights", "best_first", "best_first_steps", "make_weights"]


@dataclass(frozen=True)
class Weights:
    """Integer weights of the heuristic (costs: higher is worse)."""

    found: int = 10  # per card on the foundations (subtracted)
    down: int = 6  # per face-down card
    buried: int = 1  # per card lying on the face-down cards of its column
    stock: int = 2  # per card still in the stock
    blocker: int = 4  # per card lying above a lower card of its own suit (column/waste)
    loose: int = 2  # per face-up card not on a card it fits
    space: int = 8  # per empty column (subtracted)
    cell: int = 3  # per free cell (subtracted)
    waste: int = 1  # per waste card under the top
    depth: int = 0  # per move on the path (0: pure greedy)
    order: int = 0  # per 100 points of the generator's score of the last move (subtracted)
    #: A depth-first queue instead: deepest first, then the generator's order (the other
    #: fields are ignored).  Taking turns with it keeps the DFS's quick wins.
    dive: bool = False


def make_weights(search: Search) -> Weights | list[Weights]:
    """The weights for the rule family of ``search`` (a list: queues taking turns).

    Tuned on node budgets (200k) over seeds 1-40 against the DFS on the same seeds:

    * Seahaven (no face-down cards, no stock): the order of the cards, spaces and cells,
      with a card lying above a lower card of its own suit weighing double (8): on deck
      seeds 1-1000 at 10 s each that left 1 of 1000 deals undecided instead of 2
      (classic supermove: 2 instead of 5) and cut the mean time per deal by about 30 %
      (``bench/README.md``, 2026-11-29).
    * Westcliff: stock weight 0, because a greedy search that is paid for dealing deals
      too early and buries the waste (stock weight 4 decided 24 of 40 deals, 0 decided
      36); the generator's move score as a tie-breaker (``order``) halves the nodes.
    * Easthaven (row deals): face-down cards first.  Single weight sets won different
      deals (15-18 of the 24 known wins each); two queues taking turns, the second caring
      more about cards above lower cards of their suit and not at all about the stock,
      won 18 with about half the median nodes.
    * Easthaven and Westcliff also get a depth-first queue (``dive``): on a few deals the
      DFS's move order wins within a few hundred or thousand nodes where the heuristics
      wander (westcliff-classic 22 and 39, easthaven-open 34); at 200k nodes it won 19
      easthaven-open deals instead of 18 and kept westcliff-classic at 33.  Seahaven
      gained nothing from it (34 of 40 either way, more nodes) and does without.
    * Seahaven and Westcliff also get the same weights with a cost per move on the path
      (``depth``, a weighted A*): a pure greedy queue sinks into a basin of positions that
      score well and lead nowhere, and must empty it before it tries the position before
      the basin; the depth cost makes long detours look worse.  On Seahaven with classic
      supermove, deck seeds 698 and 740 and PySol deals 279, 923 and 925 took the greedy
      queue 150k-530k positions and take the two queues taking turns 4k-85k (fc-solve
      wins PySol 279 in 2.6k); seeds 1-1000 at 150k positions: 2 undecided instead of 5
      or more, and 16 % fewer positions without classic supermove (none undecided instead
      of 1).  Westcliff-classic seeds 61-160 at 80k positions: 7 undecided instead of 11
      with queues of depth 0, 5 and 10 and the dive (without the dive: 12).  Westcliff
      with ten columns keeps the greedy queue and the dive: it decides its deals within a
      few hundred positions either way, and four queues only doubled its time (seeds
      1-400).
    * Easthaven also gets both its weight sets with a cost per move (5).  Its undecided
      deals were taken for proofs, but the ten easthaven-open + partial_runs deals of seeds
      1-300 left undecided at 150k positions are all won (at 190k-860k positions); with
      the depth queues they are won at 0-230k.  At 150k positions, seeds 301-500: 197
      decided instead of 190, with 1.69M positions in all instead of 2.85M; easthaven-open
      seeds 1-150: 143 instead of 141.  A proof expands every position whatever the
      order, so the extra queues cost proofs only their upkeep; in easthaven proper
      (about 6 % of deals won, its undecided deals mostly proofs) that upkeep cost more
      than the queues found: seeds 1-200 at 10 s decided 89.0 % with them and 91.0 %
      without (the same nine wins), so it keeps the three queues.
    """
    if search.supermove:
        greedy = Weights(down=0, buried=0, stock=0, blocker=8)
        return [greedy, replace(greedy, depth=5)]
    if search.waste_deal:
        greedy = Weights(stock=0, order=30)
        if search.ncols > 7:
            return [greedy, Weights(dive=True)]
        return [greedy, replace(greedy, depth=5), replace(greedy, depth=10), Weights(dive=True)]
    plain, lean = Weights(), Weights(stock=0, blocker=8)
    if search.king_fill:
        return [plain, lean, Weights(dive=True)]
    return [plain, lean, replace(plain, depth=5), replace(lean, depth=5), Weights(dive=True)]


def best_first(
    search: Search,
    node_limit: int,
    deadline: float,
    weights: Weights | Sequence[Weights] | None = None,
) -> Path | None:
    """Best-first search for any win from ``search``'s start position.

    Returns the internal move path (auto-play moves included), ``None`` when every
    reachable position was expanded without a win (a proof), and raises
    :class:`~.core.OutOfBudget` when ``node_limit`` positions were seen (counted as
    :meth:`Search.first_solution` counts them: one per newly seen key, the start
    included) or the ``deadline`` (``time.perf_counter()``) passed, checked every 256.
    ``search.nodes`` holds the count afterwards.

    ``weights`` may be several weight sets: then every position goes into one queue per
    set and the queues take turns choosing the next position to expand (a position
    already expanded through another queue is skipped).  Different heuristics get stuck
    on different deals; taking turns costs each at most a constant factor and still
    expands every position once.
    """

    def steps(search: Search, start: Position, opening: Path) -> Steps:
        return best_first_steps(search, start, opening, weights)

    return in_turns(search, [(steps, 1.0)], node_limit, deadline)


def best_first_steps(
    search: Search,
    start: Position,
    opening: Path,
    weights: Weights | Sequence[Weights] | None = None,
) -> Steps:
    """:func:`best_first` as a :data:`~.schedule.Steps` generator, from the settled
    ``start`` position that the moves ``opening`` made (see :func:`.schedule.in_turns`)."""
    if weights is None:
        weights = make_weights(search)
    wlist = [weights] if isinstance(weights, Weights) else list(weights)
    key = search._keyfn
    apply = search.apply
    settle = search.settle
    moves = search.moves
    seen = {key(start)}
    seen_add = seen.add
    nodes = 1  # the start
    target = yield nodes
    # Node ``i``: its position (``None`` once expanded), parent, the moves from the
    # parent (one move and its auto-play), depth (path length).
    states: list[Position | None] = [start]
    parent = [-1]
    made: list[tuple[Move, ...]] = [tuple(opening)]
    depth = [len(opening)]
    # The move that undoes the one that made the node (see :meth:`Search._undo`): it leads
    # back to the parent, whose key is seen, so it is skipped without being applied.
    backs: list[Move | None] = [None]
    undo = search._undo
    skip_undo = search.skip_undo
    # Heap items are single ints (cheap to compare): priority in the high bits, then the
    # node id inverted, so that among equal priorities the newest node comes first (a
    # depth-first tie-break: keep following a line that does not get worse).
    low = (1 << _SHIFT) - 1
    # Queues whose weights differ only in the cost per move share one scorer, so a child
    # is scored once per distinct scorer (``scores``), not once per queue.
    scorers: list[Scorer] = []
    by_weights: dict[Weights, int] = {}
    queues: list[tuple[int | None, int, int, list[int]]] = []
    index: int | None
    scores: Sequence[int]
    for w in wlist:
        if w.dive:
            index = None
            first = 0
        else:
            base = replace(w, depth=0)
            index = by_weights.get(base)
            if index is None:
                index = by_weights[base] = len(scorers)
                scorers.append(_scorer(search, base))
            first = scorers[index](start)
        queues.append((index, w.depth, w.order, [first << _SHIFT | low]))
    single = scorers[0] if len(scorers) == 1 else None
    nq = len(queues)
    turn = 0
    live = 1  # positions queued and not yet expanded
    while live:
        heap = queues[turn][3]
        turn = turn + 1 if turn + 1 < nq else 0
        i = low - (heappop(heap) & low)
        st = states[i]
        if st is None:
            continue  # expanded through another queue
        states[i] = None
        live -= 1
        g = depth[i]
        back = backs[i]
        for rank, option in enumerate(moves(st)):
            move = option[1:]
            if move == back:
                continue
            seg = [move]
            child = settle(apply(st, move), move, seg)
            if child[2] == _ALL_HOME:
                out = seg
                while i >= 0:
                    out[:0] = made[i]
                    i = parent[i]
                return out, nodes
            k = key(child)
            if k in seen:
                continue
            seen_add(k)
            nodes += 1
            if nodes >= target:
                target = yield nodes
            j = len(states)
            cg = g + len(seg)
            states.append(child)
            parent.append(i)
            made.append(tuple(seg))
            depth.append(cg)
            backs.append(undo(st, child, move) if skip_undo and len(seg) == 1 else None)
            live += 1
            tag = low - j
            if single is not None:
                scores = (single(child),)
            else:
                scores = [score(child) for score in scorers]
            for index, wdepth, worder, heap in queues:
                if index is None:  # dive: deepest first, then the generator's order
                    prio = (max(_DIVE - cg, 0) << 8) + min(rank, 255)
                    heappush(heap, prio << _SHIFT | tag)
                    continue
                prio = scores[index] + wdepth * cg
                if worder:
                    # Generator scores lie in 0..~130; clamped so the item stays >= 0.
                    prio -= worder * min(max(option[0], 0), 200) // 100
                heappush(heap, prio << _SHIFT | tag)
    return None, nodes


#: The heuristic of one weight set: a position's cost (lower is better).
Scorer = Callable[[Position], int]
#: Bits of a heap item below the priority: the (inverted) node id.
_SHIFT = 32
#: Depths beyond this dive in no particular order (never reached in practice).
_DIVE = 1 << 24


def _scorer(search: Search, w: Weights) -> Scorer:
    """The heuristic for ``search``'s rules as one closure; offset so it is never negative
    (heap items pack it into the high bits of an int)."""
    fits = search.fits
    has_down = search.has_down
    cache: dict[Any, int] = {}
    cache_get = cache.get
    nstock = search.nstock
    w_found, w_space, w_cell = w.found, w.space, w.cell
    w_stock, w_waste, w_blocker = w.stock, w.waste, w.blocker
    # Never negative, so the priority can be packed into the high bits of an int.
    offset = 52 * w_found + 10 * w_space + 4 * w_cell + 2 * w.order

    def column(col: bytes, d: int) -> int:
        cost = w.down * d
        if d:
            cost += w.buried * (len(col) - d)
        low = [99, 99, 99, 99]
        blockers = 0
        loose = 0
        prev = -1
        for k, c in enumerate(col):
            s = SUIT[c]
            r = RANK[c]
            if r > low[s]:
                blockers += 1
            else:
                low[s] = r
            if k > d and not fits[prev * 52 + c]:
                loose += 1
            prev = c
        return cost + w_blocker * blockers + w.loose * loose

    waste_cache: dict[bytes, int] = {}

    def waste_cost(waste: bytes) -> int:
        v = waste_cache.get(waste)
        if v is not None:
            return v
        low = [99, 99, 99, 99]
        blockers = 0
        for c in waste:
            s = SUIT[c]
            if RANK[c] > low[s]:
                blockers += 1
            else:
                low[s] = RANK[c]
        v = waste_cache[waste] = w_blocker * blockers + w_waste * max(len(waste) - 1, 0)
        return v

    def score(st: Position) -> int:
        cols, down, found, cells, dealt, waste = st
        h = offset - w_found * (found[0] + found[1] + found[2] + found[3])
        h += w_stock * (nstock - dealt)
        if has_down:
            for col, d in zip(cols, down):
                if col:
                    ck = (d, col)
                    v = cache_get(ck)
                    if v is None:
                        v = cache[ck] = column(col, d)
                    h += v
                else:
                    h -= w_space
        else:
            for col in cols:
                if col:
                    v = cache_get(col)
                    if v is None:
                        v = cache[col] = column(col, 0)
                    h += v
                else:
                    h -= w_space
        if cells:
            h -= w_cell * cells.count(-1)
        if waste:
            h += waste_cost(waste)
        if len(cache) > 300_000:
            cache.clear()
            waste_cache.clear()
        return h

    return score
