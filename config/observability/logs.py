"""The logging configuration: ``LOG_FORMAT=text`` (the default, for people) or ``json``.

``json`` writes one JSON object per line (``python-json-logger``) with ``time``, ``level``,
``logger``, ``message``, the request's fields (``request_id``, ``user_id``, ``play_id``,
``route``; in a Celery task also ``task_id`` and ``task_name``) and whatever a call passed in
``extra`` (the request line adds ``method``, ``path``, ``status``, ``duration_ms``).
``text`` keeps the plain lines, with the request id when there is one.

One request line per request (``haven.request``) is written at ``INFO`` in ``json`` mode;
in ``text`` mode only when ``LOG_REQUESTS`` is on, since runserver and gunicorn's access log
already print one.
"""

from __future__ import annotations

import logging
from typing import Any

from . import context

FORMATS = ("text", "json")


class ContextFilter(logging.Filter):
    """Adds the current request's (or task's) fields to every record a handler writes."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in context.current().items():
            if not hasattr(record, name):
                setattr(record, name, value)
        return True


class TextFormatter(logging.Formatter):
    """``LEVEL logger: message``, then ``[request <id>]`` inside a request."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = getattr(record, "request_id", None)
        return f"{line} [request {request_id}]" if request_id else line


def json_formatter() -> logging.Formatter:
    from pythonjsonlogger.json import JsonFormatter

    return JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        datefmt="%Y-%m-%dT%H:%M:%S%z",  # ISO 8601 (the service runs in UTC)
    )


def text_formatter() -> logging.Formatter:
    return TextFormatter("%(levelname)s %(name)s: %(message)s")


def logging_config(fmt: str, level: str, log_requests: bool) -> dict[str, Any]:
    """``LOGGING`` for Django (and, through it, Celery and gunicorn's workers)."""
    if fmt not in FORMATS:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"LOG_FORMAT must be one of {', '.join(FORMATS)}, not {fmt!r}.")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}},
        "formatters": {"text": {"()": text_formatter}, "json": {"()": json_formatter}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": fmt,
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django.request": {"level": "ERROR"},
            "haven.request": {"level": "INFO" if log_requests else "WARNING"},
        },
    }
