"""Path and query parameters that the games and leaderboard APIs parse alike."""

from __future__ import annotations

import datetime as dt

from ..problems import Problem


def parse_day(text: str, today: dt.date) -> dt.date:
    """A UTC day from a URL: ``YYYY-MM-DD`` or ``today`` (400 ``invalid_date`` otherwise)."""
    if text == "today":
        return today
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise Problem(400, "invalid_date", "a date is YYYY-MM-DD (UTC) or 'today'") from None
