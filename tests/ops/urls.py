"""The service's URLs and one more: a view that queues a task (the request-id tests)."""

from celery import shared_task
from django.http import HttpRequest, JsonResponse
from django.urls import path

from config.observability import context
from config.urls import handler400, handler403, handler404, handler500, urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


@shared_task(name="tests.ops.echo_request_id")
def echo_request_id() -> str | None:
    """Logs a line and returns the request id the task's log lines carry."""
    import logging

    logging.getLogger("tests.ops.task").warning("working for a request")
    return context.get("request_id")


def queue_a_task(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"task_saw": echo_request_id.delay().get()})


urlpatterns = [*urlpatterns, path("test-ops/queue", queue_a_task, name="test-ops-queue")]
