"""Reading boards: Redis first, PostgreSQL as the fallback, one order for both.

A board is a :class:`BoardRef` (kind, rules key, period). :func:`read` answers a page of it:

* from Redis (:mod:`leaderboard.store`) when there is no group filter and the board's sorted
  set is built: positions and members come from one Lua call, the rows' details from
  PostgreSQL by primary key;
* otherwise from PostgreSQL with keyset queries on ``(sort_key, play_id|player_id)``; a
  rank is the count of rows before it, or the stored ``Score.rank`` of a frozen day.

A frozen past day (:mod:`leaderboard.freezing`) is always read from PostgreSQL (its stored
ranks make that an index range scan), so Redis keeps only live boards: a daily board expires
two days after its day, a weekly one nine days after its Monday, all-time boards never.
Boards nobody played are never built (no key per probed date).

When Redis is configured but the board's key is missing (flushed, evicted, a new board) the
PostgreSQL answer is given and the board is rebuilt in the background
(:mod:`leaderboard.rebuilding`).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from . import ranking, rebuilding, store
from .entries import hydrate
from .models import FrozenDay, Score, Total
from .refs import BoardRef

log = logging.getLogger(__name__)


@dataclass
class BoardPage:
    entries: list[dict[str, Any]] = field(default_factory=list)
    first: tuple[int, str] | None = None  # (sort key, member) of the first entry
    last: tuple[int, str] | None = None
    start: int = 0  # 0-based position of the first entry; -1: the caller is not on the board
    source: str = "postgres"
    has_more_before: bool = False
    has_more_after: bool = False
    personal: bool = False  # holds the caller's own hidden score: never a shared answer


# --- PostgreSQL ------------------------------------------------------------------------------


def _before_q(ref: BoardRef, key: int, tie: Any) -> Q:
    """Rows before (key, tie). The redundant ``sort_key <= key`` is the index range bound:
    without it PostgreSQL cannot use the (…, sort_key, tie) index for the OR."""
    return Q(sort_key__lte=key) & (
        Q(sort_key__lt=key) | Q(sort_key=key, **{f"{ref.tie_field}__lt": tie})
    )


def _after_q(ref: BoardRef, key: int, tie: Any) -> Q:
    """Rows after (key, tie), bounded the same way."""
    return Q(sort_key__gte=key) & (
        Q(sort_key__gt=key) | Q(sort_key=key, **{f"{ref.tie_field}__gt": tie})
    )


def _frozen(ref: BoardRef, players: Any, viewer: int | None = None) -> bool:
    # A page with the viewer's hidden score ranks by counting: the stored ranks leave it out.
    return (
        ref.is_daily
        and players is None
        and viewer is None
        and FrozenDay.objects.filter(board=ref.board, date=ref.day).exists()
    )


def pg_page(
    ref: BoardRef,
    mode: str,
    size: int,
    key: int | None = None,
    member: str = "",
    players: Any = None,
    viewer: int | None = None,
) -> store.Page:
    """The same page as :func:`store.page`, computed by PostgreSQL (with ``viewer``'s own
    hidden score, if any, in its place)."""
    qs = ref.queryset(players, viewer)
    tie = ref.tie_field
    frozen = _frozen(ref, players, viewer)
    asc, desc = ("sort_key", tie), ("-sort_key", f"-{tie}")

    def position(row_key: int, row_tie: Any, rank: int | None) -> int:
        if frozen and rank is not None:
            return rank - 1
        return qs.filter(_before_q(ref, row_key, row_tie)).count()

    fields = ("sort_key", tie, "rank") if ref.is_daily else ("sort_key", tie)

    def rows(q: QuerySet) -> list[tuple]:
        return [(*r, None)[:3] for r in q.values_list(*fields)]

    if mode == "first":
        found = rows(qs.order_by(*asc)[:size])
        start = 0
    elif mode in ("after", "before"):
        tie_value = ref.tie_value(member)
        if mode == "after":
            found = rows(qs.filter(_after_q(ref, key, tie_value)).order_by(*asc)[:size])
        else:
            found = rows(qs.filter(_before_q(ref, key, tie_value)).order_by(*desc)[:size])[::-1]
        start = position(*found[0]) if found else 0
    else:  # around: `member` is the caller's member, `size` the neighbours either side
        tie_value = ref.tie_value(member)
        mine = rows(qs.filter(**{tie: tie_value}))
        if not mine:
            return store.Page(-1, [])
        my_key = mine[0][0]
        above = rows(qs.filter(_before_q(ref, my_key, tie_value)).order_by(*desc)[:size])[::-1]
        below = rows(qs.filter(_after_q(ref, my_key, tie_value)).order_by(*asc)[: size + 1])
        found = [*above, mine[0], *below]
        my_position = position(*mine[0])
        return store.Page(
            my_position - len(above),
            [(k, ref.member(t)) for k, t, _ in found],
            mine=my_position,
        )
    return store.Page(start, [(k, ref.member(t)) for k, t, _ in found])


# --- Reading ---------------------------------------------------------------------------------


def my_member(ref: BoardRef, player_id: int) -> str | None:
    if not ref.is_daily:
        return ranking.player_member(player_id)
    play_id = (
        ref.queryset(viewer=player_id)
        .filter(player_id=player_id)
        .values_list("play_id", flat=True)
        .first()
    )
    return None if play_id is None else play_id.hex


def shadowed(ref: BoardRef, viewer: int | None) -> bool:
    """Has ``viewer`` a hidden score on this board (a shadow total on a weekly or all-time
    one)? Then they read it from PostgreSQL with their own result in place, as if nothing
    were hidden (the "shadow" of a flag)."""
    if viewer is None:
        return False
    if ref.is_daily:
        mine = Score.objects.filter(board=ref.board, date=ref.day, hidden=True)
    else:
        mine = Total.objects.filter(board=ref.board, period=ref.period, shadow=True)
    return mine.filter(player_id=viewer).exists()


def read(
    ref: BoardRef,
    mode: str = "first",
    size: int = 50,
    key: int | None = None,
    member: str = "",
    me: int | None = None,
    players: Any = None,
    viewer: int | None = None,
) -> BoardPage:
    """One page of ``ref``: ``mode`` is first / after / before (a cursor's ``key``, ``member``)
    or around (``me``, ``size`` neighbours either side). ``players`` limits the board to
    those player ids (a group); such pages always come from PostgreSQL. ``viewer`` (the
    signed-in caller) sees their own hidden score where it would rank."""
    if mode == "around" and me is None:
        return BoardPage(start=-1)
    # One more entry than asked tells whether another page follows (`around` asks for it
    # after the neighbours itself).
    ask = size if mode == "around" else size + 1
    page, source = None, "postgres"
    if not shadowed(ref, viewer):
        viewer = None
    if viewer is None and players is None and store.configured() and not _served_by_ranks(ref):
        try:
            if mode == "around":
                member = ref.alias(me) or ref.member(me)
            page = store.page(ref.redis_key, mode, ask, key, member)
            if page is None:
                if ref.queryset().exists():  # never build keys for boards nobody played
                    rebuilding.schedule_rebuild(ref)
                    rebuilding.schedule_restore()  # the others may be gone too
            else:
                source = "redis"
        except store.StoreUnavailable as error:
            # The breaker logged the outage once; each fallback is only worth a debug line.
            level = logging.DEBUG if store.outage_known() else logging.WARNING
            log.log(level, "leaderboard: Redis unavailable, answering from PostgreSQL: %s", error)
    if page is None:
        if mode == "around":
            member = my_member(ref, me)
            if member is None:
                return BoardPage(start=-1)
        page = pg_page(ref, mode, ask, key, member, players, viewer)
    result = _result(ref, mode, size, page, source, viewer)
    result.personal = viewer is not None
    return result


def _served_by_ranks(ref: BoardRef) -> bool:
    """A frozen past day is read from its stored ranks (its Redis board expires)."""
    if not ref.is_daily or ref.day >= timezone.now().astimezone(dt.UTC).date():
        return False
    return FrozenDay.objects.filter(board=ref.board, date=ref.day).exists()


def _result(
    ref: BoardRef, mode: str, size: int, page: store.Page, source: str, viewer: int | None
) -> BoardPage:
    """Trim the one extra entry asked for (it only tells whether more follow) and hydrate."""
    if page.start < 0:
        return BoardPage(start=-1, source=source)
    start, entries = page.start, list(page.entries)
    infos = list(page.infos) if page.infos is not None else None
    if mode == "around":
        keep = page.mine - start + size + 1  # through `size` entries after the caller's
        more_after = len(entries) > keep
        entries, infos = entries[:keep], infos[:keep] if infos is not None else None
    elif mode == "before":
        if len(entries) > size:
            entries, infos = entries[1:], infos[1:] if infos is not None else None
            start += 1
        more_after = True
    else:
        more_after = len(entries) > size
        entries, infos = entries[:size], infos[:size] if infos is not None else None
    page = store.Page(start, entries, infos)
    return BoardPage(
        entries=hydrate(ref, page, viewer),
        first=entries[0] if entries else None,
        last=entries[-1] if entries else None,
        start=start,
        source=source,
        has_more_before=start > 0,
        has_more_after=more_after,
    )
