"""The metrics a request, a move, a play, a throttle, the breaker, a task and a daily deal
leave behind, read from the process's registry and scraped through /metrics."""

from __future__ import annotations

import datetime as dt
import urllib.request

import pytest
from celery import shared_task
from celery.exceptions import Retry
from prometheus_client import REGISTRY
from rest_framework.test import APIClient

from config import redis_guard
from config.observability import metrics
from games import engine
from games.daily import utc_today
from games.daily.selectors import days_ahead_ready
from games.signals import deal_prepared
from tests.api.helpers import assert_problem, move, start, win_seahaven
from tests.factories import HIGH_RATES, seahaven_win_deck, store_daily

from .conftest import TOKEN

pytestmark = pytest.mark.django_db


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(token: str = TOKEN) -> str:
    response = APIClient().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


# --- Never public by default ------------------------------------------------------------------


def test_metrics_are_not_served_unless_enabled(settings, anon):
    settings.METRICS_ENABLED = False
    settings.METRICS_TOKEN = TOKEN
    assert_problem(anon.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}"), 404, "not_found")


def test_metrics_need_a_token_on_the_service_port(settings, anon):
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = ""  # enabled for the separate port only
    assert_problem(anon.get("/metrics"), 404, "not_found")


@pytest.mark.parametrize("header", ["", "Bearer wrong", f"Basic {TOKEN}", "Bearer", "Bearer ü"])
def test_a_wrong_or_missing_token_is_401(metrics_on, anon, header):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = anon.get("/metrics", **extra)
    assert_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_disabled_metrics_record_nothing(settings, anon):
    settings.METRICS_ENABLED = False
    before = value("haven_http_requests_total", route="api/v1/presets", method="GET", status="200")
    assert anon.get("/api/v1/presets").status_code == 200
    after = value("haven_http_requests_total", route="api/v1/presets", method="GET", status="200")
    assert after == before


# --- Requests ---------------------------------------------------------------------------------


def test_requests_are_counted_by_route_pattern_not_path(metrics_on, client):
    route = "api/v1/plays/<uuid:play_id>"
    labels = {"route": route, "method": "GET", "status": "200"}
    before = value("haven_http_requests_total", **labels)
    ids = [start(client, preset="seahaven", seed=seed).json()["id"] for seed in (1, 2)]
    for play_id in ids:
        assert client.get(f"/api/v1/plays/{play_id}").status_code == 200
    assert value("haven_http_requests_total", **labels) == before + 2
    text = scrape()
    assert f'route="{route}"' in text
    assert not any(play_id in text for play_id in ids)  # no raw path, no id in a label
    count = value(
        "haven_http_request_duration_seconds_count", route=route, method="GET", status_class="2xx"
    )
    assert count >= 2


def test_an_unknown_path_and_an_odd_method_keep_labels_bounded(metrics_on, anon):
    before = value("haven_http_requests_total", route="<unmatched>", method="other", status="404")
    anon.generic("BREW", "/no/such/thing/123")
    after = value("haven_http_requests_total", route="<unmatched>", method="other", status="404")
    assert after == before + 1


# --- Plays and moves --------------------------------------------------------------------------


def test_moves_plays_and_refusals_are_counted(
    metrics_on, client, django_capture_on_commit_callbacks
):
    started = value("haven_plays_started_total", preset="seahaven", kind="practice")
    applied = value("haven_moves_applied_total", preset="seahaven")
    won = value("haven_plays_finished_total", preset="seahaven", outcome="won")
    stale = value("haven_moves_refused_total", code="stale_sequence", rule="")

    play = start(client, preset="seahaven", deck=seahaven_win_deck()).json()
    assert_problem(move(client, play, {"type": "deal"}, seq=5), 409, "stale_sequence")
    with django_capture_on_commit_callbacks(execute=True):  # play_finished: after commit
        responses = list(win_seahaven(client, play))

    assert value("haven_plays_started_total", preset="seahaven", kind="practice") == started + 1
    assert value("haven_moves_applied_total", preset="seahaven") == applied + len(responses)
    assert value("haven_plays_finished_total", preset="seahaven", outcome="won") == won + 1
    assert value("haven_moves_refused_total", code="stale_sequence", rule="") == stale + 1


def test_an_illegal_move_is_counted_with_its_rule(metrics_on, client):
    play = start(client, preset="easthaven", seed=42).json()
    tops = [f"t{i}" for i in range(len(play["tableau"]))]
    legal = {(m.get("from"), m.get("to")) for m in play["legal_moves"]}
    src, dst = next((a, b) for a in tops for b in tops if a != b and (a, b) not in legal)
    problem = assert_problem(
        move(client, play, {"type": "move", "from": src, "to": dst}), 422, "illegal_move"
    )
    assert value("haven_moves_refused_total", code="illegal_move", rule=problem["rule"]) >= 1
    assert f'rule="{problem["rule"]}"' in scrape()


# --- Throttles, the breaker, the database -------------------------------------------------------


