"""The ranking keys and the points rule: pure functions, no Django, no Redis.

Every board is ordered by one integer, its *sort key* (lower is better), then by a *member*
string that breaks exact ties (ascending). The same pair orders PostgreSQL (``ORDER BY
sort_key, play_id``) and Redis (a sorted set orders equal scores by member, bytewise), so the
two paths give identical pages by construction.

Daily key (53 bits, below 2**53 so a Redis score, a double, holds it exactly)::

    bit 52        : 0 = won, 1 = not won                       (won before not won)
    won, bits 0–51: moves (14 bits) | centiseconds (22 bits) | finish offset, s (16 bits)
    not won       : 52 − foundation cards (6 bits) | moves (14 bits) | finish offset, ms (32 bits)

The *finish offset* is the time from the board's UTC midnight to the finish. The member is
the play id (32 lowercase hex digits; PostgreSQL orders uuids by the same bytes), so the full
order of a daily board is: won; winners by moves, time, finish; the rest by more foundation
cards, moves, finish; then play id. A field beyond its width saturates at its maximum
(16 383 moves, 11.6 h of play, a finish 18.2 h after midnight for winners, 49 days for
the rest): such values tie on that field and fall through to the next one.

Aggregate key (weekly and all-time boards, 52 bits)::

    wins, more first (15 bits) | points, more first (22 bits) | plays, more first (15 bits)

and the member is the player id, zero-padded to 12 digits. Every further result of a player
can only lower (improve) their key, so writers use ``ZADD … LT`` and a late, stale write can
never undo a newer one.

Points rule: a won daily is worth ``WIN_POINTS`` (100); a lost or resigned one is worth the
cards it put on the foundations (0–51). A better daily result never earns fewer points than
a worse one: every win beats every loss, a loss with more cards beats one with fewer, and
results that differ only in moves or time earn the same.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

WIN_POINTS = 100
KEY_LIMIT = 1 << 53

# Daily key layout.
_NOT_WON = 1 << 52
MOVES_BITS = 14
CENTIS_BITS = 22
WIN_FINISH_BITS = 16
CARDS_BITS = 6
LOSS_FINISH_BITS = 32

# Aggregate key layout.
WINS_BITS = 15
POINTS_BITS = 22
PLAYS_BITS = 15

MEMBER_WIDTH = 12  # digits of a zero-padded player id (aggregate boards)


def _cap(value: int, bits: int) -> int:
    return max(0, min(int(value), (1 << bits) - 1))


def day_start(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC)


@dataclass(frozen=True)
class DailyResult:
    """A ranked daily result, as far as ranking is concerned."""

    won: bool
    foundation_cards: int
    moves: int
    seconds: float
    finished_at: dt.datetime
    day: dt.date


def daily_key(result: DailyResult) -> int:
    """The daily board's sort key of ``result`` (lower is better), below 2**53."""
    offset = max(0.0, (result.finished_at - day_start(result.day)).total_seconds())
    moves = _cap(result.moves, MOVES_BITS)
    if result.won:
        centis = _cap(round(result.seconds * 100), CENTIS_BITS)
        finish = _cap(int(offset), WIN_FINISH_BITS)
        return (moves << (CENTIS_BITS + WIN_FINISH_BITS)) | (centis << WIN_FINISH_BITS) | finish
    cards = _cap(52 - result.foundation_cards, CARDS_BITS)
    finish = _cap(int(offset * 1000), LOSS_FINISH_BITS)
    return (
        _NOT_WON | (cards << (MOVES_BITS + LOSS_FINISH_BITS)) | (moves << LOSS_FINISH_BITS) | finish
    )


def points(won: bool, foundation_cards: int) -> int:
    """Points of one daily result (see the module's docstring)."""
    return WIN_POINTS if won else max(0, min(int(foundation_cards), 51))


def aggregate_key(wins: int, points_total: int, plays: int) -> int:
    """The weekly / all-time sort key (lower is better): wins, then points, then plays."""
    w = (1 << WINS_BITS) - 1 - _cap(wins, WINS_BITS)
    p = (1 << POINTS_BITS) - 1 - _cap(points_total, POINTS_BITS)
    n = (1 << PLAYS_BITS) - 1 - _cap(plays, PLAYS_BITS)
    return (w << (POINTS_BITS + PLAYS_BITS)) | (p << PLAYS_BITS) | n


def player_member(player_id: int) -> str:
    return f"{int(player_id):0{MEMBER_WIDTH}d}"


def iso_week(day: dt.date) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def parse_iso_week(text: str) -> tuple[dt.date, dt.date]:
    """``2026-W48`` → (Monday, Sunday) of that ISO week; ``ValueError`` if it is not one."""
    year_text, sep, week_text = text.partition("-W")
    if not sep or len(year_text) != 4 or len(week_text) != 2:
        raise ValueError(text)
    if not (year_text.isdigit() and week_text.isdigit()):
        raise ValueError(text)
    monday = dt.date.fromisocalendar(int(year_text), int(week_text), 1)
    return monday, monday + dt.timedelta(days=6)
