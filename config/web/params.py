"""Path and query parameters that the games and leaderboard APIs parse alike: days and weeks.

Formats are strict (ASCII digits, exact shapes: ``2026-W49`` is not a date) and every day
lies between ``FIRST_DAY`` and ``LAST_DAY``, so no date arithmetic downstream (a week's end,
a board's expiry) can overflow Python's year 9999.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable

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


# --- The same days and weeks as regular expressions (the OpenAPI schema's patterns) ----------
# Exact: a string matches exactly when the parsers above take it (February 29th of leap years
# only, week 53 of the years that have one), so a schema validator refuses what they refuse.


def _years(keep: Callable[[int], bool]) -> str:
    """The years of the service's days that ``keep`` holds for, grouped by century."""
    centuries: dict[str, list[str]] = {}
    for year in range(FIRST_DAY.year, LAST_DAY.year + 1):
        if keep(year):
            centuries.setdefault(str(year)[:2], []).append(str(year)[2:])
    return "|".join(f"{c}({'|'.join(ends)})" for c, ends in centuries.items())


_YEAR = r"2[0-9]{3}"
DAY_PATTERN = (
    f"{_YEAR}-(0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])"
    f"|{_YEAR}-(0[469]|11)-(0[1-9]|[12][0-9]|30)"
    f"|{_YEAR}-02-(0[1-9]|1[0-9]|2[0-8])"
    f"|({_years(calendar.isleap)})-02-29"
)
WEEK_PATTERN = (
    f"{_YEAR}-W(0[1-9]|[1-4][0-9]|5[0-2])"
    f"|({_years(lambda year: dt.date(year, 12, 28).isocalendar()[1] == 53)})-W53"
)
