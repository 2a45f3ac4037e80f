"""The Celery app: configured from Django settings (``CELERY_*``), tasks autodiscovered.

Without ``REDIS_URL`` the settings make every task run eagerly in the calling process, so a
bare machine needs no broker; with it, ``celery -A config worker`` and ``celery -A config beat``
run the tasks and the hourly schedule in ``CELERY_BEAT_SCHEDULE``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("haven")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
