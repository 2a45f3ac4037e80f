"""A finished play's log, replayed by the engine into the steps the detectors read.

The log is the server's (``Move.move`` rows: engine moves, ``undo`` and ``resign``), so it
replays; a row that does not apply (a damaged or hand-made record) ends the replay there,
and :attr:`Replay.broken_at` says where, so a detector judges what it can instead of
failing the whole task.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import (
    EngineError,
    Move,
    State,
    apply_move,
    get_rules,
    legal_moves,
    new_game,
    parse_card,
    reveals_hidden,
)


@dataclass(frozen=True)
class Step:
    """One applied engine move: the position before it, the move, the position after, the
    player's think time (seconds since the previous row) and how many legal moves there
    were to choose from."""

    before: State
    move: Move
    after: State
    seconds: float
    reveals: bool
    options: int
    after_reveal: bool
    """The previous engine move turned a hidden card (a human looks at the new card)."""


@dataclass(frozen=True)
class Replay:
    start: State
    steps: tuple[Step, ...]
    undos: int
    undo_seconds: tuple[float, ...]
    resigned: bool
    broken_at: int | None


def replay_record(
    preset: str,
    options: Mapping[str, Any],
    deck: Sequence[str],
    moves: Sequence[Mapping[str, Any]],
    move_seconds: Sequence[float],
) -> Replay:
    """The steps of a play's log, with undos applied as the server applies them."""
    rules = get_rules(preset, dict(options) if options else None)
    state = start = new_game(rules, [parse_card(name) for name in deck])
    history: list[State] = []
    steps: list[Step] = []
    undo_seconds: list[float] = []
    undos = 0
    resigned = False
    after_reveal = False
    for index, row in enumerate(moves):
        seconds = float(move_seconds[index]) if index < len(move_seconds) else 0.0
        try:
            move = Move.from_dict(dict(row))
        except EngineError:
            return Replay(start, tuple(steps), undos, tuple(undo_seconds), resigned, index)
        if move.type == "resign":
            resigned = True
            break
        if move.type == "undo":
            if not history:
                return Replay(start, tuple(steps), undos, tuple(undo_seconds), resigned, index)
            state = history.pop()
            undos += 1
            undo_seconds.append(seconds)
            after_reveal = False
            continue
        try:
            after = apply_move(state, move)
        except EngineError:
            return Replay(start, tuple(steps), undos, tuple(undo_seconds), resigned, index)
        reveals = reveals_hidden(state, move)
        steps.append(
            Step(state, move, after, seconds, reveals, len(legal_moves(state)), after_reveal)
        )
        history.append(state)
        state = after
        after_reveal = reveals
    return Replay(start, tuple(steps), undos, tuple(undo_seconds), resigned, None)
