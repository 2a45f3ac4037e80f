"""Clairvoyance: did the player turn up the useful hidden cards more often than chance?

The signal is an exact test, not a guess at how people play. Whatever a player has seen,
the cards they have not seen lie, for all they know, in a random order: given everything
visible, each arrangement of the unseen cards over the face-down slots and the stock is
equally likely. So the card an honest player turns up (by digging a column, or by dealing
in Westcliff) is a uniform draw from the cards they have not seen, *whatever policy they
follow*, good or bad, fast or slow.

At each reveal the turned card is ranked by its usefulness in the position
(:func:`card_utility`) against every card still unseen (computed with the full deck, i.e.
with what the player should not know): ``p`` = the share of them it beats, ties counting
half. An honest player's ``p`` averages exactly 0.5, with a variance known from the
values at hand, and since the unseen set is known to the player before each reveal the
centred ``p`` form a martingale: their weighted sum over the play is a z-score, near-normal
after a handful of reveals (simulated honest players: mean 0.0, spread 1.0). A player who
sees through the cards keeps turning up the useful ones, so ``p`` stays high. Reveals where
no other card could be turned count ``FORCED_WEIGHT``. No solver, no model of human play:
milliseconds per play. :mod:`.par_line` adds the second signal (walking the par line).

Seahaven Towers deals every card face up: there is nothing hidden to know, so the test
does not apply there (the detector says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.engine import RANK, RED, SUIT, State, legal_moves, reveals_hidden

from .replay import Step

#: Fewer reveals by choice than this, and the test says nothing (too little evidence).
MIN_EVENTS = 4
#: z at which a play is flagged by default (one-sided 0.13 % for an honest player):
#: ``score = Φ(z − Z_CUT)``, so the default threshold 0.5 is exactly this z.
Z_CUT = 3.0


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
    total: float = 0.0
    """The weighted sum of the centred shares (the z-score's numerator)."""
    variance: float = 0.0
    """Its variance for an honest player (the z-score's denominator squared): sums of
    plays' ``total`` over the sum of their ``variance`` pool into one exact z-score."""

    @property
    def score(self) -> float:
        return normal_cdf(self.z - Z_CUT) if self.events >= MIN_EVENTS else 0.0


def hidden_top(state: State, column: int) -> int | None:
    down = state.down[column]
    return state.cols[column][down - 1] if down else None


FORCED_WEIGHT = 0.0


def unseen(state: State) -> list[int]:
    """Every card the player has not seen: face down in a column, or in the stock."""
    cards = [c for col, down in zip(state.cols, state.down) for c in col[:down]]
    cards.extend(state.stock)
    return cards


def turned_card(step: Step) -> tuple[int, int] | None:
    """The card ``step`` turns by the player's choice and the column it now tops (-1 for
    the waste), or ``None``: a Westcliff deal is a choice (deal, or dig elsewhere); an
    Easthaven row deal turns seven cards at once when the player is stuck, and says little."""
    move = step.move
    if not step.reveals:
        return None
    if move.type == "deal":
        return (step.before.stock[0], -1) if step.before.rules.has_waste else None
    if move.type != "move" or not move.src or move.src[0] != "t":
        return None
    source = int(move.src[1:])
    card = hidden_top(step.before, source)
    return None if card is None else (card, source)


def reveal_test(
    steps: Iterable[Step],
    counts: Callable[[int], bool] = lambda card: True,
    weigh: Callable[[State], float] | None = None,
) -> RevealTest:
    """The permutation test over every reveal by choice (module doc). ``counts`` keeps
    only the cards it accepts, as candidates and as turned cards (the linked-accounts
    detector tests the cards another account had seen); ``weigh`` gives each reveal's
    weight from the position before it (what the player saw, so the test stays exact;
    by default 1, or ``FORCED_WEIGHT`` where no other reveal was possible)."""
    events = 0
    beaten = 0.0
    total = 0.0
    variance = 0.0
    best = 0
    for step in steps:
        found = turned_card(step)
        if found is None or not counts(found[0]):
            continue
        turned, source = found
        others = [card for card in unseen(step.before) if card != turned and counts(card)]
        if not others:
            continue
        values = [card_utility(card, step.after, source) for card in (turned, *others)]
        shares = [_share(value, values) for value in values]
        mean = sum(shares) / len(shares)  # 0.5 by construction
        spread = sum((s - mean) ** 2 for s in shares) / len(shares)
        if spread <= 0.0:
            continue  # every candidate equally useful: no evidence either way
        if weigh is not None:
            weight = weigh(step.before)
        else:
            weight = 1.0 if choices(step.before) >= 2 else FORCED_WEIGHT
        events += 1
        beaten += shares[0]
        total += weight * (shares[0] - 0.5)
        variance += weight * weight * spread
        best += shares[0] >= max(shares)
    z = total / math.sqrt(variance) if variance > 0 else 0.0
    return RevealTest(events, beaten, z, best / events if events else 0.0, total, variance)


def choices(state: State) -> int:
    """How many legal moves of ``state`` turn a hidden card: where there is one, the player
    picked the moment; where there are several, also the card."""
    return sum(reveals_hidden(state, move) for move in legal_moves(state))


def _share(value: float, values: list[float]) -> float:
    """The share of the other values below ``value``, ties counting half."""
    below = sum(v < value for v in values)
    equal = sum(v == value for v in values) - 1
    return (below + 0.5 * equal) / (len(values) - 1)


def describe(test: RevealTest, what: str) -> str:
    if test.events < MIN_EVENTS:
        return f"only {test.events} {what} turned by choice: too few to judge"
    return (
        f"{test.events} {what} turned up; on average each was more useful than "
        f"{test.beaten / test.events:.0%} of the cards still unseen (honest play: 50 %), "
        f"the most useful of them {test.best_share:.0%} of the time, z = {test.z:.1f}"
    )
