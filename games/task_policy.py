"""How the games app's Celery tasks survive a lost worker or a passing outage.

Shared by the daily-deal tasks (``games.daily.tasks``) and the winnability tasks
(``games.winnability.tasks``).
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

RETRYABLE = (OperationalError, InterfaceError, BrokerError, ConnectionError, TimeoutError)
#: Acknowledged only once done, retried with jittered exponential backoff on database and
#: broker errors.
RELIABLE = {
    "acks_late": True,
    "autoretry_for": RETRYABLE,
    "retry_backoff": 5,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 20,
}
