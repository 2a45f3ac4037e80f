"""A sharper reveal test for the account's judgement: the exact test of
:mod:`.clairvoyance`, each reveal weighted by how much choice the player had.

A player chooses only among the reveals open at that moment: the face-down tops of the
columns a legal move would uncover (and, where a deal turns one card, the stock's top).
With one open reveal, knowing the cards cannot change *which* card comes up; with ``k``
of them, a player who sees the cards takes the best of ``k``, and the more there are the
further the turned card stands above a uniform draw. So each reveal counts ``k − 1``
(weight 0 when it was the only one).

Why the null stays exact: the weight is a function of the position before the reveal,
which the player saw (a *predictable* weight), and the share is still ranked against
every unseen card, a set the player knows; so the weighted centred shares remain a
martingale with known variance for an honest player, whatever the policy, and they pool
across plays. (Ranking the turned card against the cards under the open reveals only,
the obvious sharper test, is *not* exact once pooled: those cards stay hidden, so the
shares of successive reveals depend on each other through cards the player never saw;
simulated honest plays showed 1.7 times the nominal variance.)

Measured on simulated Westcliff plays (40 deals): players who see the deck move this z by
1.7 a play against 0.9 for the unweighted test; honest players: mean 0.1, spread 1.1.
Easthaven gains nothing (its reveals are rarely a choice among several).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine import State, legal_moves, reveals_hidden

from .clairvoyance import RevealTest, hidden_top, reveal_test
from .replay import Step


def open_reveals(state: State) -> set[int]:
    """The cards the legal moves of ``state`` would turn face up by the player's choice
    (the identities are hidden from the player; only their number weighs)."""
    cards: set[int] = set()
    for move in legal_moves(state):
        if not reveals_hidden(state, move):
            continue
        if move.type == "deal":
            if state.rules.has_waste and state.stock:
                cards.add(state.stock[0])
        elif move.src and move.src[0] == "t":
            card = hidden_top(state, int(move.src[1:]))
            if card is not None:
                cards.add(card)
    return cards


def choice_weight(state: State) -> float:
    return max(0.0, len(open_reveals(state)) - 1.0)


def choice_test(steps: Iterable[Step]) -> RevealTest:
    return reveal_test(steps, weigh=choice_weight)
