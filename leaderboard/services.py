"""Recording scores, player profiles and streaks, and groups.

:func:`record_play` is the ``play_finished`` receiver's work: in one transaction it writes
the play's :class:`Score`, recomputes the player's weekly and all-time :class:`Total` from
the scores (so totals are always derivable from PostgreSQL), re-freezes the day if it was
frozen already (a play started before midnight may end after it), and registers a
``transaction.on_commit`` hook that adds the three entries to Redis. The score's outbox row
(:class:`PendingPush`, same transaction) stays until that push succeeded: a push Redis
missed is replayed by :mod:`leaderboard.catchup` when Redis is back.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Min, Q, Sum
from django.utils import timezone

from games import daily, engine
from games.models import Play, PlayStatus
from games.problems import Problem

from . import boards, ranking, rebuilding, store
from .models import ALL_TIME, FrozenDay, Group, Membership, PendingPush, Score, Total

log = logging.getLogger(__name__)


# --- Scores ----------------------------------------------------------------------------------


def board_of(preset: str, options: dict[str, Any] | None) -> str:
    return engine.get_rules(preset, options or {}).key


def record_play(play: Play) -> Score | None:
    """Score a finished ranked play (idempotent: a second call returns the same row)."""
    if not play.ranked or play.daily_date is None or play.status == PlayStatus.PLAYING:
        return None
    board = board_of(play.preset, play.options)
    day = play.daily_date
    won = play.status == PlayStatus.WON
    finished_at = play.finished_at or timezone.now()
    seconds = play.seconds
    if seconds is None:
        seconds = max(0.0, (finished_at - play.started_at).total_seconds())
    result = ranking.Result(
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
            boards.freeze(boards.BoardRef.daily(board, day))
        if store.configured():
            PendingPush.objects.create(score=score)
            transaction.on_commit(lambda: _push_and_confirm(score, totals))
    return score


def _push_and_confirm(score: Score, totals: list[Total]) -> None:
    if push_score(score, totals):
        try:
            PendingPush.objects.filter(score_id=score.pk).delete()
        except Exception:  # the push happened; a replay later is harmless (ZADD LT)
            log.warning("leaderboard: could not clear the pending push of %s", score.pk)


def recompute_total(player_id: int, board: str, period: str) -> Total:
    """The player's totals of ``board`` over ``period`` (ISO week or 'all'), from the scores."""
    scores = Score.objects.filter(player_id=player_id, board=board)
    if period != ALL_TIME:
        scores = scores.filter(week=period)
    agg = scores.aggregate(
        plays=Count("play_id"), wins=Count("play_id", filter=Q(won=True)), points=Sum("points")
    )
    wins, plays, points = agg["wins"], agg["plays"], agg["points"] or 0
    total, _ = Total.objects.update_or_create(
        board=board,
        period=period,
        player_id=player_id,
        defaults={
            "wins": wins,
            "plays": plays,
            "points": points,
            "sort_key": ranking.aggregate_key(wins, points, plays),
        },
    )
    return total


def refs_of(score: Score) -> tuple[boards.BoardRef, boards.BoardRef, boards.BoardRef]:
    return (
        boards.BoardRef.daily(score.board, score.date),
        boards.BoardRef.weekly(score.board, score.week),
        boards.BoardRef.all_time(score.board),
    )


def push_score(score: Score, totals: list[Total]) -> bool:
    """After the commit: add the score and the totals (with their details) to Redis; True
    when Redis has them (or a rebuild from PostgreSQL was scheduled for a missing board)."""
    if not store.configured():
        return False
    daily, weekly, alltime = refs_of(score)
    username = (
        get_user_model().objects.filter(pk=score.player_id).values_list("username", flat=True)
    ).first()
    if username is None:  # the player was deleted meanwhile
        return True
    details = (
        username,
        score.won,
        score.foundation_cards,
        score.moves,
        score.seconds,
        score.undos,
        score.finished_at,
    )
    items = [
        (
            daily.redis_key,
            daily.member(score.play_id),
            score.sort_key,
            boards.info_of(daily, details),
            daily.alias(score.player_id),
        )
    ]
    for ref, total in ((weekly, totals[0]), (alltime, totals[1])):
        info = boards.info_of(ref, (username, total.wins, total.points, total.plays))
        items.append((ref.redis_key, ref.member(total.player_id), total.sort_key, info, ""))
    try:
        missing = set(store.push(items))
    except store.StoreUnavailable as error:
        level = logging.DEBUG if store.outage_known() else logging.WARNING
        log.log(level, "leaderboard: Redis unavailable, %s kept pending: %s", score.play_id, error)
        return False
    for ref in (daily, weekly, alltime):
        if ref.redis_key in missing:
            rebuilding.schedule_rebuild(ref)
    if missing:
        rebuilding.schedule_restore()  # a new board, or Redis lost them all: the marker tells
    return True


def on_play_finished(sender: Any, play: Play, **kwargs: Any) -> None:
    """``games.signals.play_finished`` receiver (connected in ``LeaderboardConfig.ready``)."""
    try:
        record_play(play)
    except Exception:
        # The play itself is committed; `rebuild_leaderboards --rescore` recovers the score.
        log.exception("leaderboard: could not record play %s", play.pk)


