"""The webhook's signature, Stripe-style: ``X-Haven-Signature: t=<unix seconds>,v1=<hex>``.

``v1`` is HMAC-SHA256 with ``NOTIFY_WEBHOOK_SECRET`` over ``f"{t}."`` followed by the raw
body bytes. A receiver recomputes it over the body exactly as received, compares in
constant time and refuses a ``t`` too far from its clock (a replayed old request).
:func:`verify` is the recipe in code (docs/operations/notifications.md).
"""

from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE_HEADER = "X-Haven-Signature"
EVENT_ID_HEADER = "X-Haven-Event-Id"
EVENT_TYPE_HEADER = "X-Haven-Event-Type"
DEFAULT_TOLERANCE_SECONDS = 300


def _digest(secret: str, timestamp: int, body: bytes) -> str:
    signed = str(timestamp).encode("ascii") + b"." + body
    return hmac.new(secret.encode("utf-8"), signed, hashlib.sha256).hexdigest()


def signature_header(secret: str, body: bytes, timestamp: int | None = None) -> str:
    stamp = int(time.time()) if timestamp is None else timestamp
    return f"t={stamp},v1={_digest(secret, stamp, body)}"


def verify(
    secret: str,
    body: bytes,
    header: str,
    *,
    now: float | None = None,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
) -> bool:
    """Whether ``header`` signs ``body`` with ``secret`` within ``tolerance`` seconds."""
    fields: dict[str, list[str]] = {}
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        fields.setdefault(name, []).append(value)
    try:
        stamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    clock = time.time() if now is None else now
    if abs(clock - stamp) > tolerance:
        return False
    expected = _digest(secret, stamp, body)
    return any(hmac.compare_digest(expected, given) for given in fields.get("v1", []))
