"""The problem document itself: ``type``, ``title``, ``status``, ``detail`` (in the
request's language) and ``code``, plus the extra members (RFC 9457).

The ground of the web layer's error answers: :mod:`.problems` (DRF's exception handler,
Django's error views) and :mod:`.outage` (the database's 503) both build their bodies here,
so neither needs the other.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation

from .catalogue import CATALOGUE, RULES


def problem_type(code: str) -> str:
    return f"{settings.PROBLEM_TYPE_BASE}{code}"


def problem_title(code: str) -> str:
    entry = CATALOGUE.get(code)
    return str(entry.title) if entry else code.replace("_", " ").capitalize()


def problem_detail(code: str, detail: str, extra: dict[str, Any]) -> str:
    """``detail`` in the request's language: the raised (English) sentence, or in another
    language the catalogue's translated one, filled in from the problem's extra members."""
    entry = CATALOGUE.get(code)
    language = translation.get_language() or "en"
    if entry is None or entry.detail is None or language.startswith("en"):
        return detail
    values = {**extra, "rule_text": rule_text(extra.get("rule", ""))}
    try:
        return str(entry.detail) % values
    except (KeyError, TypeError, ValueError):
        return detail


def rule_text(rule: str) -> str:
    text = RULES.get(rule)
    return str(text) if text is not None else rule


def problem_body(status_code: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    body = {
        "type": problem_type(code),
        "title": problem_title(code),
        "status": status_code,
        "detail": problem_detail(code, detail, extra),
        "code": code,
    }
    body.update(extra)
    return body
