"""Keyboard play, mouse drag, highlighted targets, undo and resign."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Play

from .driver import expect, pile, register, screen, seq, start_practice, start_ranked
from .support import DAILY_PRESET, DAILY_SEED, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CELL_KEYS = "qwer"


def key_for(pile_id: str) -> str:
    if pile_id == "f":
        return "f"
    if pile_id.startswith("c"):
        return CELL_KEYS[int(pile_id[1:])]
    return str((int(pile_id[1:]) + 1) % 10)


def press_move(b, move: dict[str, Any]) -> None:
    before = seq(b)
    b.page.keyboard.press(key_for(move["from"]))
    b.page.keyboard.press(key_for(move["to"]))
    expect(screen(b)).to_have_attribute("data-seq", str(before + 1))


def drag_move(b, move: dict[str, Any]) -> None:
    before = seq(b)
    source = pile(b, move["from"])
    if move["from"].startswith("t"):
        cards = source.locator(".card[data-index]")
        source = cards.nth(cards.count() - move["count"])
    start = source.bounding_box()
    end = pile(b, move["to"]).bounding_box()
    mouse = b.page.mouse
    mouse.move(start["x"] + 8, start["y"] + 6)
    mouse.down()
    mouse.move(start["x"] + 30, start["y"] + 40, steps=4)
    # While dragging, the legal targets light up (from the play's legal_moves).
    expect(b.page.locator(".pile.target").first).to_be_visible()
    mouse.move(end["x"] + end["width"] / 2, end["y"] + 10, steps=6)
    mouse.up()
    expect(screen(b)).to_have_attribute("data-seq", str(before + 1))


def test_keyboard_drag_undo_and_resign(open_browser, transactional_db):
    win = solved(DAILY_PRESET, DAILY_SEED)
    b = open_browser()
    register(b)
    play_id = start_practice(b, DAILY_PRESET, DAILY_SEED)
    moves = win.moves
    for move in moves[:8]:
        press_move(b, move)
    b.shot("keyboard")
    for move in moves[8:12]:
        drag_move(b, move)

    # Tap-selecting shows the legal targets; Escape clears the selection.
    first = moves[12]
    b.page.keyboard.press(key_for(first["from"]))
    targets = b.page.locator(".pile.target")
    expect(targets.first).to_be_visible()
    b.shot("targets")
    b.shot_of("main", "readme")  # docs/img/table.png is this picture
    b.page.keyboard.press("Escape")
    expect(targets).to_have_count(0)

    # Undo (the key, then the button): the move count goes up, the position goes back.
    table = b.page.locator(".tableau").inner_text()
    press_move(b, first)
    b.page.keyboard.press("u")
    expect(screen(b)).to_have_attribute("data-seq", "14")
    assert b.page.locator(".tableau").inner_text() == table
    expect(b.page.locator(".stats .moves")).to_have_text("14")

    b.page.locator(".play-head button", has_text="Resign").click()
    b.page.locator(".play-head button.danger").click()
    expect(b.page.locator(".result .result-title")).to_have_text("Resigned")
    b.shot("resigned")
    assert Play.objects.get(pk=play_id).status == "resigned"
    assert b.errors == []


def test_ranked_undo_rule_is_explained_and_enforced(open_browser, daily_deals):
    b = open_browser()
    register(b)
    start_ranked(b, "westcliff")
    b.page.locator(".play-head button", has_text="Rules").click()
    rule = b.page.locator(".rules-panel .undo-rule")
    expect(rule).to_contain_text("cannot be undone")
    b.page.locator("[data-pile=s]").click()  # a deal: never undone in a ranked play
    expect(screen(b)).to_have_attribute("data-seq", "1")
    b.page.locator(".play-head button", has_text="Undo").click()
    expect(b.page.locator(".message.error")).to_be_visible()
    expect(screen(b)).to_have_attribute("data-seq", "1")
    b.shot("undo-refused")
    assert all("422" in error for error in b.errors), b.errors
