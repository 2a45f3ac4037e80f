"""The budgets: first load under 200 KB transferred, no console errors, usable at 360 px."""

from __future__ import annotations

import pytest

from .driver import click_moves, expect, register, start_practice
from .support import PRACTICE_PRESET, PRACTICE_SEED, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST_LOAD_BUDGET = 200 * 1024


def test_first_load_under_200_kb_without_console_errors(open_browser, daily_deals):
    b = open_browser()
    sizes: list[tuple[str, int]] = []

    def finished(request) -> None:
        size = request.sizes()
        sizes.append((request.url, size["responseBodySize"] + size["responseHeadersSize"]))

    b.page.on("requestfinished", finished)
    b.page.goto(b.base)
    expect(b.page.locator(".deal-card")).to_have_count(6)
    b.page.wait_for_load_state("networkidle")
    total = sum(size for _, size in sizes)
    # The browser's own count agrees (same origin, so transferSize is reported).
    reported = b.page.evaluate(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType("
        "'resource')).reduce((sum, e) => sum + e.transferSize, 0)"
    )
    print(f"first load: {len(sizes)} requests, {total} bytes (browser: {reported})")  # noqa: T201
    assert any(url.endswith("/app/main.js") for url, _ in sizes)
    assert any("/api/v1/daily/today" in url for url, _ in sizes)
    assert 0 < total < FIRST_LOAD_BUDGET, sizes
    assert reported < FIRST_LOAD_BUDGET
    assert b.errors == []


def test_phone_sized_window_fits_ten_columns(open_browser, daily_deals):
    """At 360 px the ten columns of Westcliff fit without sideways scrolling, cards stay big
    enough to read and tap, and moves are made by tapping (a whole game on a phone:
    test_play.py's ranked daily)."""
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser(width=360, height=740, has_touch=True, is_mobile=True)
    register(b)
    b.shot("today-360")
    start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    page = b.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    columns = page.locator(".tableau [data-pile]")
    expect(columns).to_have_count(10)
    for i in range(10):
        box = columns.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (i, box)
        assert box["width"] >= 28, box
    corner = page.locator(".tableau .card[data-index] .corner").first
    assert float(corner.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    for button in page.locator(".play-head button").all():
        box = button.bounding_box()
        assert box["x"] + box["width"] <= 360 and box["height"] >= 28, box
    click_moves(b, win.moves[:12])
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    b.shot("table-360")
    assert b.errors == []
