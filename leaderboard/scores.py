"""Scores: recording a finished ranked play, the totals, and pushing them to Redis.

:func:`record_play` is the ``play_finished`` receiver's work: in one transaction it writes
the play's :class:`Score`, recomputes the player's weekly and all-time :class:`Total` from
the scores (so totals are always derivable from PostgreSQL), re-freezes the day if it was
frozen already (a play started before midnight may end after it), and registers a
``transaction.on_commit`` hook that adds the three entries to Redis. The score's outbox row
(:class:`PendingPush`, same transaction) stays until that push landed in every board: a
push Redis missed, or that found a board missing (its rebuild may die after the rename and
before re-adding the scores committed meanwhile), is replayed by :mod:`leaderboard.catchup`.
"""

from __future__ import annotations

import datetime as dt
import enum
import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from games import engine
from games.models import Play, PlayStatus

from . import freezing, ranking, rebuilding, store, sweeper
from .entries import info_of
from .models import ALL_TIME, FrozenDay, PendingPush, Score, Total
from .refs import BoardRef
from .signals import score_recorded, score_written

log = logging.getLogger(__name__)

#: A play still open, or closed by its day's deadline before it ended, has no result.
_UNFINISHED = (PlayStatus.PLAYING, PlayStatus.EXPIRED)


def board_of(preset: str, options: dict[str, Any] | None) -> str:
    return engine.get_rules(preset, options or {}).key


def record_play(play: Play) -> Score | None:
    """Score a finished ranked play (idempotent: a second call returns the same row). An
    open or expired play is unfinished: no score (docs/fair-play-rules.md)."""
    if not play.ranked or play.daily_date is None or play.status in _UNFINISHED:
        return None
    board = board_of(play.preset, play.options)
    day = play.daily_date
    won = play.status == PlayStatus.WON
    finished_at = play.finished_at or timezone.now()
    seconds = play.seconds
    if seconds is None:
        seconds = max(0.0, (finished_at - play.started_at).total_seconds())
    result = ranking.DailyResult(
        won=won,
        foundation_cards=play.foundation_cards,
        moves=play.moves_count,
        seconds=seconds,
        finished_at=finished_at,
        day=day,
    )
    with transaction.atomic():
        # One player's results are recorded one at a time, so their totals never race.
        list(get_user_model().objects.select_for_update().filter(pk=play.player_id).values("pk"))
        if not Play.objects.filter(pk=play.pk).exists():
            return None  # the account was deleted since the finish (accounts.deletion)
        existing = Score.objects.filter(play_id=play.pk).first()
        if existing is not None:
            return existing
        score = Score.objects.create(
            play_id=play.pk,
            player_id=play.player_id,
            preset=play.preset,
            board=board,
            date=day,
            week=ranking.iso_week(day),
            won=won,
            foundation_cards=play.foundation_cards,
            moves=play.moves_count,
            seconds=seconds,
            undos=play.undos,
            finished_at=finished_at,
            sort_key=ranking.daily_key(result),
            points=ranking.points(won, play.foundation_cards),
        )
        totals = [
            recompute_total(play.player_id, board, score.week),
            recompute_total(play.player_id, board, ALL_TIME),
        ]
        if FrozenDay.objects.filter(board=board, date=day).exists():
            freezing.freeze(BoardRef.daily(board, day))
        score_written.send(sender=Score, score=score)
        if store.configured():
            PendingPush.objects.create(score=score)
            transaction.on_commit(lambda: _push_and_confirm(score, totals))
        # After the push: a stream reading the board on this signal sees the new entry.
        transaction.on_commit(lambda: score_recorded.send(Score, score=score))
    return score


def _push_and_confirm(score: Score, totals: list[Total | None]) -> None:
    if push_score(score, totals) is Pushed.ALL:
        try:
            PendingPush.objects.filter(score_id=score.pk).delete()
        except Exception:  # the push happened; a replay later is harmless (ZADD LT)
            log.warning("leaderboard: could not clear the pending push of %s", score.pk)


def recompute_total(player_id: int, board: str, period: str) -> Total | None:
    """The player's totals of ``board`` over ``period`` (ISO week or 'all'), from the visible
    scores; None (and no row) when every score of the period is hidden. While some are
    hidden, the ``shadow`` row (what the player alone sees) counts them too."""
    scores = Score.objects.filter(player_id=player_id, board=board)
    if period != ALL_TIME:
        scores = scores.filter(week=period)
    seen = Q(hidden=False)
    agg = scores.aggregate(
        seen_plays=Count("play_id", filter=seen),
        seen_wins=Count("play_id", filter=seen & Q(won=True)),
        seen_points=Sum("points", filter=seen),
        all_plays=Count("play_id"),
        all_wins=Count("play_id", filter=Q(won=True)),
        all_points=Sum("points"),
    )
    shadow = None
    if agg["all_plays"] > agg["seen_plays"]:
        shadow = (agg["all_wins"], agg["all_points"] or 0, agg["all_plays"])
    _keep_total(player_id, board, period, shadow, shadow=True)
    public = None
    if agg["seen_plays"]:
        public = (agg["seen_wins"], agg["seen_points"] or 0, agg["seen_plays"])
    return _keep_total(player_id, board, period, public, shadow=False)


