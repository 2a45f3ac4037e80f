"""Hints in practice plays: the next move of a winning line from the play's position.

The solver searches the exact position, face-down cards and the stock's order included
(it is a "thoughtful" solver: it knows every card), within ``HINT_BUDGET_SECONDS``
(default 1.2 s; shortening of the line found included).  The answer is one of:

* ``move``: the first move of a win the engine replayed to the end; only that move leaves
  the server, in the API's move form (pile ids and a count, never a card name);
* ``no_win_from_here``: the search was exhaustive and found no win.
* ``unknown``: not decided within the budget.  With a broker, the position then goes to a
  Celery worker with ``HINT_BACKGROUND_SECONDS`` (default 10 s), and the answer says
  ``retry_after`` (seconds): asking again after that finds the worker's answer stored.

Where the native prover is built (the stock games), its best-first search gets the first
half of the budget: it wins or proves most positions in milliseconds, and its line is then
shortened as the Python search's would be; the Python search gets what is left.

A winning line's every position is answered at once with its next move on that line, so
a player who keeps asking follows one line to the win (lines found from successive
positions could otherwise undo each other).  Answers are cached per exact position
(``engine.state_hash``, which covers the hidden cards, with the rules, the budget and the
solver version in the key): decided ones in the
Django cache and in the database (:class:`.models.HintAnswer`, so they survive a cache
flush and are shared by every web process), ``unknown`` only in the Django cache, for a
few minutes.  Ranked plays get no hints (``hints_not_allowed``), nor does a practice play
whose deal is a live daily deal in any disguise (``live_daily_deal``, ``games.daily.live``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import DatabaseError

from games import daily, engine, services
from games.errors import DomainError
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


def cached_or_solved(state: engine.State) -> tuple[dict[str, Any], bool]:
    """The hint for ``state`` and whether it came from the cache."""
    seconds = budget()
    key = position_key(state, seconds)
    cache_key = f"hint:{key}"
    found = cache.get(cache_key)
    if found is not None:
        return found, True
    stored = HintAnswer.objects.filter(key=key).first()
    if stored is not None:
        found = {"result": stored.result, "move": stored.move, "seconds": stored.seconds}
        cache.set(cache_key, found, DECIDED_TTL)
        return found, True
    solved = solve_position(state, seconds)
    if solved["result"] == UNKNOWN:
        solved.pop("line")
        if _queue_background(state, key):
            solved["retry_after"] = background_budget()
        cache.set(cache_key, solved, UNKNOWN_TTL)
    else:
        store(state, solved, seconds)
        solved.pop("line")
    return solved, False


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


def _queue_background(state: engine.State, key: str) -> bool:
    """With a broker, hand a position the request could not decide to a worker with a
    longer budget (once per position while its "unknown" is cached); the next request
    finds the answer stored.  Without one (eager Celery) nothing is queued: the request
    must not wait for it."""
    from .tasks import solve_hint

    if solve_hint.app.conf.task_always_eager or not cache.add(f"hint-queued:{key}", 1, UNKNOWN_TTL):
        return False
    solve_hint.delay(state.rules.name, dict(state.rules.options), engine.state_to_json(state))
    return True


def hint(play_id: uuid.UUID | str, player: AbstractBaseUser) -> dict[str, Any]:
    """The hint for the caller's practice play at its current position."""
    play = services.get_play(play_id, player)
    if play.ranked:
        raise DomainError(
            "hints_not_allowed",
            "hints are for practice plays; a ranked daily play gets none",
        )
    if play.finished:
        raise DomainError("play_finished", f"this play is over ({play.status})")
    if daily.is_live_daily(engine.parse_deck(play.deal.deck)):
        # A practice play started before its deal became a daily (or with its deck).
        raise services.live_daily_refusal()
    state = engine.state_from_json(services.rules_of(play), play.state)
    found, cached = cached_or_solved(state)
    answer = {"result": found["result"], "move": found["move"], "seq": play.seq, "cached": cached}
    if found.get("retry_after") and not cached:
        answer["retry_after"] = found["retry_after"]
    return answer
