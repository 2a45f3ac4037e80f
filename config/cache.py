"""Django's Redis cache, degraded instead of failing when Redis does.

Every operation runs under the process's circuit breaker (:mod:`config.redis_guard`): while
Redis is down or hung a read is a miss and a write is dropped, after at most one short
timeout per cool-down, so no caller of ``django.core.cache`` ever sees a Redis error.
``incr`` keeps Django's contract and raises ``ValueError`` (as for a missing key).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

from .redis_guard import RedisUnavailable, guarded


class GuardedRedisCache(RedisCache):
    def _guard(self, call, fallback: Any) -> Any:
        try:
            with guarded():
                return call()
        except RedisUnavailable:
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: super(GuardedRedisCache, self).add(key, value, timeout, version), False
        )

    def get(self, key, default=None, version=None):
        return self._guard(
            lambda: super(GuardedRedisCache, self).get(key, default, version), default
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: super(GuardedRedisCache, self).set(key, value, timeout, version), None
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: super(GuardedRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key, version=None):
        return self._guard(lambda: super(GuardedRedisCache, self).delete(key, version), False)

    def get_many(self, keys, version=None):
        return self._guard(lambda: super(GuardedRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self._guard(lambda: super(GuardedRedisCache, self).has_key(key, version), False)

    def incr(self, key, delta=1, version=None):
        missing = object()
        result = self._guard(
            lambda: super(GuardedRedisCache, self).incr(key, delta, version), missing
        )
        if result is missing:
            raise ValueError(f"Key '{key}' not found (Redis unavailable)")
        return result

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: super(GuardedRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete_many(self, keys, version=None):
        return self._guard(lambda: super(GuardedRedisCache, self).delete_many(keys, version), None)

    def clear(self):
        return self._guard(lambda: super(GuardedRedisCache, self).clear(), False)
