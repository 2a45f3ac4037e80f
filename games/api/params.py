"""Path and query parameters that the games and leaderboard APIs parse alike.

Formats are strict (ASCII digits, exact shapes: ``2026-W49`` is not a date) and every day
lies between ``FIRST_DAY`` and ``LAST_DAY``, so no date arithmetic downstream (a week's end,
a board's expiry) can overflow Python's year 9999.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils.translation import gettext
from rest_framework.serializers import ValidationError
from rest_framework.settings import api_settings

from .. import engine
from ..moving import MAX_BATCH
from ..problems import Problem

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


def parse_moves(raw: list[Any]) -> list[engine.Move]:
    """The moves of a batch in the engine's form; the first that is not a move at all is a
    400 ``invalid_move`` naming its ``index``."""
    moves = []
    for index, data in enumerate(raw):
        try:
            moves.append(engine.Move.from_dict(data))
        except engine.MoveFormatError as error:
            raise Problem(
                400, "invalid_move", f"move {index}: {error.detail}", index=index
            ) from error
    return moves


MAX_SEQ = 2**31 - 1


def require_one_of_move_and_moves(data: Any) -> None:
    """A move request holds ``move`` or ``moves``, not both and not neither: a rule across
    fields, so a 400 ``validation_error`` under ``non_field_errors`` (as StartPlayRequest's
    "exactly one of daily, seed, deck or pysol_deal"). The schema leaves it out: a ``oneOf``
    would turn the generated clients' ``PlayMoveRequest`` model into a union."""
    if type(data) is dict and ("move" in data) == ("moves" in data):
        raise ValidationError(
            {api_settings.NON_FIELD_ERRORS_KEY: [gettext("Send exactly one of move and moves.")]}
        )


def plain_move_request(data: Any) -> tuple[int | None, Any]:
    """``(seq, move)`` of a move request that ``MoveRequestShapeSerializer`` would accept
    as it is (an int ``seq`` in range, a ``move`` key), else ``(None, None)``: the common
    case skips building a DRF serializer (a few tenths of a millisecond of CPU)."""
    if type(data) is not dict or "move" not in data:
        return None, None
    seq = data.get("seq")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
        return None, None
    return seq, data["move"]


def plain_batch_request(data: Any) -> tuple[int | None, list[Any]]:
    """``(seq, moves)`` of a batch that ``MoveBatchShapeSerializer`` would accept as it is,
    else ``(None, [])``, like :func:`plain_move_request`."""
    if type(data) is not dict or "move" in data:
        return None, []
    seq, moves = data.get("seq"), data.get("moves")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
        return None, []
    if type(moves) is not list or not 1 <= len(moves) <= MAX_BATCH:
        return None, []
    return seq, moves
