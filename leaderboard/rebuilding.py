"""Rebuilding the Redis boards from PostgreSQL, which always holds the truth.

Three ways a board gets rebuilt, all idempotent:

* :func:`schedule_rebuild` — a reader or writer found one board's key missing (a new board,
  an evicted one): a daemon thread rebuilds it. Not a Celery task: the broker is the same
  Redis that may just have failed.
* :func:`restore_if_lost` — Redis lost everything (restarted empty, flushed): the epoch
  marker (:mod:`leaderboard.store`) is gone, so every live board is rebuilt, by one process.
* :func:`rebuild_missing` — the every-minute catch-up looks for live boards without a key
  that nobody is rebuilding (a rebuilder killed mid-way frees its lock within
  ``LEADERBOARD_REBUILD_LOCK_SECONDS``).

Each rebuild holds a short per-board Redis lock, renewed batch by batch, so a process that
dies mid-rebuild blocks the board for seconds, not minutes.
``LEADERBOARD_REBUILD_INLINE = True`` makes the background rebuilds synchronous (tests).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Iterator

from django.conf import settings
from django.db import connection
from django.utils import timezone

from . import locks, ranking, store
from .entries import detail_fields, info_of
from .models import ALL_TIME, Score, Total
from .refs import BoardRef

log = logging.getLogger(__name__)

#: A rebuild copies again what changed this long before it started (see :func:`rebuild`).
REBUILD_MARGIN = dt.timedelta(seconds=60)


def pg_entries(
    ref: BoardRef, since: dt.datetime | None = None
) -> Iterator[tuple[int, str, str, str]]:
    """Every (sort key, member, details, alias) of a board (changed since ``since``)."""
    qs = ref.queryset().order_by()
    if since is not None:
        qs = qs.filter(**{"created_at__gte" if ref.is_daily else "updated_at__gte": since})
    rows = qs.values_list("sort_key", ref.tie_field, "player_id", *detail_fields(ref))
    for key, tie, player_id, *details in rows.iterator(chunk_size=10_000):
        yield key, ref.member(tie), info_of(ref, details), ref.alias(player_id)


def rebuild(ref: BoardRef, keep_alive: Callable[[], object] | None = None) -> int:
    """Rebuild the board's sorted set from PostgreSQL; return the number of entries.

    Results committed while the copy ran are added again afterwards (``ZADD LT`` makes that
    idempotent), so a rebuild racing with finishing plays loses none of them.
    """
    started = timezone.now()
    count = store.build(
        ref.redis_key, pg_entries(ref), ttl=ref.redis_ttl(started), keep_alive=keep_alive
    )
    batch: list[tuple[str, str, int, str, str]] = []
    for key, member, info, alias in pg_entries(ref, since=started - REBUILD_MARGIN):
        batch.append((ref.redis_key, member, key, info, alias))
        if len(batch) >= 1000:
            store.push(batch)
            batch = []
    store.push(batch)
    return count


def all_boards() -> Iterator[BoardRef]:
    """Every board PostgreSQL knows of: daily (board, day) and weekly / all-time totals."""
    days = Score.objects.order_by().values_list("board", "date").distinct()
    for board, day in days.iterator():
        yield BoardRef.daily(board, day)
    periods = (
        Total.objects.filter(shadow=False).order_by().values_list("board", "period").distinct()
    )
    for board, period in periods.iterator():
        yield BoardRef.all_time(board) if period == ALL_TIME else BoardRef.weekly(board, period)


def live_boards(today: dt.date) -> Iterator[BoardRef]:
    """The boards Redis serves: today's and yesterday's days, this and last week, all time.
    Older days are frozen and read from PostgreSQL; older weeks have expired from Redis."""
    days = (
        Score.objects.filter(date__gte=today - dt.timedelta(days=1))
        .order_by()
        .values_list("board", "date")
        .distinct()
    )
    for board, day in days.iterator():
        yield BoardRef.daily(board, day)
    weeks = {ranking.iso_week(today), ranking.iso_week(today - dt.timedelta(days=7))}
    periods = (
        Total.objects.filter(period__in=[*weeks, ALL_TIME], shadow=False)
        .order_by()
        .values_list("board", "period")
        .distinct()
    )
    for board, period in periods.iterator():
        yield BoardRef.all_time(board) if period == ALL_TIME else BoardRef.weekly(board, period)


def lock_seconds() -> int:
    return settings.LEADERBOARD_REBUILD_LOCK_SECONDS


def rebuild_locked(ref: BoardRef) -> bool:
    """Rebuild the missing board ``ref`` now under its lock; False if someone else is
    rebuilding it or has rebuilt it since it was found missing.

    The second check matters: a rebuild replaces the live board, and the scores pushed to
    it meanwhile are added back only by the rebuild's second pass; a rebuilder killed
    before that pass would lose scores whose pushes had found the board present (their
    outbox rows gone).  A board that is missing takes no push (the outbox keeps those).
    """
    name = f"rebuild:{ref.redis_key}"
    seconds = lock_seconds()
    token = locks.lock(name, seconds)
    if token is None:
        return False
    try:
        if store.exists(ref.redis_key):
            return False
        rebuild(ref, keep_alive=lambda: locks.renew(name, token, seconds))
    finally:
        locks.unlock(name, token)
    return True


def _in_background(job: Callable[[], object], what: str) -> None:
    """Run ``job`` in a daemon thread (inline under ``LEADERBOARD_REBUILD_INLINE``); a
    failure is logged, never raised: the caller's request must not fail for it."""
    inline = settings.LEADERBOARD_REBUILD_INLINE

    def run() -> None:
        try:
            job()
        except Exception:
            log.exception("leaderboard: %s failed", what)
        finally:
            if not inline:
                connection.close()

    if inline:
        run()
    else:
        threading.Thread(target=run, name=f"lb-{what}", daemon=True).start()


