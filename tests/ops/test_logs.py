"""Request ids: taken from a well-formed X-Request-ID or generated, returned, written into
every JSON log line of the request and carried into the Celery tasks it queues."""

from __future__ import annotations

import io
import json
import logging

import pytest
from celery.worker.request import Request
from django.test import override_settings
from kombu import Connection

from config.celery import app
from config.observability import context
from config.observability.logs import ContextFilter, json_formatter, logging_config

from .urls import echo_request_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines():
    """The root logger's records as the JSON handler writes them, parsed."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    request_logger = logging.getLogger("haven.request")
    levels = (root.level, request_logger.level)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    request_logger.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(levels[0])
    request_logger.setLevel(levels[1])


@pytest.mark.parametrize("given", ["abc", "A.b-c_9", "x" * 128])
def test_a_well_formed_request_id_is_kept_and_returned(anon, given):
    response = anon.get("/api/v1/presets", HTTP_X_REQUEST_ID=given)
    assert response["X-Request-ID"] == given


@pytest.mark.parametrize("given", [None, "", "x" * 129, "two words", "a/b", "ü", "a\tb"])
def test_another_request_id_is_replaced(anon, given):
    extra = {} if given is None else {"HTTP_X_REQUEST_ID": given}
    response = anon.get("/api/v1/presets", **extra)
    returned = response["X-Request-ID"]
    assert returned != given
    assert context.well_formed(returned) and len(returned) == 32
    assert anon.get("/api/v1/presets", **extra)["X-Request-ID"] != returned  # one per request


def test_a_refusal_by_a_middleware_has_an_id_too(anon):
    response = anon.get("/api/v1/presets?x=%01")  # a control character: refused early
    assert response.status_code == 400
    assert context.well_formed(response["X-Request-ID"])


def test_the_request_line_has_the_request_user_play_route_status_and_duration(
    client, player, json_lines
):
    play = client.post("/api/v1/plays", {"preset": "seahaven", "seed": 3}, format="json").json()
    client.get(f"/api/v1/plays/{play['id']}", HTTP_X_REQUEST_ID="trace-me-1")
    line = next(entry for entry in json_lines() if entry.get("request_id") == "trace-me-1")
    assert line["logger"] == "haven.request"
    assert line["level"] == "INFO"
    assert line["route"] == "api/v1/plays/<uuid:play_id>"
    assert line["play_id"] == play["id"]
    assert line["user_id"] == player.pk
    assert line["status"] == 200
    assert line["method"] == "GET"
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] > 0
    assert line["time"]


@override_settings(ROOT_URLCONF="tests.ops.urls")
def test_a_task_queued_by_a_request_logs_the_requests_id(anon, json_lines):
    response = anon.get("/test-ops/queue", HTTP_X_REQUEST_ID="from-the-edge-7")
    assert response.status_code == 200
    assert response.json() == {"task_saw": "from-the-edge-7"}
    task_lines = [entry for entry in json_lines() if entry["logger"] == "tests.ops.task"]
    assert len(task_lines) == 1
    assert task_lines[0]["request_id"] == "from-the-edge-7"
    assert task_lines[0]["task_name"] == "tests.ops.echo_request_id"
    started = [entry for entry in json_lines() if entry["logger"] == "haven.tasks"]
    assert started and all(entry["request_id"] == "from-the-edge-7" for entry in started)


def test_the_request_id_travels_in_the_message_and_a_worker_binds_it(json_lines):
    """Published (not eager): the id is a message header; a worker running the message
    logs with it, and forgets it afterwards."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with Connection("memory://") as connection:
            queue = connection.SimpleQueue("celery")
            tokens = context.bind(request_id="published-9")
            try:
                echo_request_id.apply_async(connection=connection)
            finally:
                context.unbind(tokens)
            message = queue.get(timeout=5)
    finally:
        app.conf.task_always_eager = previous
    assert message.headers[context.TASK_HEADER] == "published-9"
    assert context.get("request_id") is None

    Request(message, app=app, task=echo_request_id).execute()  # as a worker runs it
    task_lines = [entry for entry in json_lines() if entry["logger"] == "tests.ops.task"]
    assert [entry["request_id"] for entry in task_lines] == ["published-9"]
    assert context.get("request_id") is None


def test_text_stays_the_default_and_json_is_a_choice(settings):
    assert settings.LOG_FORMAT == "text"
    assert logging_config("json", "INFO", True)["handlers"]["console"]["formatter"] == "json"
    with pytest.raises(Exception, match="LOG_FORMAT"):
        logging_config("xml", "INFO", True)
