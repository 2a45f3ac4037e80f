"""Hiding and restoring scores: the leaderboard's side of a fair-play decision.

A hidden :class:`Score` stays in PostgreSQL but is on no one else's board: not on its daily
board (nor its frozen ranks), not in the player's weekly and all-time :class:`Total` (a
player left with no visible score in a period has no total there), not in profiles seen by
others nor in their streaks. Its owner still sees it: on the daily board, in their shadow
weekly and all-time totals (:func:`scores.recompute_total`) and in their own profile
(:func:`leaderboard.boards.read` with ``viewer``).

Each change is one transaction that locks the players' rows (as :func:`scores.record_play`
does, so totals never race), flips ``hidden``, recomputes the totals touched and re-freezes
frozen days; after the commit the Redis boards get the same change exactly (``ZREM`` and a
plain ``ZADD``: a hidden play makes a total worse, which the ``ZADD LT`` of a push would
refuse). A board that is missing in Redis is rebuilt from PostgreSQL instead. The fair-play
app calls these; nothing here knows why a play is hidden.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet

from games.models import Play, PlayStatus

from . import freezing, rebuilding, store
from .entries import info_of
from .models import ALL_TIME, FrozenDay, Score, Total
from .refs import BoardRef
from .scores import recompute_total, record_play, refs_of
from .signals import scores_moderated

log = logging.getLogger(__name__)

TotalKey = tuple[int, str, str]  # (player id, board, period)


def hide_play(play_id: uuid.UUID | str) -> bool:
    """Hide the score of a finished ranked play (recording it first if its receiver has not
    yet); True if it changed. Idempotent."""
    play = Play.objects.filter(pk=play_id).first()
    if play is None or not play.ranked or play.status == PlayStatus.PLAYING:
        return False
    record_play(play)
    return bool(_set_hidden(Score.objects.filter(play_id=play.pk), hidden=True))


def restore_play(play_id: uuid.UUID | str) -> bool:
    """Put a hidden score back on every board; True if it changed. Idempotent."""
    return bool(_set_hidden(Score.objects.filter(play_id=play_id), hidden=False))


def hide_player(player_id: int) -> int:
    """Hide every score of a player (a ban from ranked play); return how many changed."""
    return len(_set_hidden(Score.objects.filter(player_id=player_id), hidden=True))


def _set_hidden(scores: QuerySet[Score], hidden: bool) -> list[Score]:
    with transaction.atomic():
        players = sorted(set(scores.values_list("player_id", flat=True)))
        list(get_user_model().objects.select_for_update().filter(pk__in=players).values("pk"))
        changed = list(scores.exclude(hidden=hidden).select_for_update(of=("self",)))
        if not changed:
            return []
        Score.objects.filter(pk__in=[s.pk for s in changed]).update(hidden=hidden)
        keys: set[TotalKey] = set()
        days: set[tuple[str, object]] = set()
        for score in changed:
            score.hidden = hidden
            keys |= {
                (score.player_id, score.board, score.week),
                (score.player_id, score.board, ALL_TIME),
            }
            days.add((score.board, score.date))
        totals = {key: recompute_total(*key) for key in sorted(keys)}
        for board, day in days:
            if FrozenDay.objects.filter(board=board, date=day).exists():
                freezing.freeze(BoardRef.daily(board, day))  # type: ignore[arg-type]
        if store.configured():
            transaction.on_commit(lambda: sync_redis(changed, totals))
        transaction.on_commit(
            lambda: scores_moderated.send(Score, scores=list(changed), hidden=hidden)
        )
    log.info("leaderboard: %d score(s) %s", len(changed), "hidden" if hidden else "restored")
    return changed


def _total_ref(board: str, period: str) -> BoardRef:
    return BoardRef.all_time(board) if period == ALL_TIME else BoardRef.weekly(board, period)


def sync_redis(scores: Iterable[Score], totals: dict[TotalKey, Total | None]) -> bool:
    """Make the Redis boards show what PostgreSQL now says of ``scores`` and ``totals``;
    False if Redis is unavailable (``rebuild_leaderboards`` then restores the boards)."""
    names = dict(
        get_user_model()
        .objects.filter(pk__in={player for player, _, _ in totals})
        .values_list("pk", "username")
    )
    items: list[tuple[str, str, int | None, str, str]] = []
    refs: dict[str, BoardRef] = {}
    for score in scores:
        daily = refs_of(score)[0]
        refs[daily.redis_key] = daily
        details = (
            names.get(score.player_id, ""),
            score.won,
            score.foundation_cards,
            score.moves,
            score.seconds,
            score.undos,
            score.finished_at,
        )
        key = None if score.hidden else score.sort_key
        alias = daily.alias(score.player_id)
        items.append(
            (daily.redis_key, daily.member(score.play_id), key, info_of(daily, details), alias)
        )
    for (player, board, period), total in totals.items():
        ref = _total_ref(board, period)
        refs[ref.redis_key] = ref
        if total is None:
            items.append((ref.redis_key, ref.member(player), None, "", ""))
        else:
            info = info_of(ref, (names.get(player, ""), total.wins, total.points, total.plays))
            items.append((ref.redis_key, ref.member(player), total.sort_key, info, ""))
    try:
        missing = store.replace(items)
    except store.StoreUnavailable as error:
        log.warning("leaderboard: Redis unavailable, a moderation change is not on it: %s", error)
        return False
    for key in missing:  # not built: a rebuild reads the change from PostgreSQL
        rebuilding.schedule_rebuild(refs[key])
    return True
