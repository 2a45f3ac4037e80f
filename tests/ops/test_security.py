"""Production safety: security headers on every answer, a CSP on the pages a browser renders,
and `manage.py check --deploy` clean with the documented production settings."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from config.web.security import page_policy

ROOT = Path(__file__).resolve().parents[2]
COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

pytestmark = pytest.mark.django_db


def assert_common_headers(response) -> None:
    for name, expected in COMMON.items():
        assert response.get(name) == expected, (name, response.status_code, response.get(name))


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/v1/presets", 200),
        ("get", "/api/v1/health", 200),
        ("get", "/api/v1/plays", 401),
        ("get", "/api/v1/no-such-thing", 404),
        ("get", "/api/v1/presets?x=%01", 400),  # refused by a middleware above Django's
        ("post", "/api/v1/auth/token", 400),
    ],
)
def test_every_api_answer_has_the_headers_and_a_closed_csp(anon, method, path, status):
    response = getattr(anon, method)(path)
    assert response.status_code == status
    assert_common_headers(response)
    assert response["Content-Security-Policy"] == API_POLICY


@override_settings(CORS_ALLOWED_ORIGINS=["https://app.example"])
def test_a_cors_preflight_has_them_too(anon):
    response = anon.options(
        "/api/v1/plays",
        HTTP_ORIGIN="https://app.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )
    assert response.status_code == 200
    assert_common_headers(response)
    assert "x-request-id" in response["Access-Control-Allow-Headers"]


@pytest.mark.parametrize("path", ["/play/", "/api/v1/docs/", "/api/v1/redoc/"])
def test_the_pages_get_the_page_policy(anon, path):
    response = anon.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert_common_headers(response)
    policy = response["Content-Security-Policy"]
    assert policy == page_policy()
    assert "script-src 'self';" in policy  # no inline script anywhere
    assert "frame-ancestors 'none'" in policy


def test_the_docs_pages_run_no_inline_script(anon):
    """Their script comes from this origin (the sidecar's bundles, the split view's init
    script), which the policy's script-src 'self' allows; an inline one would be blocked."""
    for path in ("/api/v1/docs/", "/api/v1/redoc/"):
        html = anon.get(path).content.decode()
        scripts = html.count("<script")
        assert scripts >= 1
        assert html.count("<script src=") == scripts, path
        assert "https://" not in html.split("<body")[0], path  # no font or CDN in the head
    script = anon.get("/api/v1/docs/?script=")
    assert script.status_code == 200
    assert "javascript" in script["Content-Type"]


def test_the_web_client_may_call_another_api_origin_when_configured(settings):
    settings.CSP_CONNECT_SRC = ["https://api.haven.example"]
    assert "connect-src 'self' https://api.haven.example;" in page_policy()


def test_the_admin_gets_no_page_policy(anon):
    response = anon.get("/admin/login/")
    assert response.status_code == 200
    assert "Content-Security-Policy" not in response
    assert_common_headers(response)


def production_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST", "DJANGO", "HAVEN"))
    }
    env.update(
        DEBUG="0",
        HTTPS_ONLY="1",
        ALLOWED_HOSTS="haven.example",
        SECRET_KEY=secrets.token_urlsafe(50),
        DAILY_SECRET=secrets.token_urlsafe(32),
        **extra,
    )
    return env


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_names_what_is_missing_without_them():
    env = production_env()
    del env["HTTPS_ONLY"]
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr + result.stdout


def test_https_only_redirects_but_not_the_probes(settings, anon):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    redirected = anon.get("/api/v1/presets")
    assert redirected.status_code == 301
    assert redirected["Location"].startswith("https://")
    assert anon.get("/api/v1/health").status_code == 200  # a load balancer's plain probe
    secure = anon.get("/api/v1/presets", secure=True)
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"].startswith("max-age=31536000")


def test_a_proxy_that_terminates_tls_is_believed_only_when_configured(settings, anon):
    settings.SECURE_SSL_REDIRECT = True
    assert anon.get("/api/v1/presets", HTTP_X_FORWARDED_PROTO="https").status_code == 301
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert anon.get("/api/v1/presets", HTTP_X_FORWARDED_PROTO="https").status_code == 200
