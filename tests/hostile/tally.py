"""Counters of the hostile requests the tests send, per class of input, for the docs' table.

Every request a hostile test sends goes through :func:`check`, which records it under its
class (tried, answered 5xx, answered with a status outside the expected ones) before
asserting; tests that write count the writes they lost with :func:`lost`. With
``HOSTILE_REPORT=<file>`` set, the session writes the counters there as JSON
(``bench/hostile.py`` turns them into the table of ``docs/reliability/hostile-input.md``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection
from typing import Any

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}

CLASSES = {
    "nesting": "JSON nested ~1000 deep (and just over the limit) on every JSON endpoint",
    "body": "oversized, non-UTF-8, lone-surrogate, wrong-charset and NUL-laden JSON bodies",
    "path": "NUL, control characters, huge numbers, long strings in every path parameter",
    "dates": "out-of-range and loosely formatted dates and weeks (9999-W52, 2026-W49)",
    "query": "huge, negative, NUL-laden and repeated query parameters",
    "names": "look-alike usernames: case, fullwidth, NFKC confusables, racing sign-ups",
    "tokens": "signed tokens with bad claims (user_id of the wrong type, wrong token_type)",
    "accounts": "forged device secrets, racing links, sign-out replays, guest floods, "
    "stolen refresh tokens",
    "types": "wrong JSON types (a number for a name, 'KC ' for a card, '12' for a seed)",
    "edge": "Django's own answers: bad Host, media types, methods, multipart, CSRF",
    "schema": "schemathesis, every check, positive and negative cases on every operation",
}

_counts: dict[str, dict[str, int]] = defaultdict(
    lambda: {"tried": 0, "server_errors": 0, "wrong_status": 0, "writes_lost": 0}
)


def record(kind: str, status: int, expected: bool) -> None:
    assert kind in CLASSES, kind
    row = _counts[kind]
    row["tried"] += 1
    row["server_errors"] += status >= 500
    row["wrong_status"] += not expected


def lost(kind: str, count: int) -> None:
    _counts[kind]["writes_lost"] += count


def is_problem(response: Any) -> bool:
    if not response["Content-Type"].startswith("application/problem+json"):
        return False
    body = json.loads(response.content)
    return PROBLEM_KEYS <= set(body) and body["status"] == response.status_code


def check(
    kind: str,
    response: Any,
    statuses: Collection[int] | range = range(400, 500),
    code: str | None = None,
) -> Any:
    """Record ``response`` under ``kind`` and assert it: a status in ``statuses`` and, for
    an error, a problem document (with ``code`` if given)."""
    status = response.status_code
    ok = status in statuses
    if ok and status >= 400:
        ok = is_problem(response) and (code is None or json.loads(response.content)["code"] == code)
    record(kind, status, ok)
    assert ok, (kind, status, statuses, code, response.content[:300])
    return response


def report() -> dict[str, dict[str, int]]:
    return {kind: dict(_counts[kind]) for kind in CLASSES if kind in _counts}