def schedule_rebuild(ref: BoardRef) -> None:
    """Rebuild ``ref`` in the background unless a rebuild of it is already running."""
    _in_background(lambda: rebuild_locked(ref), f"rebuild of {ref.redis_key}")


def _claim_restore() -> str | None:
    if not store.configured():
        return None
    try:
        return locks.claim_restore(lock_seconds())
    except store.StoreUnavailable:
        return None


def restore_if_lost() -> int:
    """Rebuild every live board if Redis lost them (no epoch marker: restarted empty,
    flushed, or never built); return how many were rebuilt (0: nothing was lost). One
    process restores at a time: the marker is claimed with ``SET NX``."""
    token = _claim_restore()
    return _restore(token) if token else 0


def schedule_restore() -> bool:
    """:func:`restore_if_lost` in the background, for a reader or writer that found a
    board missing (maybe only that one, maybe all). The claim is one ``SET NX`` here; only
    the process that wins it starts a thread."""
    token = _claim_restore()
    if token is None:
        return False
    _in_background(lambda: _restore(token), "restore")
    return True


def _restore(token: str) -> int:
    """Rebuild the live boards Redis lacks (a board that survived, or that another process
    is rebuilding, is left alone: :func:`rebuild_missing`), then make the marker permanent;
    on failure give it back so the next check tries again."""
    try:
        rebuilt = rebuild_missing()
    except Exception:
        locks.abandon_restore(token)
        raise
    if rebuilt:
        log.warning("leaderboard: Redis had lost its boards; %d rebuilt from PostgreSQL", rebuilt)
    locks.finish_restore(token, timezone.now().isoformat())
    return rebuilt


def rebuild_missing() -> int:
    """Rebuild the live boards whose key is missing and that nobody is rebuilding (a
    rebuilder killed mid-way); return how many. Run by the catch-up."""
    refs = list(live_boards(timezone.now().astimezone(dt.UTC).date()))
    missing = [ref for ref, there in zip(refs, store.exist(r.redis_key for r in refs)) if not there]
    return sum(rebuild_locked(ref) for ref in missing)
