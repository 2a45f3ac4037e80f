"""Clairvoyance: did the player dig where the useful hidden cards were?

The signal is an exact permutation test, not a guess at how people play. Whatever a player
sees, the face-down cards are, to them, a random arrangement of the cards they have not
seen: given everything visible, each arrangement of those cards over the hidden slots is
equally likely. So when an honest player turns a face-down card, that card is, in
distribution, no better than the cards lying face down at the top of the other columns
(the slots they could have dug at instead), *whatever policy they follow*, good or bad.

At each reveal the turned card is ranked against those alternatives by its usefulness in
the position (:func:`card_utility`, computed from the full deck, i.e. with what the player
should not know): ``p`` = the share of alternatives it beats (ties count half). An honest
player's ``p`` averages exactly 0.5 with a variance known from the values at hand; a
player who sees through the cards keeps turning the useful ones, so ``p`` stays high. The
sum over the play is a z-score (the events form a martingale, so it is near-normal after a
handful of reveals). No solver, no model of human play: a few milliseconds per play.

Seahaven Towers deals every card face up: there is nothing hidden to know, so clairvoyance
does not apply there (the detector says so and scores 0).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.engine import NAMES, RANK, RED, SUIT, State

from .replay import Step

#: Fewer reveals by choice than this, and the test says nothing (too little evidence).
MIN_EVENTS = 4
#: z at which a play is flagged by default (one-sided 0.5 % for an honest player):
#: ``score = Φ(z − Z_CUT)``, so the default threshold 0.5 is exactly this z.
Z_CUT = 2.576


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def card_utility(card: int, state: State, skip: int = -1) -> float:
    """How much turning ``card`` face up helps in ``state`` (the position after the move,
    judged the same way for every candidate card, so column ``skip``, where the turned card
    now lies, is left out): a card the foundation takes next is worth most, then one that
    fits on a visible column top, and the lower a card stands above its foundation the
    sooner the game needs it."""
    suit, rank = SUIT[card], RANK[card]
    value = -0.25 * (rank - state.found[suit])
    if state.found[suit] == rank:
        value += 3.0
    alternate = state.rules.build == "alternate"
    for j, col in enumerate(state.cols):
        if not col or j == skip:
            continue
        top = col[-1]
        if RANK[top] == rank + 1 and (RED[top] != RED[card] if alternate else SUIT[top] == suit):
            value += 1.5
            break
    return value


@dataclass(frozen=True)
class RevealTest:
    events: int
    beaten: float
    """Sum of ``p`` over the events (how many alternatives' worth the turned cards beat)."""
    z: float
    best_share: float
    """Share of events where the turned card was at least as useful as every alternative."""

    @property
    def score(self) -> float:
        return normal_cdf(self.z - Z_CUT) if self.events >= MIN_EVENTS else 0.0


def hidden_top(state: State, column: int) -> int | None:
    down = state.down[column]
    return state.cols[column][down - 1] if down else None


def reveal_test(
    steps: Iterable[Step], counts: Callable[[int], bool] = lambda card: True
) -> RevealTest:
    """The permutation test over every reveal of a face-down tableau card. ``counts`` keeps
    only the cards it accepts, as candidates and as turned cards (the linked-accounts
    detector tests the cards another account had seen)."""
    events = 0
    total = 0.0
    variance = 0.0
    best = 0
    for step in steps:
        move = step.move
        if not step.reveals or move.type != "move" or not move.src or move.src[0] != "t":
            continue
        source = int(move.src[1:])
        turned = hidden_top(step.before, source)
        if turned is None or not counts(turned):
            continue
        others = [
            card
            for j in range(len(step.before.cols))
            if j != source and (card := hidden_top(step.before, j)) is not None and counts(card)
        ]
        if not others:
            continue
        values = [card_utility(card, step.after, source) for card in (turned, *others)]
        shares = [_share(value, values) for value in values]
        mean = sum(shares) / len(shares)  # 0.5 by construction
        spread = sum((s - mean) ** 2 for s in shares) / len(shares)
        if spread <= 0.0:
            continue  # every candidate equally useful: no evidence either way
        events += 1
        total += shares[0]
        variance += spread
        best += shares[0] >= max(shares)
    z = (total - 0.5 * events) / math.sqrt(variance) if variance > 0 else 0.0
    return RevealTest(events, total, z, best / events if events else 0.0)


def _share(value: float, values: list[float]) -> float:
    """The share of the other values below ``value``, ties counting half."""
    below = sum(v < value for v in values)
    equal = sum(v == value for v in values) - 1
    return (below + 0.5 * equal) / (len(values) - 1)


def describe(test: RevealTest, what: str) -> str:
    if test.events < MIN_EVENTS:
        return f"only {test.events} {what} turned by choice: too few to judge"
    return (
        f"{test.events} {what} turned by choice; the turned card was the most useful of the "
        f"face-down candidates {test.best_share:.0%} of the time and beat "
        f"{test.beaten / test.events:.0%} of them on average (honest play: 50 %), "
        f"z = {test.z:.1f}"
    )


def example_cards(steps: Iterable[Step]) -> list[str]:
    """The cards turned, in order (for the reviewer)."""
    names = []
    for step in steps:
        if step.reveals and step.move.type == "move" and step.move.src and step.move.src[0] == "t":
            card = hidden_top(step.before, int(step.move.src[1:]))
            if card is not None:
                names.append(NAMES[card])
    return names
