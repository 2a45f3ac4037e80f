"""Catching the Redis boards up with PostgreSQL after a fault.

A finished ranked play's score is written with an outbox row (:class:`PendingPush`) in the
same transaction (:func:`leaderboard.scores.record_play`); the row is deleted once the
push landed in every board (a push that found a board missing keeps it: the rebuild it
scheduled may die half-way). :func:`catch_up` scores recent ranked plays that finished without
a score (a process killed between the play's commit and its receiver, a database error in
the receiver) and replays the outbox. It runs every minute (the ``catch_up`` beat task) and
whenever a process's Redis circuit breaker closes after an outage
(:func:`catch_up_in_background`, hooked in ``LeaderboardConfig.ready``). Everything here is
idempotent: ``ZADD … LT`` keeps the best key, a score's primary key is its play.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from . import locks, rebuilding, store
from .models import ALL_TIME, PendingPush, Total
from .scores import Pushed, push_score, rescore_missing

log = logging.getLogger(__name__)


def replay_pending(batch: int = 500) -> int:
    """Push every score still in the outbox (:class:`PendingPush`) to Redis, oldest first;
    return how many were confirmed. Stops at the first failure (Redis still down); a row
    whose board was missing stays for the next run, once the rebuild it scheduled is done."""
    if not store.configured():
        return 0
    done = 0
    after: tuple[dt.datetime, uuid.UUID] | None = None
    while True:
        rows_qs = PendingPush.objects.select_related("score").order_by("created_at", "score_id")
        if after is not None:
            rows_qs = rows_qs.filter(
                Q(created_at__gt=after[0]) | Q(created_at=after[0], score_id__gt=after[1])
            )
        rows = list(rows_qs[:batch])
        if not rows:
            return done
        for row in rows:
            score = row.score
            # A total may be gone: every score of its period hidden (leaderboard.moderation).
            totals = [
                Total.objects.filter(
                    board=score.board, period=period, player_id=score.player_id, shadow=False
                ).first()
                for period in (score.week, ALL_TIME)
            ]
            pushed = push_score(score, totals)
            if pushed is Pushed.UNAVAILABLE:
                return done
            if pushed is Pushed.ALL:
                PendingPush.objects.filter(score_id=score.pk).delete()
                done += 1
        after = (rows[-1].created_at, rows[-1].score_id)


CATCH_UP_WINDOW = dt.timedelta(days=2)


def catch_up(window: dt.timedelta | None = CATCH_UP_WINDOW) -> tuple[int, int]:
    """Score recent finished ranked plays that missed their score (a process killed after
    the play's commit, a database error in the receiver), rebuild the live boards if Redis
    lost them (restarted empty, flushed: :func:`leaderboard.boards.restore_if_lost`), then
    replay the outbox to Redis. Idempotent; run by the ``catch_up`` beat task, by the
    in-process sweeper (:mod:`leaderboard.sweeper`) and when a process sees Redis return.
    ``window=None`` looks at the ranked plays of every day (a sweeper's first run: the
    server may have been down for days). Returns (plays scored, pushes confirmed)."""
    since_day = None if window is None else timezone.now().date() - window
    scored = rescore_missing(since_day=since_day)
    if store.configured():
        try:
            rebuilding.restore_if_lost()
            rebuilding.rebuild_missing()
        except store.StoreUnavailable as error:
            log.warning("leaderboard: Redis unavailable, boards not restored: %s", error)
    return scored, replay_pending()


def sweep(everything: bool) -> tuple[int, int]:
    """One sweep of :mod:`.sweeper`: every day's plays when ``everything``, else the
    window's."""
    return catch_up(None if everything else CATCH_UP_WINDOW)


def catch_up_in_background(outage_started: float = 0.0) -> None:
    """The circuit breaker's recovery hook: :func:`catch_up` in a daemon thread, so the
    request that saw Redis return is not held. One process replays at a time (a short
    Redis lock); a process that finds the lock taken waits for it and then replays what is
    still pending (its own late pushes included), which is cheap once the first is done."""

    def run() -> None:
        try:
            deadline = time.monotonic() + 60
            while (token := locks.lock("catch-up", 60)) is None:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.5)
            try:
                scored, pushed = catch_up()
                log.warning("leaderboard: Redis back: scored %d play(s), pushed %d", scored, pushed)
            finally:
                locks.unlock("catch-up", token)
        except Exception:
            log.exception("leaderboard: catch-up after the Redis outage failed")
        finally:
            connection.close()

    threading.Thread(target=run, name="lb-catch-up", daemon=True).start()
