"""A player signs up and plays whole games in Chromium, by clicking, as a person would."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from rest_framework_simplejwt.tokens import AccessToken

from games.models import Play

from .driver import (
    click_move,
    click_moves,
    expect,
    register,
    screen,
    sign_in_form,
    start_practice,
    start_ranked,
)
from .support import DAILY_PRESET, DAILY_SEED, PRACTICE_PRESET, PRACTICE_SEED, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_register_shows_todays_six_dailies(open_browser, daily_deals):
    b = open_browser()
    b.page.goto(b.base + "#/signin")
    expect(b.page.locator("form.auth")).to_be_visible()
    b.shot("signed-out")
    username = register(b)
    cards = b.page.locator(".deal-card")
    expect(cards).to_have_count(6)
    for preset, deal in daily_deals.items():
        card = b.page.locator(f".deal-card[data-preset={preset}]")
        expect(card.locator(".badge")).to_have_text("winnable")
        expect(card.locator(".deal-meta")).to_contain_text(str(deal.par))
        expect(card.locator(".played")).to_have_text("Not played yet")
    expect(b.page.locator("header .account button")).to_have_attribute("title", username)
    b.shot("today")
    assert b.errors == []


def test_practice_deal_won_by_clicking(open_browser, transactional_db):
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser()
    register(b)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    b.shot("practice-start")
    click_moves(b, win.moves[: len(win.moves) // 2])
    b.shot("practice-midway")
    click_moves(b, win.moves[len(win.moves) // 2 :])
    result = b.page.locator(".result.won")
    expect(result).to_be_visible()
    expect(result.locator(".result-title")).to_have_text("You won!")
    expect(result.locator(".score-moves")).to_have_text(str(len(win.moves)))
    expect(result.locator(".rank")).to_have_text("Practice games are not ranked.")
    b.shot("practice-won")
    play = Play.objects.get(pk=play_id)
    assert play.status == "won" and play.seq == len(win.moves)
    assert b.errors == []


def test_ranked_daily_played_to_the_end_on_a_phone_is_on_the_board(open_browser, daily_deals):
    """The issue's "done": today's daily played to the end on a phone-sized window, by
    tapping, then found on the board."""
    win = solved(DAILY_PRESET, DAILY_SEED)
    b = open_browser(width=360, height=740, has_touch=True, is_mobile=True)
    username = register(b)
    start_ranked(b, DAILY_PRESET)
    expect(b.page.locator(".badge.ranked")).to_be_visible()
    click_moves(b, win.moves[:10])
    b.shot("ranked-start")
    click_moves(b, win.moves[10:])
    result = b.page.locator(".result.won")
    expect(result.locator(".rank")).to_have_text("Rank 1 on today's board")
    b.shot("ranked-won")

    box = result.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert b.page.evaluate("document.documentElement.scrollWidth") <= 360

    result.locator("a.btn.primary").tap()  # "See the board"
    row = b.page.locator("table.board tr.me")
    expect(row).to_contain_text(username)
    expect(row.locator("td").first).to_have_text("1")
    expect(row).to_contain_text(str(len(win.moves)))
    b.shot("board")

    b.page.locator("header nav a[data-nav=me]").tap()
    expect(b.page.locator(".stats-grid .stat").first.locator("b")).to_have_text("1")  # streak
    b.shot("profile")

    b.page.locator("header nav a[data-nav=today]").tap()
    card = b.page.locator(f".deal-card[data-preset={DAILY_PRESET}]")
    expect(card.locator(".played")).to_have_text(f"Won in {len(win.moves)} moves")
    assert b.errors == []


def test_reload_mid_game_resumes_the_play(open_browser, transactional_db):
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser()
    username = register(b)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    click_moves(b, win.moves[:6])
    columns_before = b.page.locator(".tableau").inner_text()

    b.page.reload()
    # Tokens live in memory only: the page asks to sign in again, then returns to the play.
    sign_in_form(b, username)
    expect(screen(b)).to_have_attribute("data-seq", "6")
    assert b.page.evaluate("location.hash") == f"#/play/{play_id}"
    assert b.page.locator(".tableau").inner_text() == columns_before
    b.shot("resumed")
    click_move(b, win.moves[6])
    expect(screen(b)).to_have_attribute("data-seq", "7")
    assert b.errors == []


def test_expired_access_token_is_refreshed(open_browser, daily_deals, monkeypatch):
    """The access token runs out mid-session: the client exchanges its refresh token and
    sends the request again, so the player never notices (one play is started, not two)."""
    monkeypatch.setattr(AccessToken, "lifetime", timedelta(seconds=4))
    b = open_browser()
    refreshed: list[int] = []
    b.page.on(
        "response",
        lambda r: refreshed.append(r.status) if r.url.endswith("/auth/token/refresh") else None,
    )
    username = register(b)
    b.page.wait_for_timeout(5_500)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    assert refreshed == [200]
    assert list(Play.objects.filter(player__username=username).values_list("id", flat=True)) == [
        uuid.UUID(play_id)
    ]
    assert all("401" in error for error in b.errors), b.errors
