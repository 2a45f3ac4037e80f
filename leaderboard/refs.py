"""A board's identity: :class:`BoardRef` (kind, rules key, period), its Redis key and
lifetime, and the PostgreSQL rows it ranks.

Below every module that reads, rebuilds or freezes boards (:mod:`.boards`,
:mod:`.rebuilding`, :mod:`.freezing`, :mod:`.entries`), so that they can name a board
without importing each other.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from . import ranking, store
from .models import ALL_TIME, Score, Total

DAILY, WEEKLY, ALLTIME = "daily", "weekly", "all-time"
_KIND_CODE = {DAILY: "d", WEEKLY: "w", ALLTIME: "a"}


@dataclass(frozen=True)
class BoardRef:
    kind: str  # daily | weekly | all-time
    board: str  # rules key, e.g. "easthaven+partial_runs"
    period: str  # "2026-11-29" | "2026-W48" | "all"

    @classmethod
    def daily(cls, board: str, day: dt.date) -> BoardRef:
        return cls(DAILY, board, day.isoformat())

    @classmethod
    def weekly(cls, board: str, week: str) -> BoardRef:
        return cls(WEEKLY, board, week)

    @classmethod
    def all_time(cls, board: str) -> BoardRef:
        return cls(ALLTIME, board, ALL_TIME)

    @property
    def is_daily(self) -> bool:
        return self.kind == DAILY

    @property
    def day(self) -> dt.date:
        return dt.date.fromisoformat(self.period)

    @property
    def redis_key(self) -> str:
        return store.board_key(_KIND_CODE[self.kind], self.board, self.period)

    def redis_ttl(self, now: dt.datetime) -> int:
        """Seconds a rebuilt Redis board may live (0: forever).

        A daily board lives until two days after its day (a past day is then frozen and
        served by PostgreSQL from its stored ranks), a weekly one until nine days after its
        Monday; all-time boards never expire. A board rebuilt after that gets an hour.
        """
        if self.kind == ALLTIME:
            return 0
        if self.is_daily:
            end = ranking.day_start(self.day) + dt.timedelta(days=2)
        else:
            end = ranking.day_start(ranking.parse_iso_week(self.period)[0]) + dt.timedelta(days=9)
        return max(3600, int((end - now).total_seconds()))

    @property
    def tie_field(self) -> str:
        return "play_id" if self.is_daily else "player_id"

    def queryset(self, players: Any = None, viewer: int | None = None) -> QuerySet:
        """The board's rows as everyone sees them, or as ``viewer`` does: with their own
        hidden score (daily) or their shadow total in place of their public one."""
        if self.is_daily:
            qs = Score.objects.filter(board=self.board, date=self.day)
            visible = Q(hidden=False)
            qs = qs.filter(visible | Q(player_id=viewer) if viewer is not None else visible)
        else:
            qs = Total.objects.filter(board=self.board, period=self.period)
            public = Q(shadow=False)
            if viewer is not None:
                public = (public & ~Q(player_id=viewer)) | Q(shadow=True, player_id=viewer)
            qs = qs.filter(public)
        if players is not None:
            qs = qs.filter(player_id__in=players)
        return qs

    def member(self, tie_value: Any) -> str:
        """The Redis member (and cursor form) of a row's tie-break value."""
        if self.is_daily:
            return uuid.UUID(str(tie_value)).hex
        return ranking.player_member(tie_value)

    def alias(self, player_id: int) -> str:
        """How Redis finds a player's member on a daily board (`around=me`); "" elsewhere."""
        return f"@{player_id}" if self.is_daily else ""

    def tie_value(self, member: str) -> Any:
        """The inverse of :meth:`member`; ``ValueError`` for a malformed member."""
        if self.is_daily:
            if len(member) != 32:
                raise ValueError(member)
            return uuid.UUID(hex=member)
        if not (member.isdigit() and len(member) == ranking.MEMBER_WIDTH):
            raise ValueError(member)
        return int(member)
