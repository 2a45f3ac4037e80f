"""A sharper reveal test for the account's judgement: was the column dug the best of those
that could have been dug?

:mod:`.clairvoyance` ranks each turned card against every unseen card. But a player
chooses only among the reveals open at that moment: the face-down tops of the columns a
legal move would uncover (and, where a deal turns one card, the stock's top). For an honest
player the choice among them depends only on what is visible, and the cards under them are,
for all the player knows, a random arrangement of the unseen cards; so the turned card is
a uniform draw from the cards under the open reveals, *whatever the policy*. Ranking it
against them (ties half) gives a share with mean exactly one half and a variance known from
the values at hand: a test as exact as the first, with fewer, closer alternatives. A player
who sees the cards and digs where the useful one lies beats one or two alternatives every
time, rather than a random share of twenty unseen cards, so the evidence per reveal is
larger. Reveals with a single open choice say nothing and are skipped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from games.engine import State, legal_moves, reveals_hidden

from .clairvoyance import RevealTest, _share, card_utility, hidden_top, turned_card
from .replay import Step


def open_reveals(state: State) -> set[int]:
    """The cards the legal moves of ``state`` would turn face up by the player's choice."""
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


def choice_test(steps: Iterable[Step]) -> RevealTest:
    events = 0
    beaten = total = variance = 0.0
    best = 0
    for step in steps:
        found = turned_card(step)
        if found is None:
            continue
        turned, source = found
        others = sorted(open_reveals(step.before) - {turned})
        if not others:
            continue
        values = [card_utility(card, step.after, source) for card in (turned, *others)]
        shares = [_share(value, values) for value in values]
        spread = sum((s - 0.5) ** 2 for s in shares) / len(shares)
        if spread <= 0.0:
            continue  # the open reveals are equally useful: no evidence either way
        events += 1
        beaten += shares[0]
        total += shares[0] - 0.5
        variance += spread
        best += shares[0] >= max(shares)
    z = total / math.sqrt(variance) if variance > 0 else 0.0
    return RevealTest(events, beaten, z, best / events if events else 0.0, total, variance)
