"""Privacy-safe keys of a request's client address and device, for fair play.

The address is the one the throttles use (:func:`config.web.throttling.client_address`, so
``TRUSTED_PROXY_COUNT`` decides which ``X-Forwarded-For`` hop counts); the device is the
optional ``X-Device-Id`` header a client may send. Each becomes an HMAC-SHA256 under
``FAIRPLAY_KEY_SECRET``: equal inputs give equal keys, so two accounts playing from one
address can be linked, but the raw address never reaches the database and a leaked key
cannot be reversed without the secret (an IPv4 address alone could be brute-forced from a
plain hash).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.http import HttpRequest

from .throttling import client_address

DEVICE_HEADER = "HTTP_X_DEVICE_ID"
MAX_DEVICE_ID = 200  # longer values are cut: a key, not a document


def keyed_hash(kind: str, value: str) -> str:
    """The hex HMAC of ``value``, domain-separated by ``kind`` (an address and a device id
    that happen to be equal strings get different keys)."""
    secret = settings.FAIRPLAY_KEY_SECRET.encode()
    return hmac.new(secret, f"{kind}\x00{value}".encode(), hashlib.sha256).hexdigest()


def client_keys(request: HttpRequest) -> dict[str, str]:
    """``{"address": key}`` plus ``"device": key`` when the client sent ``X-Device-Id``."""
    keys = {"address": keyed_hash("address", client_address(request))}
    device = request.META.get(DEVICE_HEADER, "").strip()[:MAX_DEVICE_ID]
    if device:
        keys["device"] = keyed_hash("device", device)
    return keys
