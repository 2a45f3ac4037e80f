"""Haven's solver: is a deal winnable by a player who knows every card ("thoughtful" play)?

``solve(rules, deck, time_budget=10.0, node_budget=None, shorten=True)`` answers
``winnable`` (with a solution the engine replays to a win), ``unwinnable`` (only after an
exhaustive search) or ``unknown`` (budget spent).  Pure Python, no Django, and no syntax
newer than Python 3.9: the same code also runs on PyPy, about twice as fast, in worker
processes that the service and the ``solve`` command feed one JSON line per deal
(:mod:`.worker`, :mod:`.external`; ``SOLVER_PYTHON``, ``solve --python pypy3``).

Design
======

The search runs on its own compact positions and move generator (:mod:`.core`), much
cheaper than the engine's immutable ``State``; the engine is the judge: every solution is
translated to API moves and replayed with :func:`games.engine.replay` before it is
returned, and a solution that does not end in ``won`` raises :class:`SolverBug`.

1. **First solution**: best-first search (:mod:`.bestfirst`): every newly seen position
   goes into a priority queue ordered by a heuristic per rule family, and the most
   promising one is expanded next, so one bad early choice does not cost its whole
   subtree as it does depth-first.  Each position is keyed in a transposition set and
   expanded once; the graph is finite, so the search finds a win whenever one is
   reachable and an exhausted queue is a proof of ``unwinnable`` (the same set of
   positions a depth-first search, :meth:`.core.Search.first_solution`, visits: the tests
   compare the two).  Where they were measured to help (:func:`.dives.dive_share`),
   restarted randomized depth-first dives (:mod:`.dives`) run beside it on the same
   budget, taking turns in slices of 256 positions (:mod:`.schedule`): they win many
   deals on which best-first sinks into a basin of well-scored positions.  Each dive is
   the depth-first search above in a perturbed move order, so its wins are ordinary
   move sequences (replayed like any other) and a dive that runs out of positions before
   its share is the same exhaustive proof.  The first answer of either ends both.
   With ``workers=2`` (a machine with a core to spare) a plain depth-first search of the
   same position, :meth:`.core.Search.first_solution`, races the above in a forked
   process (:mod:`.race`), started once the main search has run 0.25 s without an
   answer; the first win or proof of either ends both.  It costs less per position than
   best-first and keeps one transposition set, so it finishes proofs sooner, and it wins
   deals that lie straight down the generator's move order (``bench/README.md``).
2. **Shortening** (``shorten=True``): first :mod:`.splice` cuts the first win's cycles and
   takes its one-move shortcuts (exact and cheap: first wins wander, and a bound of
   thousands of moves leaves branch and bound nothing to cut); then branch and bound
   from the start, looking only for
   wins shorter than the best so far.  A position is cut when ``g + h > bound`` with the
   admissible ``h`` = cards not yet on the foundations + deals still to make (every card
   needs exactly one foundation move and the stock must be dealt out to win), or when it
   was already reached at a depth ``<= g``.  ``first_length`` is the length of the first
   win found, ``length`` that of the final one; when branch and bound runs to the end
   ``optimal`` is true (the shortest win under the rules below, which all keep some
   shortest win).

Pruning rules (all off with ``pruning=False``) and why each is sound
====================================================================

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
  among them (a permutation, the same key).  Moves keep the actual pile indices.
* **Canonical cell order** (Seahaven): a cell's index is read by no rule, so keys sort the
  cells; consequently a cell-to-cell move (same key as before) is not generated, and a
  card going to a cell is tried in the first empty cell only.
* **Cell cards onto their parents** (Seahaven: same-suit builds, cells). A cell card ``x``
  whose parent ``x+1`` (the only card it fits on) is a column's top goes onto it at once
  (:meth:`.core.Search.cells_home`, part of settling a position), and in return a column's
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
* **Equivalent spaces** (interchangeable columns only): moving into one empty column or
  another gives positions with the same key, so only the first space is a target.
* **Whole column into a space** (interchangeable columns only): the result is a
  permutation of the columns, i.e. the same key: not generated.  In Easthaven it is a real
  move (the cards then receive other row deals) and is kept, except between two columns
  no deal reaches any more (above).
* **Dead ends by a relaxation** (presets without cells; :meth:`.core.Search.dead`, checked
  by :meth:`~.core.Search.moves`, which gives a dead position no moves). Every card not on
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
* **Dead ends with row deals to come** (Easthaven presets with stock left;
  :meth:`.core.Search._dead_rows`).  The same relaxation, but the stock cards are not
  removed from the start: a relaxed *deal* puts the next row on the relaxed top cards of
  ``t0`` … (as the real deal does), and that column is then the dealt card's place.  The
  relaxed game removes everything removable, deals, and so on, and after the last deal
  removes everything removable once more; the bottom-card rule of (c) applies only then.
  A dealt card may also be removed when the cards beneath it down to some ``y`` form a
  face-up run (any run, even without partial runs) and ``y`` may be removed by (b) or
  (c).  Proof: map a shortest win ``W`` as above, each deal to the relaxed deal.  Along a
  column the cards whose place it is keep their order and lie at the bottom (its own
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

import gc
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .bestfirst import best_first_steps
from .core import CELL0, DEAL, FOUND, INF, WASTE, OutOfBudget, Search
from .dives import dive_share, dive_steps
from .race import MAX_WORKERS, STOP_GRACE, Rival, can_fork
from .schedule import Interrupted, in_turns
from .splice import splice_api
from .verdicts import DECIDED, UNKNOWN, UNWINNABLE, WINNABLE

__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "SolveResult",
    "SolverBug",
    "check_replay",
    "solve",
    "solve_state",
]


class SolverBug(RuntimeError):
    """The solver produced a solution the engine does not accept: a bug, never an answer."""


@dataclass
class SolveResult:
    verdict: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    first_length: int | None = None
    length: int | None = None
    optimal: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "moves": self.moves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "first_length": self.first_length,
            "length": self.length,
            "optimal": self.optimal,
        }


def _pile(p: int) -> str:
    if p < CELL0:
        return f"t{p}"
    if p < WASTE:
        return f"c{p - CELL0}"
    if p == WASTE:
        return "w"
    return "f"


def to_api(path: Sequence[tuple[int, int, int]]) -> list[dict[str, Any]]:
    """Internal moves → the API's move dicts."""
    out = []
    for src, dst, cnt in path:
        if src == DEAL:
            out.append({"type": "deal"})
        else:
            out.append({"type": "move", "from": _pile(src), "to": _pile(dst), "count": cnt})
    return out