def test_throttled_requests_are_counted_by_scope(metrics_on, settings, anon):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**HIGH_RATES, "auth": "1/min"},
    }
    before = value("haven_throttled_requests_total", scope="auth")
    body = {"username": "nobody", "password": "wrong-password"}
    statuses = [anon.post("/api/v1/auth/token", body, format="json").status_code for _ in range(3)]
    assert statuses.count(429) == 2
    assert value("haven_throttled_requests_total", scope="auth") == before + 2


def test_the_breaker_state_is_a_gauge(metrics_on):
    breaker = redis_guard.Breaker(lambda: 60.0)
    opened = value("haven_redis_breaker_openings_total")
    breaker.failure(ConnectionError("refused"))
    assert value("haven_redis_breaker_open") == 1
    assert value("haven_redis_breaker_openings_total") == opened + 1
    breaker.failure(ConnectionError("refused again"))  # still the same outage
    assert value("haven_redis_breaker_openings_total") == opened + 1
    breaker.success()
    assert value("haven_redis_breaker_open") == 0


def test_database_connections_are_reported(metrics_on, client):
    assert client.get("/api/v1/plays").status_code == 200
    assert value("haven_db_connections_open", alias="default") >= 1


# --- Celery tasks -------------------------------------------------------------------------------


@shared_task(name="tests.ops.flaky", bind=True, max_retries=1)
def flaky(self, fail: str) -> str:
    if fail == "retry" and self.request.retries == 0:
        raise self.retry(countdown=0)
    if fail == "raise":
        raise ValueError("refused on purpose")
    return "ok"


def test_eager_tasks_are_counted(metrics_on):
    name = "tests.ops.flaky"
    sent = value("haven_celery_tasks_sent_total", task=name)
    ok = value("haven_celery_tasks_finished_total", task=name, state="SUCCESS")
    failed = value("haven_celery_tasks_failed_total", task=name)
    retried = value("haven_celery_tasks_retried_total", task=name)

    assert flaky.delay("no").get() == "ok"
    with pytest.raises(ValueError):
        flaky.delay("raise")
    with pytest.raises(Retry):  # eagerly, a retry reaches the caller
        flaky.delay("retry")

    assert value("haven_celery_tasks_sent_total", task=name) >= sent + 3
    assert value("haven_celery_tasks_finished_total", task=name, state="SUCCESS") == ok + 1
    assert value("haven_celery_tasks_finished_total", task=name, state="FAILURE") >= 1
    assert value("haven_celery_tasks_finished_total", task=name, state="RETRY") >= 1
    assert value("haven_celery_tasks_failed_total", task=name) == failed + 1
    assert value("haven_celery_tasks_retried_total", task=name) == retried + 1
    assert value("haven_celery_tasks_running", task=name) == 0


def test_a_celery_worker_serves_its_metrics_on_its_own_port(metrics_on, settings):
    from config.observability.tasks import on_worker_init

    from .test_gunicorn_metrics import free_ports

    settings.CELERY_METRICS_PORT = free_ports(1)[0]
    metrics.record_fairplay_flag("worker_port")
    server = on_worker_init()
    try:
        url = f"http://127.0.0.1:{settings.CELERY_METRICS_PORT}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    assert 'haven_fairplay_flags_total{detector="worker_port"}' in text


def test_no_worker_port_unless_enabled(settings):
    from config.observability.tasks import on_worker_init

    settings.METRICS_ENABLED = False
    settings.CELERY_METRICS_PORT = 18999
    assert on_worker_init() is None


# --- Daily deals and fair play ------------------------------------------------------------------


def test_days_ahead_counts_complete_days_without_a_gap():
    today = utc_today()
    assert days_ahead_ready(today) == -1
    store_daily(today)
    assert days_ahead_ready(today) == 0
    store_daily(today + dt.timedelta(days=1), seed_base=2000)
    store_daily(today + dt.timedelta(days=3), seed_base=3000)  # day 2 missing: a gap
    assert days_ahead_ready(today) == 1


def test_a_prepared_deal_records_time_rejections_and_days_ahead(metrics_on):
    deals = store_daily(utc_today())
    deal = deals[next(iter(engine.PRESETS))]
    deal.attempts = [{"seed": 1}, {"seed": 2}]
    rejected = value("haven_daily_candidates_rejected_total", preset=deal.preset)
    prepared = value(
        "haven_daily_deals_prepared_total", preset=deal.preset, verdict=str(deal.verdict)
    )
    deal_prepared.send(sender=type(deal), deal=deal, seconds=3.5)
    assert value("haven_daily_candidates_rejected_total", preset=deal.preset) == rejected + 2
    assert (
        value("haven_daily_deals_prepared_total", preset=deal.preset, verdict=str(deal.verdict))
        == prepared + 1
    )
    assert value("haven_daily_prepare_seconds_count", preset=deal.preset) >= 1
    assert value("haven_daily_days_ahead") == 0


def test_fairplay_flags_have_a_helper(metrics_on):
    before = value("haven_fairplay_flags_total", detector="too_fast")
    metrics.record_fairplay_flag("too_fast")
    assert value("haven_fairplay_flags_total", detector="too_fast") == before + 1
    assert 'haven_fairplay_flags_total{detector="too_fast"}' in scrape()
