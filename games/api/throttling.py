"""Per-user rate limits on the play and move endpoints, kept in the Django cache.

DRF binds ``THROTTLE_RATES`` when the throttle class is imported; reading the rate at
request time instead lets ``override_settings`` (tests) and a reloaded settings module
take effect.
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class ScopedThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle`` whose rates come from the current ``REST_FRAMEWORK`` settings."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
