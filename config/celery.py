"""The Celery app: configured from Django settings (``CELERY_*``), tasks autodiscovered.

Without ``REDIS_URL`` the settings make every task run eagerly in the calling process, so a
bare machine needs no broker; with it, ``celery -A config worker`` and ``celery -A config beat``
run the tasks and the hourly schedule in ``CELERY_BEAT_SCHEDULE``. Every task is observed
through Celery's signals (:mod:`config.observability.tasks`).
"""

import os

from celery import Celery

from config.observability import tasks as task_observability

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("haven")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task metrics and the request id carried into tasks (config.observability.tasks).
task_observability.connect()
