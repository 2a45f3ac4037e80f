"""Driving the web client like a player: sign up, start plays, click moves."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .support import PASSWORD, Browser

expect = pytest.importorskip("playwright.sync_api").expect
# The machine running the tests may be busy: wait as long as any other browser step.
expect.set_options(timeout=20_000)

_names = itertools.count()


def new_username() -> str:
    return f"tester{next(_names)}"


def register(b: Browser, username: str | None = None) -> str:
    username = username or new_username()
    # The form by name (a first visit without it starts as a guest: test_accounts.py).
    b.page.goto(b.base + "#/signin")
    sign_in_form(b, username, "register")
    try:
        expect(b.page.locator("header .account button")).to_be_visible()
    except AssertionError as error:
        b.shot("register-failed")
        form = b.page.locator("form.auth")
        status = form.locator(".message").all_inner_texts() if form.count() else []
        values = form.locator("input").evaluate_all("els => els.map(e => e.value.length)")
        raise AssertionError(f"not signed in: {status} {values} {b.errors}") from error
    return username


def sign_in_form(b: Browser, username: str, kind: str = "login") -> None:
    page = b.page
    page.locator("form.auth input[name=username]").fill(username)
    page.locator("form.auth input[name=password]").fill(PASSWORD)
    page.locator(f"form.auth button[value={kind}]").click()


def screen(b: Browser):
    return b.page.locator("section.play-screen")


def seq(b: Browser) -> int:
    return int(screen(b).get_attribute("data-seq"))


def start_practice(b: Browser, preset: str, seed: int) -> str:
    page = b.page
    page.evaluate("location.hash = '#/'")
    form = page.locator("form.practice")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("input[name=number]").fill(str(seed))
    form.locator("button[type=submit]").click()
    expect(screen(b)).to_have_attribute("data-seq", "0")
    return page.evaluate("location.hash").rsplit("/", 1)[-1]


def start_ranked(b: Browser, preset: str) -> str:
    page = b.page
    page.evaluate("location.hash = '#/'")
    page.locator(f".deal-card[data-preset={preset}] button.primary").click()
    expect(screen(b)).to_have_attribute("data-seq", "0")
    return page.evaluate("location.hash").rsplit("/", 1)[-1]


def pile(b: Browser, pile_id: str):
    return b.page.locator(f"section.play-screen [data-pile={pile_id}]").first


def click_source(b: Browser, move: dict[str, Any]) -> None:
    src = move["from"]
    if src.startswith("t"):
        cards = pile(b, src).locator(".card[data-index]")
        index = cards.count() - move.get("count", 1)
        # Cards overlap: click the strip of the card that shows above the next one.
        press(b, cards.nth(index))
    else:
        press(b, pile(b, src))


def click_target(b: Browser, move: dict[str, Any]) -> None:
    press(b, pile(b, move["to"]))


def press(b: Browser, locator) -> None:
    """Click (or tap, on a touch screen) the top strip of a card or pile: cards overlap, and
    the strip is the part of a card that shows above the next one."""
    if b.touch:
        locator.tap(position={"x": 8, "y": 6})
    else:
        locator.click(position={"x": 8, "y": 6})


def click_move(b: Browser, move: dict[str, Any]) -> None:
    """Play one API move by tapping: the card (or pile), then the target; or the stock."""
    before = seq(b)
    if move["type"] == "deal":
        press(b, pile(b, "s"))
    else:
        click_source(b, move)
        click_target(b, move)
    expect(screen(b)).not_to_have_attribute("data-seq", str(before))


def click_moves(b: Browser, moves: list[dict[str, Any]]) -> None:
    for move in moves:
        click_move(b, move)
