"""Swagger UI and ReDoc still work under their Content-Security-Policy (config/web/security.py):
both render the schema in Chromium and the browser reports no violation or other error
(but one: ReDoc's credit logo from its CDN, which the policy is right to block)."""

from __future__ import annotations

import pytest

from .driver import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("path", "rendered"),
    [
        ("/api/v1/docs/", ".swagger-ui .opblock-tag"),  # the operations, grouped by tag
        ("/api/v1/redoc/", "[data-section-id]"),  # ReDoc's sections, one per operation
    ],
)
def test_the_api_docs_render_under_their_csp(open_browser, path, rendered):
    b = open_browser()
    origin = b.base.removesuffix("/play/")
    response = b.page.goto(origin + path)
    assert response is not None and response.status == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(b.page.locator(rendered).first).to_be_visible()
    b.page.wait_for_load_state("networkidle")
    b.shot("docs")
    # ReDoc's sidebar credit loads its logo from cdn.redoc.ly: the policy blocks it (the docs
    # make no request to a third party), which the browser reports; nothing else may be.
    blocked_credit = [e for e in b.errors if "cdn.redoc.ly" in e and "Content Security" in e]
    assert [e for e in b.errors if e not in blocked_credit] == []