_PILE_IDS = {
    **{f"t{i}": i for i in range(10)},
    **{f"c{k}": CELL0 + k for k in range(4)},
    "w": WASTE,
    "f": FOUND,
}


def from_api(moves: Sequence[dict[str, Any]]) -> list[tuple[int, int, int]]:
    """The API's move dicts → internal moves (inverse of :func:`to_api`)."""
    return [
        (DEAL, DEAL, 0)
        if m["type"] == "deal"
        else (_PILE_IDS[m["from"]], _PILE_IDS[m["to"]], m["count"])
        for m in moves
    ]


def verify(state, moves: list[dict[str, Any]]) -> None:
    """Apply ``moves`` to the engine ``state``; raise :class:`SolverBug` unless they win."""
    from games.engine import WON, IllegalMove, Move, MoveFormatError, apply_move, status

    for index, raw in enumerate(moves):
        try:
            state = apply_move(state, Move.from_dict(raw))
        except (IllegalMove, MoveFormatError) as error:
            raise SolverBug(f"solution move {index} ({raw}) is illegal: {error!r}") from None
    if status(state) != WON:
        raise SolverBug(f"solution of {len(moves)} moves ends in {status(state)}, not won")


def solve(
    rules,
    deck: Sequence[int],
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    *,
    pruning: bool = True,
    shorten_budget: float | None = None,
    workers: int = 1,
) -> SolveResult:
    """Solve the deal of ``deck`` under ``rules`` (a :class:`games.engine.Rules`).

    ``time_budget`` (seconds) and ``node_budget`` (positions expanded) bound the whole call,
    shortening included; ``None`` means unbounded.  Shortening gets at most
    ``shorten_budget`` seconds (default: half the time budget) of what is left after the
    first solution.  ``pruning=False`` disables every optional pruning rule (for tests).
    ``workers=2`` races a depth-first search in a second process against the main one
    (:mod:`.race`; each gets the node budget, ``nodes`` counts both) for a machine with a
    core to spare.  The solution is replayed from the deal by the engine before it is
    returned.
    """
    from games.engine import new_game

    result = solve_state(
        new_game(rules, deck),
        time_budget,
        node_budget,
        shorten,
        pruning=pruning,
        shorten_budget=shorten_budget,
        workers=workers,
    )
    if result.verdict == WINNABLE:
        check_replay(rules, deck, result.moves)
    return result


def check_replay(rules, deck: Sequence[int], moves: list[dict[str, Any]]) -> None:
    """Replay API ``moves`` from the deal of ``deck`` with the engine; :class:`SolverBug`
    unless they win (the engine is the judge of every answer, wherever it was found)."""
    from games.engine import replay, status

    state, index, error = replay(rules, tuple(deck), moves)
    if error is not None or status(state) != "won":
        raise SolverBug(f"solution does not replay from the deck (move {index}: {error!r})")


def _first_win(search: Search, node_limit: int, deadline: float, interrupt=None) -> list | None:
    """Best-first search, with randomized dives beside it where they help (see
    :mod:`.dives`): a win's internal path, ``None`` for a proof.  ``interrupt``: see
    :func:`.schedule.in_turns`."""
    searches = [(best_first_steps, 1.0)]
    share = dive_share(search)
    if share:
        searches.append((dive_steps, share))
    return in_turns(search, searches, node_limit, deadline, interrupt)


