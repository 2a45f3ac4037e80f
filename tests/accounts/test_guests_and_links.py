"""Guests, linking, sign-out and password change over HTTP (docs/api/accounts.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts import names
from accounts.models import Device
from tests.fairplay.helpers import (
    assert_redis_equals_postgres,
    board_names,
    live_refs,
    play_daily,
)

from .helpers import PASSWORD, guest, link, new_device, new_guest, refresh, signed_in

pytestmark = pytest.mark.django_db


def test_a_device_becomes_a_guest_then_signs_in_again():
    device = new_device()
    first = guest(APIClient(), device)
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["guest"] is True and body["token_type"] == "Bearer"
    assert body["username"].startswith("Guest-") and len(body["username"]) == 12
    again = guest(APIClient(), device)
    assert again.status_code == 200
    assert again.json()["username"] == body["username"]
    assert again.json()["refresh"] != body["refresh"]
    stored = Device.objects.get(device_id=device["device_id"])
    assert device["device_secret"] not in stored.secret_hash
    me = signed_in(again.json()).get("/api/v1/players/me")
    assert me.status_code == 200 and me.json()["username"] == body["username"]


@pytest.mark.parametrize(
    "change",
    [
        {"device_id": "not-a-uuid"},
        {"device_id": "6F9619FF-8B86-D011-B42D-00C04FC964FF"},  # upper case: not canonical
        {"device_id": "6f9619ff8b86d011b42d00c04fc964ff"},  # no hyphens
        {"device_secret": "short"},
        {"device_secret": "A" * 44},
        {"device_secret": "A" * 42 + "B"},  # 43 characters, but not 32 bytes' worth
        {"device_secret": "A" * 42 + "+"},  # base64, not base64url
        {"device_secret": 12},
        {"device_id": None},
    ],
)
def test_bad_device_formats_are_400(change):
    response = guest(APIClient(), {**new_device(), **change})
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "validation_error"
    assert not Device.objects.exists()


def test_a_wrong_secret_is_401_and_signs_nobody_in():
    device = new_device()
    guest(APIClient(), device)
    forged = {**device, "device_secret": new_device()["device_secret"]}
    response = guest(APIClient(), forged)
    assert response.status_code == 401
    assert response.json()["code"] == "device_secret_mismatch"
    assert "access" not in response.json()


def test_guests_get_distinct_names_that_pass_the_name_rules():
    usernames = {new_guest()[1]["username"] for _ in range(5)}
    assert len(usernames) == 5
    for name in usernames:
        assert not names.refuse_mixed_scripts(name)


@pytest.mark.redis
def test_linking_keeps_the_plays_and_scores(today_deals, django_capture_on_commit_callbacks):
    client, tokens, device = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play = play_daily(client, "10.0.0.1", deals=1)
    with django_capture_on_commit_callbacks(execute=True):
        answer = link(client, "Keeper")
    assert answer.status_code == 200, answer.content
    # The boards show the new name (Redis keeps names beside entries: rebuilt on the link).
    assert board_names(APIClient(), "easthaven/daily/today") == ["Keeper"]
    assert_redis_equals_postgres(live_refs())
    linked = answer.json()
    assert linked["username"] == "Keeper" and linked["guest"] is False
    user = get_user_model().objects.get(username="Keeper")
    assert str(user.plays.get().pk) == play["id"]
    assert user.scores.count() == 1
    # The new name signs in with the password; the device still signs into the account.
    login = APIClient().post(
        "/api/v1/auth/token", {"username": "KEEPER", "password": PASSWORD}, format="json"
    )
    assert login.status_code == 200
    again = guest(APIClient(), device)
    assert again.status_code == 200 and again.json()["username"] == "Keeper"
    assert again.json()["guest"] is False
    # The guest's refresh token was revoked by the link.
    assert refresh(tokens["refresh"]).status_code == 401
    profile = APIClient().get("/api/v1/players/Keeper")
    assert profile.status_code == 200 and profile.json()["plays"] == 1


def test_linking_refuses_taken_names_and_linked_accounts(player):
    client, _, _ = new_guest()
    taken = link(client, player.username.upper())
    assert taken.status_code == 409 and taken.json()["code"] == "username_taken"
    mixed = link(client, "Kаte")  # Cyrillic а
    assert mixed.status_code == 409 and mixed.json()["reason"] == "mixed_scripts"
    weak = link(client, "Fresh", password="123")
    assert weak.status_code == 400
    done = link(client, "Fresh")
    assert done.status_code == 200
    again = link(signed_in(done.json()), "Fresher")
    assert again.status_code == 409 and again.json()["code"] == "already_linked"


def test_a_registered_account_cannot_link(client):
    response = link(client, "Other")
    assert response.status_code == 409 and response.json()["code"] == "already_linked"


def test_a_linked_device_with_another_secret_is_device_taken():
    client, _, device = new_guest()
    assert link(client, "Owner").status_code == 200
    forged = {**device, "device_secret": new_device()["device_secret"]}
    response = guest(APIClient(), forged)
    assert response.status_code == 409 and response.json()["code"] == "device_taken"


def test_logout_revokes_the_refresh_token_and_a_replay_is_401():
    _, tokens, _ = new_guest()
    logout = APIClient().post("/api/v1/auth/logout", {"refresh": tokens["refresh"]}, format="json")
    assert logout.status_code == 204
    assert refresh(tokens["refresh"]).status_code == 401
    replay = APIClient().post("/api/v1/auth/logout", {"refresh": tokens["refresh"]}, format="json")
    assert replay.status_code == 401 and replay.json()["code"] == "token_not_valid"
    garbage = APIClient().post("/api/v1/auth/logout", {"refresh": "x.y.z"}, format="json")
    assert garbage.status_code == 401


def test_a_password_change_needs_the_old_one_and_revokes_every_refresh_token():
    client, _, _ = new_guest()
    tokens = link(client, "Changer").json()
    other_device = (
        APIClient()
        .post("/api/v1/auth/token", {"username": "Changer", "password": PASSWORD}, format="json")
        .json()
    )
    me = signed_in(tokens)
    wrong = me.post(
        "/api/v1/auth/password",
        {"old_password": "not it at all", "new_password": "another long phrase"},
        format="json",
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    changed = me.post(
        "/api/v1/auth/password",
        {"old_password": PASSWORD, "new_password": "another long phrase"},
        format="json",
    )
    assert changed.status_code == 200, changed.content
    assert refresh(tokens["refresh"]).status_code == 401
    assert refresh(other_device["refresh"]).status_code == 401
    assert refresh(changed.json()["refresh"]).status_code == 200
    # The old access token is refused where the user is loaded; the new one works.
    assert signed_in(other_device).get("/api/v1/players/me").status_code == 401
    assert signed_in(changed.json()).get("/api/v1/players/me").status_code == 200


def test_a_guest_has_no_password_to_change():
    client, _, _ = new_guest()
    response = client.post(
        "/api/v1/auth/password",
        {"old_password": "anything at all", "new_password": "another long phrase"},
        format="json",
    )
    assert response.status_code == 409 and response.json()["code"] == "guest_account"


def test_guests_play_ranked_under_the_account_age_policy(
    today_deals, settings, django_capture_on_commit_callbacks, detector_records
):
    """A new guest is a new account: with a minimum age, its ranked play is flagged for
    review by fair play's account-age rule (docs/fair-play.md), like any young account."""
    from fairplay.models import Finding

    settings.FAIRPLAY_ANALYSE = True  # this test is about fair play
    settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = 24
    client, _, _ = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play = play_daily(client, "10.0.0.2", deals=0)
    assert play["status"] in {"lost", "resigned"}
    finding = Finding.objects.get(play_id=play["id"], detector="account_age")
    assert finding.flagged


def test_a_refresh_token_the_blacklist_never_saw_dies_with_the_password(player):
    """Tokens issued before the blacklist app was installed have no outstanding row to
    revoke; the password stamp they carry refuses them after a change all the same."""
    from rest_framework_simplejwt.token_blacklist.models import OutstandingToken
    from rest_framework_simplejwt.tokens import RefreshToken

    token = RefreshToken.for_user(player)
    OutstandingToken.objects.all().delete()
    assert refresh(str(token)).status_code == 200
    player.set_password("another long phrase")
    player.save()
    answer = refresh(str(token))
    assert answer.status_code == 401 and answer.json()["code"] == "token_not_valid"