def rescore_missing(since_day: dt.date | None = None) -> int:
    """Score every finished ranked play that has no score yet (after a crash; only the
    dailies of ``since_day`` and later if given); return the count."""
    count = 0
    plays = Play.objects.filter(ranked=True, score__isnull=True).exclude(status=PlayStatus.PLAYING)
    if since_day is not None:
        # Through the few recent daily deals, so the (deal, status) index finds the plays.
        plays = plays.filter(deal__source="daily", deal__date__gte=since_day)
    for play in plays.iterator():
        if record_play(play) is not None:
            count += 1
    return count


# --- Player profiles -------------------------------------------------------------------------


def streaks(won_days: list[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days in ``won_days``.

    The current streak is alive through today and yesterday: it ends at today if today is
    won, else at yesterday if yesterday is won, else it is 0.
    """
    days = sorted(set(won_days))
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    won = set(days)
    end = today if today in won else today - dt.timedelta(days=1)
    current = 0
    while end in won:
        current += 1
        end -= dt.timedelta(days=1)
    return current, best


def profile(user: Any) -> dict[str, Any]:
    scores = Score.objects.filter(player=user)
    per_preset = []
    rows = scores.values("preset").annotate(
        plays=Count("play_id"), wins=Count("play_id", filter=Q(won=True))
    )
    for row in rows.order_by("preset"):
        per_preset.append(
            {
                "preset": row["preset"],
                "plays": row["plays"],
                "wins": row["wins"],
                "win_rate": round(row["wins"] / row["plays"], 4) if row["plays"] else 0.0,
            }
        )
    plays = sum(p["plays"] for p in per_preset)
    wins = sum(p["wins"] for p in per_preset)
    won_days = list(scores.filter(won=True).values_list("date", flat=True).distinct())
    current, best = streaks(won_days, daily.utc_today())

    best_ranks = []
    ranked = scores.filter(rank__isnull=False)
    for row in ranked.values("board").annotate(best=Min("rank")).order_by("board"):
        first = (
            ranked.filter(board=row["board"], rank=row["best"])
            .order_by("date")
            .values_list("date", flat=True)
            .first()
        )
        best_ranks.append({"board": row["board"], "rank": row["best"], "date": first})

    best_results = []
    for board in scores.order_by().values_list("board", flat=True).distinct():
        top = scores.filter(board=board).order_by("sort_key", "date").first()
        best_results.append(
            {
                "board": board,
                "date": top.date,
                "won": top.won,
                "foundation_cards": top.foundation_cards,
                "moves": top.moves,
                "seconds": round(top.seconds, 2),
            }
        )
    best_results.sort(key=lambda r: r["board"])
    return {
        "username": user.get_username(),
        "plays": plays,
        "wins": wins,
        "win_rate": round(wins / plays, 4) if plays else 0.0,
        "presets": per_preset,
        "current_streak": current,
        "best_streak": best,
        "last_win_date": max(won_days) if won_days else None,
        "best_ranks": best_ranks,
        "best_results": best_results,
    }


# --- Groups ----------------------------------------------------------------------------------


def group_limit() -> int:
    return getattr(settings, "LEADERBOARD_GROUP_MAX_MEMBERS", 500)


def _not_found() -> Problem:
    return Problem(404, "group_not_found", "no such group (or you are not a member)")


def create_group(user: Any, name: str) -> Group:
    for _ in range(5):  # a code collision is astronomically rare; retry anyway
        try:
            with transaction.atomic():
                group = Group.objects.create(name=name, owner=user)
                Membership.objects.create(group=group, player=user)
                return group
        except IntegrityError:
            continue
    raise Problem(503, "try_again", "could not allocate an invite code, please retry")


def my_groups(user: Any):
    return Group.objects.filter(memberships__player=user).annotate(
        members_count=Count("memberships", distinct=True)
    )


def group_for(user: Any, group_id: Any) -> Group:
    """The group if ``user`` belongs to it; 404 otherwise (other groups do not exist)."""
    try:
        group_id = int(group_id)
    except (TypeError, ValueError):
        raise Problem(400, "invalid_group", "a group id is an integer") from None
    group = my_groups(user).filter(pk=group_id).first()
    if group is None:
        raise _not_found()
    return group


def join_group(user: Any, code: str) -> tuple[Group, bool]:
    """Join by invite code; (group, joined) — joined is False if already a member."""
    code = (code or "").strip().upper()
    with transaction.atomic():
        group = Group.objects.select_for_update().filter(code=code).first()
        if group is None:
            raise Problem(404, "invalid_invite_code", "no group has that invite code")
        if Membership.objects.filter(group=group, player=user).exists():
            return group_for(user, group.pk), False
        if group.memberships.count() >= group_limit():
            raise Problem(409, "group_full", f"a group has at most {group_limit()} members")
        Membership.objects.create(group=group, player=user)
    return group_for(user, group.pk), True


def leave_group(user: Any, group_id: Any) -> None:
    """Leave; the oldest remaining member becomes owner; an empty group is deleted."""
    group = group_for(user, group_id)
    with transaction.atomic():
        group = Group.objects.select_for_update().get(pk=group.pk)
        Membership.objects.filter(group=group, player=user).delete()
        rest = group.memberships.order_by("joined_at", "id").first()
        if rest is None:
            group.delete()
        elif group.owner_id == user.pk:
            group.owner_id = rest.player_id
            group.save(update_fields=["owner"])


def member_ids(group: Group) -> list[int]:
    return list(group.memberships.values_list("player_id", flat=True))
