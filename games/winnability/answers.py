"""Hint answers: solving a position within a budget and storing what was decided.

The part of hints both the request (:mod:`.hints`) and the background worker
(:mod:`.tasks`) use: the solve (the native prover first, then the Python search), the
cache key of a position, and the store of decided answers (a winning line's every position
at once) in the Django cache and :class:`.models.HintAnswer`.  Nothing here queues work or
knows about plays.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from games import engine
from games.solver import (
    UNWINNABLE,
    WINNABLE,
    SolveResult,
    native,
    shorten_moves,
    solve_state,
)

from .configs import solver_version
from .models import HintAnswer

log = logging.getLogger(__name__)

MOVE = "move"
NO_WIN = "no_win_from_here"
UNKNOWN = "unknown"
DEFAULT_BUDGET = 1.2
#: Of the budget, at most this share goes to shortening the line found (cutting its
#: cycles first), so the hinted move is a purposeful one more often than a first win's.
SHORTEN_SHARE = 0.25
#: Seconds a worker gets for a position the request left unknown (with a broker only).
DEFAULT_BACKGROUND_BUDGET = 10.0
DECIDED_TTL = 24 * 3600
UNKNOWN_TTL = 600
#: Positions of a winning line stored with its first (see :func:`_line_answers`).
MAX_LINE = 400


def budget() -> float:
    return float(getattr(settings, "HINT_BUDGET_SECONDS", DEFAULT_BUDGET))


def position_key(state: engine.State, seconds: float) -> str:
    """The cache key of a position: never sent out (it is a function of hidden cards)."""
    version = solver_version(state.rules.name)
    text = f"{state.rules.key}|{engine.state_hash(state)}|{seconds:g}|{version}"
    return hashlib.sha256(text.encode()).hexdigest()


#: Of the budget, at most this share goes first to the native prover's best-first search.
PROVER_SHARE = 0.5


def _prover_answer(state: engine.State, seconds: float) -> SolveResult | None:
    """The native prover's best-first search of ``state`` (where built, for the stock
    games) within ``seconds``: a win, a proof, or ``None`` (undecided, or no prover).  It
    wins in milliseconds most positions the Python search needs seconds for, and proves
    most lost ones as fast; its line is then shortened like the Python search's own."""
    if seconds <= 0 or not (native.available() and native.supports(state.rules)):
        return None
    try:
        result = native.solve_state(state, time_budget=seconds, best_first=True)
    except native.NativeError as error:
        log.error("native prover unusable for a hint: %s", error)
        return None
    return result if result.verdict in (WINNABLE, UNWINNABLE) else None


def solve_position(state: engine.State, seconds: float) -> dict[str, Any]:
    """The hint for ``state`` (no cache): ``{"result", "move", "seconds", "line"}``, with
    ``line`` the whole winning line (API moves) when there is one."""
    started = time.perf_counter()
    result = _prover_answer(state, PROVER_SHARE * seconds)
    if result is None:
        left = max(seconds - (time.perf_counter() - started), 0.05)
        result = solve_state(
            state, time_budget=left, shorten=True, shorten_budget=SHORTEN_SHARE * seconds
        )
    elif result.verdict == WINNABLE:
        moves = shorten_moves(state, result.moves, SHORTEN_SHARE * seconds)
        result = dataclasses.replace(result, moves=moves)
    spent = time.perf_counter() - started
    if result.verdict == WINNABLE:
        line = [engine.Move.from_dict(m).to_dict() for m in result.moves]
        return {"result": MOVE, "move": line[0], "seconds": spent, "line": line}
    outcome = NO_WIN if result.verdict == UNWINNABLE else UNKNOWN
    return {"result": outcome, "move": None, "seconds": spent, "line": []}


def _line_answers(
    state: engine.State, line: list[dict[str, Any]], seconds: float, spent: float
) -> dict[str, dict[str, Any]]:
    """Every position along a winning line → its next move on that line (stopping at a
    position seen before): stored together, so that a player who follows the hints
    follows this one line to the win instead of hopping between lines that may undo each
    other.  Each line overwrites older answers; along any chain of answers the line that
    wrote them only gets newer, so following hints always ends in a win."""
    answers: dict[str, dict[str, Any]] = {}
    for raw in line[:MAX_LINE]:
        key = position_key(state, seconds)
        if key in answers:
            break
        answers[key] = {"result": MOVE, "move": raw, "seconds": spent}
        state = engine.apply_move(state, engine.Move.from_dict(raw))
    return answers


def _store(answers: dict[str, dict[str, Any]]) -> None:
    """Upsert the answers (in key order: two requests storing overlapping lines at once
    lock the rows in the same order, so they cannot deadlock).  A database error costs
    only the persistence: the cache still gets the answers, and the player the hint."""
    rows = [HintAnswer(key=key, **answers[key]) for key in sorted(answers)]
    try:
        HintAnswer.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["key"],
            update_fields=["result", "move", "seconds"],
        )
    except DatabaseError:
        log.warning("hint answers not stored in the database", exc_info=True)
    cache.set_many({f"hint:{key}": answer for key, answer in answers.items()}, DECIDED_TTL)


def store(state: engine.State, solved: dict[str, Any], seconds: float) -> None:
    """Store a decided answer for ``state`` (and its winning line's positions) under the
    key of the request budget ``seconds``."""
    line = solved.get("line") or []
    answer = {k: solved[k] for k in ("result", "move", "seconds")}
    if solved["result"] == MOVE:
        _store(_line_answers(state, line, seconds, solved["seconds"]))
    else:
        _store({position_key(state, seconds): answer})


def background_budget() -> float:
    return float(getattr(settings, "HINT_BACKGROUND_SECONDS", DEFAULT_BACKGROUND_BUDGET))