def _keep_total(
    player_id: int, board: str, period: str, figures: tuple[int, int, int] | None, shadow: bool
) -> Total | None:
    """Write (wins, points, plays) as the row, or delete the row when ``figures`` is None."""
    where = {"board": board, "period": period, "player_id": player_id, "shadow": shadow}
    if figures is None:
        Total.objects.filter(**where).delete()
        return None
    wins, points, plays = figures
    total, _ = Total.objects.update_or_create(
        **where,
        defaults={
            "wins": wins,
            "plays": plays,
            "points": points,
            "sort_key": ranking.aggregate_key(wins, points, plays),
        },
    )
    return total


def refs_of(score: Score) -> tuple[BoardRef, BoardRef, BoardRef]:
    return (
        BoardRef.daily(score.board, score.date),
        BoardRef.weekly(score.board, score.week),
        BoardRef.all_time(score.board),
    )


class Pushed(enum.Enum):
    """What :func:`push_score` achieved, so the outbox knows whether to keep its row."""

    ALL = "all"  # every board has the entries (or the player is gone): the row can go
    BOARD_MISSING = "board missing"  # a rebuild is scheduled; keep the row for a replay
    UNAVAILABLE = "unavailable"  # Redis is down or not configured: keep the row


def push_score(score: Score, totals: list[Total | None]) -> Pushed:
    """After the commit: add the score and the totals (with their details) to Redis; a
    hidden score's daily entry and a total that no longer exists are left out.

    A board that is missing gets a rebuild from PostgreSQL, but the answer is then
    ``BOARD_MISSING``, not ``ALL``: a rebuilder killed between its rename and its second
    pass (the scores committed while it copied) would leave this score out for good.
    """
    if not store.configured():
        return Pushed.UNAVAILABLE
    daily, weekly, alltime = refs_of(score)
    username = (
        get_user_model().objects.filter(pk=score.player_id).values_list("username", flat=True)
    ).first()
    if username is None:  # the player was deleted meanwhile
        return Pushed.ALL
    details = (
        username,
        score.won,
        score.foundation_cards,
        score.moves,
        score.seconds,
        score.undos,
        score.finished_at,
    )
    items = []
    if not score.hidden:
        items.append(
            (
                daily.redis_key,
                daily.member(score.play_id),
                score.sort_key,
                info_of(daily, details),
                daily.alias(score.player_id),
            )
        )
    for ref, total in ((weekly, totals[0]), (alltime, totals[1])):
        if total is None:
            continue
        info = info_of(ref, (username, total.wins, total.points, total.plays))
        items.append((ref.redis_key, ref.member(total.player_id), total.sort_key, info, ""))
    try:
        missing = set(store.push(items))
    except store.StoreUnavailable as error:
        level = logging.DEBUG if store.outage_known() else logging.WARNING
        log.log(level, "leaderboard: Redis unavailable, %s kept pending: %s", score.play_id, error)
        return Pushed.UNAVAILABLE
    for ref in (daily, weekly, alltime):
        if ref.redis_key in missing:
            rebuilding.schedule_rebuild(ref)
    if not missing:
        return Pushed.ALL
    rebuilding.schedule_restore()  # a new board, or Redis lost them all: the marker tells
    return Pushed.BOARD_MISSING


def on_play_finished(sender: Any, play: Play, **kwargs: Any) -> None:
    """``games.signals.play_finished`` receiver (connected in ``LeaderboardConfig.ready``)."""
    try:
        record_play(play)
    except Exception:
        # The play itself is committed and its score is not: retried until it lands
        # (leaderboard.sweeper), and swept by every catch-up meanwhile.
        log.exception("leaderboard: could not record play %s; retrying", play.pk)
        sweeper.score_later(play.pk)


def rescore_missing(since_day: dt.date | None = None) -> int:
    """Score every finished ranked play that has no score yet (after a crash; only the
    dailies of ``since_day`` and later if given); return the count. A play that fails
    again is logged and left for the next sweep; the others are still scored."""
    count = 0
    # Only daily plays have a score: an event's ranked play (a seeded tournament's) has no day.
    plays = Play.objects.filter(ranked=True, daily_date__isnull=False, score__isnull=True).exclude(
        status__in=_UNFINISHED
    )
    if since_day is not None:
        # Through the few recent daily deals, so the (deal, status) index finds the plays.
        plays = plays.filter(deal__source="daily", deal__date__gte=since_day)
    # The ids first: no cursor stays open across the writes (SQLite would see them).
    for play_id in list(plays.values_list("pk", flat=True)):
        play = Play.objects.filter(pk=play_id).first()
        if play is None:
            continue
        try:
            scored = record_play(play)
        except Exception:
            log.exception("leaderboard: could not record play %s; the next sweep retries", play_id)
            continue
        if scored is not None:
            count += 1
    return count
