"""Past days: the published deck and par solution, played back move by move in the browser,
position for position the same as the server's engine."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games import engine
from games.daily import utc_today

from .driver import expect
from .support import PAST_DAY_WINS, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
STEPS_CHECKED = 12


def engine_view(preset: str, deck: list[str], moves: list[dict]) -> dict:
    state, index, error = engine.replay(engine.get_rules(preset), engine.parse_deck(deck), moves)
    assert error is None, (index, error)
    return engine.visible(state, with_moves=False)


def page_view(page) -> dict:
    """What the table shows, in the API's shape."""
    return page.evaluate(
        """() => {
        const table = document.querySelector('.replay-board .table');
        const cards = (el) => [...el.querySelectorAll('.card[data-card]')].map(c => c.dataset.card);
        const view = {
          tableau: [...table.querySelectorAll('.tableau [data-pile]')].map(col => ({
            down: col.querySelectorAll('.card.back').length, up: cards(col)})),
          foundations: Object.fromEntries([...table.querySelectorAll('[data-pile=f]')].map(
            f => [f.dataset.suit, cards(f)[0] || null])),
        };
        const cells = [...table.querySelectorAll('[data-pile^=c]')];
        if (cells.length) view.cells = cells.map(c => cards(c)[0] || null);
        const stock = table.querySelector('[data-pile=s] .count');
        view.stock = stock ? Number(stock.textContent) : 0;
        const waste = table.querySelector('[data-pile=w]');
        if (waste) view.waste_top = cards(waste)[0] || null;
        return view;
    }"""
    )


def expected(preset: str, deck: list[str], moves: list[dict]) -> dict:
    view = engine_view(preset, deck, moves)
    if "waste" in view:
        waste = view.pop("waste")
        view["waste_top"] = waste[-1] if waste else None
    return view


def test_past_day_plays_back_like_the_engine(open_browser, daily_deals):
    yesterday = (utc_today() - timedelta(days=1)).isoformat()
    b = open_browser()
    b.page.goto(b.base)  # public: no account needed
    for preset, seed in PAST_DAY_WINS.items():
        win = solved(preset, seed)
        b.page.evaluate(f"location.hash = '#/past/{yesterday}/{preset}'")
        screen = b.page.locator("section.past")
        expect(screen).to_have_attribute("data-at", "0")
        expect(b.page.locator(".replay-caption")).to_contain_text(str(len(win.moves)))
        assert page_view(b.page) == expected(preset, win.deck, [])
        forward = b.page.locator(".replay-controls button").nth(3)
        for k in range(1, STEPS_CHECKED + 1):
            forward.click()
            expect(screen).to_have_attribute("data-at", str(k))
            assert page_view(b.page) == expected(preset, win.deck, win.moves[:k]), k
        b.shot(f"{preset}-step-{STEPS_CHECKED}")
        b.page.locator(".replay-controls button").nth(4).click()  # to the end
        expect(screen).to_have_attribute("data-at", str(len(win.moves)))
        final = page_view(b.page)
        assert final == expected(preset, win.deck, win.moves)
        assert final["foundations"] == {"S": "KS", "H": "KH", "D": "KD", "C": "KC"}
    # Autoplay walks forward on its own.
    b.page.locator(".replay-controls button").first.click()
    b.page.locator(".replay-controls button.primary").click()
    # An attribute check, not wait_for_function: the page's CSP forbids the eval it uses.
    expect(b.page.locator("section.past")).to_have_attribute(
        "data-at", re.compile(r"^([2-9]|[1-9][0-9]+)$"), timeout=10_000
    )
    b.shot("autoplay")
    assert b.errors == []
