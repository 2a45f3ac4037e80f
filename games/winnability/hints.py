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

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from config.errors import DomainError
from games import daily, engine, services

from .answers import (
    DECIDED_TTL,
    UNKNOWN,
    UNKNOWN_TTL,
    background_budget,
    budget,
    position_key,
    solve_position,
    store,
)
from .models import HintAnswer
from .tasks import solve_hint


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


def _queue_background(state: engine.State, key: str) -> bool:
    """With a broker, hand a position the request could not decide to a worker with a
    longer budget (once per position while its "unknown" is cached); the next request
    finds the answer stored.  Without one (eager Celery) nothing is queued: the request
    must not wait for it."""
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
    kind = daily.live_deal_kind(engine.parse_deck(play.deal.deck))
    if kind is not None:
        # A practice play started before its deal became a daily (or with its deck).
        raise services.live_deal_refusal(kind)
    state = engine.state_from_json(services.rules_of(play), play.state)
    found, cached = cached_or_solved(state)
    answer = {"result": found["result"], "move": found["move"], "seq": play.seq, "cached": cached}
    if found.get("retry_after") and not cached:
        answer["retry_after"] = found["retry_after"]
    return answer
