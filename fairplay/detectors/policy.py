"""A player's move choice from the visible information, and what knowledge of hidden cards
adds to it.

:func:`move_scores` ranks the legal moves of a position the way a sound human player does
from what the board shows (foundation moves first, then turning face-down cards, freeing
columns, no aimless shuffling). ``knows`` tells it which hidden cards the player knows:
none for an honest player, every card for one who sees the full deck, the cards another
account revealed for a linked-account cheat; a known useful card makes digging toward it
worth more. ``bench/fairplay.py`` plays its simulated players with it; the detectors do
not need it (the clairvoyance test holds whatever the honest policy), which is what lets
the benchmark's held-out players differ from the tuned ones without changing the
false-positive rate.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import RANK, RED, SUIT, Move, State, legal_moves

#: ``knows(card)``: does the player know this hidden card where it lies?
Knows = Callable[[int], bool]


def nobody_knows(card: int) -> bool:
    return False


def known_value(card: int, state: State) -> float:
    """What a player who knows ``card`` expects from turning it: soon on a foundation, or
    fits on a visible column top."""
    suit, rank = SUIT[card], RANK[card]
    value = 2.5 if rank - state.found[suit] <= 1 else 0.0
    alternate = state.rules.build == "alternate"
    for col in state.cols:
        if col:
            top = col[-1]
            fits = RED[top] != RED[card] if alternate else SUIT[top] == suit
            if RANK[top] == rank + 1 and fits:
                value += 1.5
                break
    return value - 0.15 * (rank - state.found[suit])


def move_scores(
    state: State, knows: Knows = nobody_knows, weight: float = 1.0
) -> list[tuple[float, Move]]:
    """Every legal move with its score (higher is better); ``weight`` scales what known
    hidden cards add."""
    scored = []
    for move in legal_moves(state):
        scored.append((_score(state, move, knows, weight), move))
    return scored


def _score(state: State, move: Move, knows: Knows, weight: float) -> float:
    if move.type == "deal":
        score = -1.0
        if state.rules.has_waste and knows(state.stock[0]):
            score += weight * 0.6 * known_value(state.stock[0], state)
        return score
    src, dst = move.src or "", move.dst or ""
    if dst == "f":
        return 5.0
    if src[0] == "w":
        return 1.5
    if src[0] == "c":
        return 1.0
    if dst[0] == "c":
        return -1.5
    i = int(src[1:])
    col, down = state.cols[i], state.down[i]
    rest = len(col) - move.count
    target = state.cols[int(dst[1:])]
    if 0 < rest == down:  # turns the face-down card below
        score = 4.0 + 1.0 / down
        hidden = col[down - 1]
        if knows(hidden):
            score += weight * known_value(hidden, state)
        return score
    if rest == 0:
        return -3.0 if not target else (2.0 if down == 0 else 0.0)
    score = -0.5  # shuffling between columns: sometimes needed, rarely good
    if down and rest > down and knows(col[down - 1]):
        score += weight * 0.5 * known_value(col[down - 1], state)  # digging toward it
    return score
