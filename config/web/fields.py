"""Strict request fields: a value of the wrong JSON type is a 400, never coerced.

DRF's own fields are lenient: ``CharField`` turns the number ``123`` into ``"123"``,
``IntegerField`` takes ``"12"`` and ``12.0``, ``BooleanField`` takes ``"yes"`` and ``1``,
``DateField`` takes ``2026-W49`` (Python's ISO parser reads a week as its Monday). A client
that sends the wrong type has a bug worth hearing about, so these fields refuse it.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Any

from rest_framework import serializers

from .params import FIRST_DAY, LAST_DAY, STRICT_DAY

# A card: rank A23456789TJQK (or 10), then suit SHDC, upper case, nothing around it.
CARD = re.compile(r"(?:[A2-9TJQK]|10)[SHDC]")


def has_control_characters(text: str) -> bool:
    return any(unicodedata.category(char) == "Cc" for char in text)


class StrictCharField(serializers.CharField):
    """A JSON string; numbers, booleans, lists and objects are refused."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer; strings, floats and booleans are refused."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false``; ``"yes"``, ``1`` and ``"true"`` are refused."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictDateField(serializers.DateField):
    """``YYYY-MM-DD`` only (ASCII digits), within the days the service can hold."""

    def to_internal_value(self, value: Any) -> dt.date:
        if not isinstance(value, str) or not STRICT_DAY.fullmatch(value):
            self.fail("invalid", format="YYYY-MM-DD")
        day = super().to_internal_value(value)
        if not FIRST_DAY <= day <= LAST_DAY:
            raise serializers.ValidationError(f"dates run from {FIRST_DAY} to {LAST_DAY}")
        return day


def is_card_token(value: str) -> bool:
    """``value`` is exactly a card token (``TH`` or ``10H``): no spaces, no lower case."""
    return bool(CARD.fullmatch(value))


def no_control_characters(value: str) -> None:
    if has_control_characters(value):
        raise serializers.ValidationError("control characters are not allowed")
