"""Path and query parameters that the games and leaderboard APIs parse alike: days and weeks.

Formats are strict (ASCII digits, exact shapes: ``2026-W49`` is not a date) and every day
lies between ``FIRST_DAY`` and ``LAST_DAY``, so no date arithmetic downstream (a week's end,
a board's expiry) can overflow Python's year 9999.
"""

from __future__ import annotations

import datetime as dt
import re

from .problems import Problem

FIRST_DAY = dt.date(2000, 1, 1)
LAST_DAY = dt.date(2999, 12, 31)
STRICT_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STRICT_WEEK = re.compile(r"([0-9]{4})-W([0-9]{2})")


def parse_day(text: str, today: dt.date) -> dt.date:
    """A UTC day from a URL: ``YYYY-MM-DD`` or ``today`` (400 ``invalid_date`` otherwise)."""
    if text == "today":
        return today
    try:
        if not STRICT_DAY.fullmatch(text):
            raise ValueError(text)
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise Problem(400, "invalid_date", "a date is YYYY-MM-DD (UTC) or 'today'") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise Problem(400, "invalid_date", f"dates run from {FIRST_DAY} to {LAST_DAY}")
    return day


def week_in_range(text: str) -> bool:
    """``text`` has the exact shape ``YYYY-Www`` with a year of the service's days."""
    match = STRICT_WEEK.fullmatch(text)
    return bool(match) and FIRST_DAY.year <= int(match.group(1)) <= LAST_DAY.year
