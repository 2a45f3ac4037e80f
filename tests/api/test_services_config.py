"""Settings from the environment: Redis for cache and Celery under its own test database."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.cache import cache

from config.settings import redis_url_with_db

from .helpers import assert_problem, start


def test_redis_url_database_is_rewritten():
    assert redis_url_with_db("redis://h:6379/0", 15) == "redis://h:6379/15"
    assert redis_url_with_db("redis://:pw@h:6379", 15) == "redis://:pw@h:6379/15"
    assert redis_url_with_db("rediss://h/3?ssl_cert_reqs=none", 15) == (
        "rediss://h/15?ssl_cert_reqs=none"
    )


@pytest.mark.redis
def test_cache_and_celery_use_redis_database_15():
    location = settings.CACHES["default"]["LOCATION"]
    assert location.endswith("/15")
    assert settings.CELERY_BROKER_URL == location
    assert settings.CELERY_RESULT_BACKEND == location
    assert os.environ["REDIS_URL"].endswith("/15")
    cache.set("probe", 1)
    assert cache.get("probe") == 1


@pytest.mark.redis
@pytest.mark.django_db
def test_throttle_counters_live_in_redis(client, settings):
    import redis

    rates = {"plays": "1/min", "moves": "1/min", "auth": "1/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert start(client, preset="easthaven", seed=1).status_code == 201
    assert_problem(start(client, preset="easthaven", seed=1), 429, "throttled")
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    keys = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"]).keys(f"{prefix}:*throttle*")
    assert keys


@pytest.mark.postgres
def test_database_is_postgresql_through_psycopg3():
    import psycopg

    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert psycopg.__version__.startswith("3.")


def test_celery_app_is_configured():
    import games.daily.tasks  # noqa: F401 - registers the tasks
    import games.maintenance  # noqa: F401 - registers the task
    from config import celery_app

    assert celery_app.main == "haven"
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["prepare-upcoming-days"]["task"] == "games.tasks.prepare_upcoming_days"
    assert schedule["prepare-upcoming-days"]["task"] in celery_app.tasks
    assert schedule["purge-idempotency-keys"]["task"] in celery_app.tasks
    assert "games.maintenance" in settings.CELERY_IMPORTS
    assert "games.daily.tasks" in settings.CELERY_IMPORTS  # workers register the daily tasks
    assert settings.CELERY_TASK_ALWAYS_EAGER  # tests never need a worker