#: Seconds the main search runs alone before a rival (``workers=2``) is started: most
#: deals are decided in milliseconds, and those need no second process.
RIVAL_DELAY = 0.25


class _Race:
    """The main search and, with ``workers > 1``, a depth-first :class:`.race.Rival` in a
    forked process, started once the main search has run :data:`RIVAL_DELAY` seconds
    without an answer.  :meth:`decide` returns the first decided answer of either."""

    def __init__(self, search: Search, state, workers: int, node_limit: int, deadline: float):
        self.search = search
        self.state = state
        self.node_limit = node_limit
        self.deadline = deadline
        self.enabled = workers > 1 and search.pruning and can_fork()
        self.start_at = time.perf_counter() + RIVAL_DELAY
        self.rival: Rival | None = None

    def interrupt(self) -> bool:
        """Called by the main search every few hundred positions: start the rival when
        its time has come; true once it has a win or a proof."""
        if self.rival is None:
            if time.perf_counter() < self.start_at:
                return False
            self.rival = Rival(self.state, self.node_limit, self.deadline)
        return self.rival.decided()

    def decide(self) -> tuple[str, list | None]:
        """``(verdict, internal path or None)``; :class:`OutOfBudget` when neither search
        decided within the budget."""
        search = self.search
        try:
            if not search.pruning:
                # The plain reference search the pruning tests compare with: depth-first,
                # as documented; the service searches best-first.
                path = search.first_solution(self.node_limit, self.deadline)
            else:
                path = _first_win(
                    search,
                    self.node_limit,
                    self.deadline,
                    self.interrupt if self.enabled else None,
                )
        except Interrupted:
            verdict, path, _ = self.rival.answer
            return verdict, path
        except OutOfBudget:
            # The rival has the same deadline: its answer is due about now.
            if self.rival is not None:
                answer = self.rival.wait(self.deadline + STOP_GRACE)
                if answer is not None and answer[0] in DECIDED:
                    return answer[0], answer[1]
            raise
        return (WINNABLE if path is not None else UNWINNABLE), path

    def stop(self) -> int:
        """Stop the rival (reaped in the background, see :meth:`.race.Rival.stop`); the
        positions it searched (0 without one)."""
        if self.rival is None:
            return 0
        answer = self.rival.stop()
        return answer[2] if answer else 0


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Switch Python's cyclic garbage collector off for the duration of a search (used as
    a decorator of :func:`solve_state`).

    Why: a search allocates millions of tuples (positions, keys) that stay alive in its
    tables and form no reference cycles, so reference counting frees everything the
    search drops; the cyclic collector only rescans the live ones, again and again as
    allocations pile up: 6-11 % of the search's time on every rule family measured
    (``bench/README.md``), more in a process holding many other objects.  The previous
    setting is restored afterwards, so a caller with the collector off keeps it off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@_without_cyclic_gc()
def solve_state(
    state,
    time_budget: float | None = 10.0,
    node_budget: int | None = None,
    shorten: bool = True,
    *,
    pruning: bool = True,
    shorten_budget: float | None = None,
    workers: int = 1,
) -> SolveResult:
    """Like :func:`solve`, from any engine :class:`~games.engine.State` (e.g. an endgame)."""
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be 1 or {MAX_WORKERS}, not {workers}")
    started = time.perf_counter()
    deadline = started + time_budget if time_budget is not None else float("inf")
    node_limit = node_budget if node_budget is not None else INF
    search = Search(state, pruning=pruning)
    race = _Race(search, state, workers, node_limit, deadline)
    try:
        verdict, path = race.decide()
    except OutOfBudget:
        verdict, path = UNKNOWN, None
    finally:
        rival_nodes = race.stop()
    if verdict != WINNABLE:
        return SolveResult(verdict, [], search.nodes + rival_nodes, time.perf_counter() - started)

    first_length = len(path)
    optimal = False
    if shorten and search.nodes < node_limit:
        now = time.perf_counter()
        share = shorten_budget
        if share is None:
            share = 0.5 * time_budget if time_budget is not None else 60.0
        end = min(deadline, now + share)
        # Cutting cycles is linear and always done, even with no budget left (a first win
        # can wander for thousands of moves); shortcuts and branch and bound use the budget.
        path = from_api(splice_api(state, to_api(path), end))
        if end > time.perf_counter():
            path, optimal = search.shorten(path, node_limit, end)
    moves = to_api(path)
    verify(state, moves)
    return SolveResult(
        WINNABLE,
        moves,
        search.nodes + rival_nodes,
        time.perf_counter() - started,
        first_length=first_length,
        length=len(moves),
        optimal=optimal,
    )
