"""Exact rate limits per user (per client address for auth), with IETF RateLimit headers.

A scope may also be counted per client address for signed-in users: a rate named
``<scope>_address`` (``hints_address``, ``THROTTLE_HINTS_ADDRESS``) is a second counter
keyed by the address (counting the requests the account's own limit let through), and a
request must pass both, so rotating accounts from one address does not lift the limit.
Honest players share addresses (carrier NAT, a school), so that rate is set several times
the per-user one (default 60/min against 10/min).

Each scope (``plays``, ``moves``, ``auth``) allows ``q`` requests per window of ``w`` seconds
(``THROTTLE_*`` settings such as ``120/min``), counted in a *fixed window that starts with a
client's first request*: the first request creates the counter with a time to live of ``w``,
every request increments it, and a request whose count exceeds ``q`` is refused with
``429 throttled`` and ``Retry-After`` (the counter's remaining life). The increment and the
expiry are one Lua script, so parallel requests are counted exactly: of N > q parallel
requests in one window exactly q get through.

Where counters live:

* Redis (``REDIS_URL`` set and answering): shared by every web process.
* Redis configured but down or hung (the circuit breaker of :mod:`config.redis_guard` is
  open): a per-process counter in local memory, so each web process allows ``q`` per window
  on its own (fail-soft rather than fail-open; ``/api/v1/health`` says ``degraded``).
* No Redis configured: the same per-process counter in the default (local-memory) cache.

Every throttled response carries the draft IETF headers
(draft-ietf-httpapi-ratelimit-headers): ``RateLimit-Policy: "moves";q=600;w=60`` and
``RateLimit: "moves";r=<remaining>;t=<seconds to reset>``, added by
:class:`RateLimitHeadersMiddleware`.

The client address of a per-address limit is ``REMOTE_ADDR`` unless ``TRUSTED_PROXY_COUNT``
(default 0) proxies that append to ``X-Forwarded-For`` stand in front: then it is the
address that many hops from the right of ``X-Forwarded-For`` + ``REMOTE_ADDR``. Whatever a
client writes into the header itself stays to the left of it and is ignored.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from config import redis_guard
from config.observability import metrics

REQUEST_ATTRIBUTE = "haven_ratelimit"

_WINDOW = """
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
"""

_DURATIONS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"120/min"`` → (120, 60): DRF's rate syntax (the unit's first letter counts)."""
    count, _, period = rate.partition("/")
    return int(count), _DURATIONS[period.strip()[0]]


@dataclass(frozen=True)
class Decision:
    scope: str
    limit: int
    window: int  # seconds
    count: int
    reset: float  # seconds until the window ends

    @property
    def allowed(self) -> bool:
        return self.count <= self.limit

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    @property
    def reset_seconds(self) -> int:
        return max(1, math.ceil(self.reset))

    def headers(self) -> dict[str, str]:
        name = f'"{self.scope}"'
        return {
            "RateLimit-Policy": f"{name};q={self.limit};w={self.window}",
            "RateLimit": f"{name};r={self.remaining};t={self.reset_seconds}",
        }


# --- Counters ----------------------------------------------------------------------------------

_local_lock = threading.Lock()


def _local_hit(cache_alias: str, key: str, window: int) -> tuple[int, float]:
    """Count a hit in a per-process cache: (count in this window, seconds until it ends)."""
    cache = caches[cache_alias]
    now = time.monotonic()
    with _local_lock:
        found = cache.get(key)
        if found is None or found[1] <= now:
            found = (0, now + window)
        count, ends = found[0] + 1, found[1]
        cache.set(key, (count, ends), timeout=max(1, math.ceil(ends - now)))
    return count, ends - now


def _redis_hit(key: str, window: int) -> tuple[int, float]:
    client = redis_guard.client()
    script = getattr(_redis_hit, "script", None)
    if script is None or script.registered_client is not client:
        script = client.register_script(_WINDOW)
        _redis_hit.script = script  # type: ignore[attr-defined]
    with redis_guard.guarded():
        count, ttl_ms = script(keys=[key], args=[window * 1000])
    return int(count), int(ttl_ms) / 1000


def hit(key: str, window: int) -> tuple[int, float]:
    """Count one request against ``key``; shared in Redis, else per process."""
    if not getattr(settings, "REDIS_URL", ""):
        return _local_hit("default", key, window)
    redis_key = caches["default"].make_key(key)
    try:
        return _redis_hit(redis_key, window)
    except redis_guard.RedisUnavailable:
        return _local_hit(LOCAL_CACHE, redis_key, window)


LOCAL_CACHE = "local"


def shared() -> bool:
    """Are the throttles counted in Redis right now (rather than per process)?"""
    return bool(getattr(settings, "REDIS_URL", "")) and not redis_guard.breaker.is_open


# --- Client address ----------------------------------------------------------------------------


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or the right ``X-Forwarded-For`` hop when
    ``TRUSTED_PROXY_COUNT`` proxies append to it (see the module docstring)."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    if proxies <= 0:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()] + [remote]
    candidate = hops[-(proxies + 1)] if len(hops) > proxies else hops[0]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        # A trusted proxy wrote something that is not an address: count it with its proxy.
        return remote


# --- DRF -------------------------------------------------------------------------------------


#: ``<scope>_address`` in the rates: the scope is also counted per client address.
ADDRESS_SUFFIX = "_address"


def _count(scope: str, rate: str, ident: str) -> Decision:
    limit, window = parse_rate(rate)
    count, reset = hit(f"throttle:{scope}:{ident}", window)
    return Decision(scope, limit, window, count, reset)


def _stricter(first: Decision, second: Decision) -> Decision:
    """The decision a client hears: a refusal if either refuses, else the one with less left."""
    if first.allowed != second.allowed:
        return second if first.allowed else first
    return second if second.remaining < first.remaining else first


class ScopedThrottle(BaseThrottle):
    """The view's ``throttle_scope`` at the rate of the current ``REST_FRAMEWORK`` settings
    (read per request, so ``override_settings`` takes effect), keyed by user or address."""

    def __init__(self) -> None:
        self.decision: Decision | None = None

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        rates = api_settings.DEFAULT_THROTTLE_RATES
        rate = rates.get(scope) if scope else None
        if not rate:
            return True
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            decision = _count(scope, rate, f"user:{user.pk}")
            address_rate = rates.get(f"{scope}{ADDRESS_SUFFIX}")
            if address_rate and decision.allowed:
                # Accounts are cheap: the address's own count stops a rotation of them. A
                # request the account's limit refused does not eat its neighbours' share.
                ident = f"addr:{client_address(request._request)}"
                by_address = _count(f"{scope}{ADDRESS_SUFFIX}", address_rate, ident)
                decision = _stricter(decision, by_address)
        else:
            decision = _count(scope, rate, f"addr:{client_address(request._request)}")
        self.decision = decision
        setattr(request._request, REQUEST_ATTRIBUTE, decision)
        return decision.allowed

    def wait(self) -> float | None:
        return None if self.decision is None else self.decision.reset_seconds


class RateLimitHeadersMiddleware:
    """Add ``RateLimit-Policy`` / ``RateLimit`` to every response a throttle counted."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        decision: Decision | None = getattr(request, REQUEST_ATTRIBUTE, None)
        if decision is not None:
            for name, value in decision.headers().items():
                response[name] = value
            if not decision.allowed:
                response["Retry-After"] = str(decision.reset_seconds)
                metrics.record_throttled(decision.scope)
        return response
