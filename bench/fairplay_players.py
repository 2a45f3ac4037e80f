"""The simulated players of ``bench/fairplay.py``: who chooses the moves, and how fast.

A player is a :class:`Chooser` (the visible-information policy of
:mod:`fairplay.detectors.policy`, with what it knows of the hidden cards, its noise, its
mistakes and undos) and a :class:`Clock` (human think times that depend on the position,
machine speed, or a bot's random sleeps). :func:`play` plays one deal and returns the log
as the server stores it (``Move.move`` rows and seconds per row).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from fairplay.detectors.policy import move_scores
from games.engine import (
    NAMES,
    WON,
    Rules,
    apply_move,
    new_game,
    reveals_hidden,
    state_key,
    status,
)

MAX_ROWS = 300
#: A player who has neither turned a card, dealt nor played to a foundation for this many
#: moves gives up.
STALL = 40


@dataclass(frozen=True)
class Chooser:
    noise: float = 0.8
    mistakes: float = 0.05
    undo: float = 0.5
    """Chance that a mistake which turned nothing is taken back (ranked: no undo past a
    reveal or a deal, API.md)."""
    weight: float = 0.0
    """How much the known hidden cards count (0: an honest player)."""


@dataclass(frozen=True)
class Clock:
    kind: str  # "human", "machine" or "sleep"
    base: float = 1.2
    hick: float = 0.6
    reveal: float = 0.8
    sigma: float = 0.5
    low: float = 1.0
    high: float = 5.0

    def seconds(self, rng: random.Random, options: int, after_reveal: bool) -> float:
        if self.kind == "machine":
            return rng.uniform(0.03, 0.15)
        if self.kind == "sleep":
            return rng.uniform(self.low, self.high)
        if self.kind == "sleep-lognormal":
            return 0.3 + self.base * math.exp(rng.gauss(0.0, self.sigma))
        think = self.base * (1.0 + self.hick * math.log(max(options, 1)))
        think *= 1.0 + (self.reveal if after_reveal else 0.0)
        return 0.3 + think * math.exp(rng.gauss(0.0, self.sigma))


@dataclass
class Played:
    moves: list[dict[str, object]]
    seconds: list[float]
    outcome: str
    seen: frozenset[str]
    """Every card this player saw face up (what a linked account learns)."""


def play(
    rules: Rules,
    deck: tuple[int, ...],
    chooser: Chooser,
    clock: Clock,
    rng: random.Random,
    knows: Callable[[int], bool] = lambda card: False,
) -> Played:
    state = new_game(rules, deck)
    rows: list[dict[str, object]] = []
    seconds: list[float] = []
    visited = {state_key(state)}
    after_reveal = False
    stall = 0
    while status(state) == "playing" and len(rows) < MAX_ROWS and stall < STALL:
        scored = move_scores(state, knows, chooser.weight)
        if not scored:
            break
        options = len(scored)
        mistake = rng.random() < chooser.mistakes
        if mistake:
            move = rng.choice(scored)[1]
        else:
            ranked = [
                (
                    score
                    + rng.gauss(0.0, chooser.noise)
                    - (10.0 if state_key(apply_move(state, m)) in visited else 0.0),
                    i,
                )
                for i, (score, m) in enumerate(scored)
            ]
            move = scored[max(ranked)[1]][1]
        reveals = reveals_hidden(state, move)
        after = apply_move(state, move)
        rows.append(move.to_dict())
        seconds.append(clock.seconds(rng, options, after_reveal))
        progress = reveals or move.dst == "f"
        stall = 0 if progress else stall + 1
        if mistake and not reveals and rng.random() < chooser.undo:
            rows.append({"type": "undo"})
            seconds.append(clock.seconds(rng, 1, False))
            visited.add(state_key(after))
            continue
        state = after
        visited.add(state_key(state))
        after_reveal = reveals
    outcome = status(state)
    if outcome == "playing":
        rows.append({"type": "resign"})
        seconds.append(clock.seconds(rng, 1, False))
        outcome = "resigned"
    hidden = {c for col, down in zip(state.cols, state.down) for c in col[:down]}
    hidden.update(state.stock)
    seen = frozenset(NAMES[c] for c in range(52) if c not in hidden)
    return Played(rows, seconds, WON if outcome == WON else outcome, seen)


def solver_line(rules: Rules, deck: tuple[int, ...], budget: float) -> list[dict[str, object]]:
    """The solver's shortened win with every card known (what a cheat holding the full deck
    plays), or ``[]`` when it finds none within ``budget`` seconds."""
    from games.solver import WINNABLE, solve

    result = solve(rules, deck, time_budget=budget)
    return list(result.moves) if result.verdict == WINNABLE else []


def play_line(
    rules: Rules,
    deck: tuple[int, ...],
    line: list[dict[str, object]],
    clock: Clock,
    rng: random.Random,
) -> Played:
    """``line`` played at ``clock``'s pace (the position's options drive a human clock)."""
    from games.engine import Move, legal_moves

    state = new_game(rules, deck)
    seconds = []
    after_reveal = False
    for row in line:
        move = Move.from_dict(row)
        seconds.append(clock.seconds(rng, len(legal_moves(state)), after_reveal))
        after_reveal = reveals_hidden(state, move)
        state = apply_move(state, move)
    return Played(list(line), seconds, status(state), frozenset(NAMES))
