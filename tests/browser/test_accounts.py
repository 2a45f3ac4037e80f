"""The account's life in the web client: a first visit plays as a guest with no form, "keep
my progress" links it to a name, signing out revokes the session, and deletion removes the
account (a guest confirms with the device's secret, a named player with the password)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Play

from .driver import click_move, expect, new_username, register, screen, start_practice
from .support import PASSWORD, PRACTICE_PRESET, PRACTICE_SEED, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def responses(b, path: str) -> list[int]:
    """The statuses of the answers to ``path`` (a suffix of the URL), as they come."""
    seen: list[int] = []
    b.page.on("response", lambda r: seen.append(r.status) if r.url.endswith(path) else None)
    return seen


def account_button(b):
    return b.page.locator("header .account button")


def play_as_guest(b) -> str:
    """Open the client as a first-time visitor, play one practice move; the guest's name."""
    b.page.goto(b.base)
    expect(b.page.locator("header a.keep-progress")).to_be_visible()
    expect(b.page.locator("form.auth")).to_have_count(0)  # no form before the first card
    name = account_button(b).get_attribute("title")
    assert name.startswith("Guest-"), name
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    click_move(b, solved(PRACTICE_PRESET, PRACTICE_SEED).moves[0])
    expect(screen(b)).to_have_attribute("data-seq", "1")
    assert Play.objects.get(pk=play_id).player.username == name
    return name


def accept_dialogs(b) -> list[str]:
    asked: list[str] = []

    def accept(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    b.page.on("dialog", accept)
    return asked


def test_a_first_visit_plays_as_a_guest_and_a_reload_keeps_the_account(open_browser, daily_deals):
    b = open_browser()
    guests = responses(b, "/api/v1/auth/guest")
    name = play_as_guest(b)
    b.shot("guest-playing")
    device = b.page.evaluate("JSON.parse(localStorage.getItem('haven.device'))")
    assert len(device["secret"]) == 43 and device["id"] == device["id"].lower()
    b.page.reload()  # the device signs the same guest in again, straight back into the play
    expect(screen(b)).to_have_attribute("data-seq", "1")
    expect(account_button(b)).to_have_attribute("title", name)
    assert guests == [201, 200]
    assert get_user_model().objects.filter(username__startswith="Guest-").count() == 1
    assert b.errors == []


def test_keep_my_progress_links_the_guest_with_its_plays(open_browser, daily_deals):
    b = open_browser()
    guest = play_as_guest(b)
    b.page.locator("header a.keep-progress").click()
    form = b.page.locator("form.link")
    username = new_username()
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(b.page.locator(".message.info")).to_contain_text(username)
    expect(account_button(b)).to_have_attribute("title", username)
    expect(b.page.locator("header a.keep-progress")).to_have_count(0)
    b.shot("linked")
    user = get_user_model().objects.get(username=username)
    assert not get_user_model().objects.filter(username=guest).exists()
    assert Play.objects.filter(player=user).count() == 1  # the guest's play is kept
    b.page.reload()  # this device still signs the (now named) account in, no form
    expect(account_button(b)).to_have_attribute("title", username)
    expect(b.page.locator("form.auth")).to_have_count(0)
    assert b.errors == []


def test_sign_out_revokes_the_session_and_offers_a_new_guest(open_browser, daily_deals):
    b = open_browser()
    asked = accept_dialogs(b)
    logouts = responses(b, "/api/v1/auth/logout")
    first = play_as_guest(b)
    account_button(b).click()
    expect(b.page.locator("form.auth")).to_be_visible()
    assert logouts == [204]
    assert len(asked) == 1  # a guest is warned that its games stay behind
    b.page.reload()  # signed out stays signed out
    expect(b.page.locator("form.auth")).to_be_visible()
    assert b.page.evaluate("localStorage.getItem('haven.device')") is None
    b.page.locator("form.auth button[data-action=guest]").click()
    expect(b.page.locator("header a.keep-progress")).to_be_visible()
    assert account_button(b).get_attribute("title") != first
    assert b.errors == []


def test_a_guest_deletes_its_account_with_the_device_secret(open_browser, daily_deals):
    b = open_browser()
    asked = accept_dialogs(b)
    deletions = responses(b, "/api/v1/players/me")
    name = play_as_guest(b)
    b.page.locator("header nav a[data-nav=me]").click()
    panel = b.page.locator("form.delete-account")
    expect(panel.locator("input[name=password]")).to_have_count(0)
    panel.locator("button[type=submit]").click()
    expect(b.page.locator(".message.info")).to_have_text("Your account was deleted.")
    expect(b.page.locator("form.auth")).to_be_visible()
    b.shot("guest-deleted")
    assert 204 in deletions and len(asked) == 1
    assert not get_user_model().objects.filter(username=name).exists()


def test_a_named_player_deletes_the_account_with_the_password(open_browser, daily_deals):
    b = open_browser()
    accept_dialogs(b)
    username = register(b)
    b.page.locator("header nav a[data-nav=me]").click()
    panel = b.page.locator("form.delete-account")
    panel.locator("input[name=password]").fill("not the password")
    panel.locator("button[type=submit]").click()
    expect(panel.locator(".message.error")).to_be_visible()
    assert get_user_model().objects.filter(username=username).exists()
    panel.locator("input[name=password]").fill(PASSWORD)
    panel.locator("button[type=submit]").click()
    expect(b.page.locator(".message.info")).to_have_text("Your account was deleted.")
    assert not get_user_model().objects.filter(username=username).exists()
