"""Randomized depth-first dives with restarts: a second search order beside best-first.

Why: on deals that best-first does not win early, the time to a win is heavy-tailed: one
order wins within a few hundred positions, another wanders for millions (the same deal,
only the search order changed).  Restarting short dives with a little randomness in the
move order is the classic cure for such tails (Gomes, Selman and Kautz, "Boosting
combinatorial search through randomization", 1998).  westcliff-classic seed 103, still
undecided by best-first after 100k positions, is won by the first dive within 100; on
seeds 1-200 at a budget of 100k positions, dives beside best-first (share 0.5) leave 12
westcliff-classic deals undecided instead of 20 and 3 easthaven-open + partial_runs
deals instead of 5, with a third fewer positions in all (``bench/README.md``).

Each dive is the depth-first search of :meth:`.core.Search.first_solution` (same moves,
same auto-play, its own transposition set), with the generator's move scores perturbed by
a random amount, and stops after its share of positions; the shares follow Luby's
sequence (1, 1, 2, 1, 1, 2, 4, …) times :data:`BASE`, which is within a constant factor
of the best fixed restart length for any run-time distribution (Luby, Sinclair and
Zuckerman, 1993).  The first dive keeps the generator's order unperturbed.  A dive that
runs out of positions before its share is an exhaustive search, i.e. a proof.

Soundness is that of the DFS: a win is a sequence of generated moves (and is replayed by
the engine like any other); an exhausted dive has visited every position reachable from
the start under the same pruning rules.  The dives are seeded from the deal, so node
counts stay deterministic.
"""

from __future__ import annotations

import random
from typing import Any

from .core import _ALL_HOME, Path, Position, Search
from .position import ScoredMove
from .schedule import Steps

__all__ = ["BASE", "NOISE", "dive_share", "dive_steps", "luby"]

#: Positions of the shortest dive (a unit of Luby's sequence).
BASE = 500
#: Random amount added to each move's generator score (scores lie in about 0-130).
NOISE = 60


def dive_share(search: Search) -> float:
    """The dives' share of the positions for ``search``'s rules, best-first's being 1;
    0 means no dives.

    Dives run where they were measured to win deals that best-first leaves undecided
    (``bench/README.md``): Westcliff with seven columns, and Easthaven with open spaces
    and partial runs.  Elsewhere the undecided deals are mostly losses, whose proof
    needs best-first's whole budget (Easthaven proper, and Easthaven with open spaces
    but whole runs: there dives beside best-first lost more proofs than they won
    deals), or there are none to win (Seahaven, ten-column Westcliff, by suit).
    """
    if search.king_fill or search.supermove or search.same_suit:
        return 0.0
    if search.waste_deal:
        return SHARE if search.ncols <= 7 else 0.0
    return SHARE if search.partial else 0.0


#: The dives' share where they run (best-first's is 1): 0.5, 1 and 2 were measured on
#: westcliff-classic and easthaven-open + partial_runs, 0.5 was best or level on both.
SHARE = 0.5


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, …:
    ``2**(k-1)`` where ``i == 2**k - 1``, else the term ``2**(k-1) - 1`` places earlier,
    ``k`` being the smallest with ``i <= 2**k - 1`` (``i.bit_length()``)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def dive_steps(
    search: Search, start: Position, opening: Path, base: int = BASE, noise: float = NOISE
) -> Steps:
    """Restarted dives from the settled ``start`` position that the moves ``opening``
    made, as a :data:`~.schedule.Steps` generator (see :func:`.schedule.in_turns`)."""
    key = search._keyfn
    apply = search.apply
    settle = search.settle
    moves = search.moves
    undo = search._undo
    skip_undo = search.skip_undo
    rng = random.Random(repr(start))
    uniform = rng.random

    def noisy(option: ScoredMove) -> float:
        return option[0] + noise * uniform()

    def perturbed(st: Position) -> list[ScoredMove]:
        return sorted(moves(st), key=noisy, reverse=True)

    nodes = 0
    target = yield nodes
    restart = 0
    while True:
        restart += 1
        limit = nodes + base * luby(restart)
        order = moves if restart == 1 else perturbed
        seen = {key(start)}
        seen_add = seen.add
        # A frame: position, its moves, next index, the moves that made it (one move and
        # its auto-play), the move that undoes the one that made it (or None).
        frames: list[list[Any]] = [[start, order(start), 0, opening, None]]
        while frames:
            frame = frames[-1]
            st, options, index, _, back = frame
            if index == len(options):
                frames.pop()
                continue
            frame[2] = index + 1
            move = options[index][1:]
            if move == back:
                continue
            seg = [move]
            child = settle(apply(st, move), move, seg)
            if child[2] == _ALL_HOME:
                path = [m for f in frames for m in f[3]]
                return path + seg, nodes
            k = key(child)
            if k in seen:
                continue
            seen_add(k)
            nodes += 1
            if nodes >= target:
                target = yield nodes
            if nodes >= limit:
                break
            back = undo(st, child, move) if skip_undo and len(seg) == 1 else None
            frames.append([child, order(child), 0, seg, back])
        else:
            return None, nodes
