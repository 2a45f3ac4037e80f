"""Deleting an account and exporting its data (docs/api/accounts.md)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tasks
from accounts.models import AccountName, Device
from config.web.models import IdempotencyKey
from games.models import Play
from leaderboard.models import Group, Membership, Score, Total
from tests.fairplay.helpers import (
    assert_redis_equals_postgres,
    board_names,
    live_refs,
    play_daily,
)

from .helpers import PASSWORD, link, new_guest, signed_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("detector_records")]


def delete_me(client: APIClient, **body: str):
    return client.delete("/api/v1/players/me", body, format="json")


def test_a_guest_deletes_itself_with_its_device_secret(
    today_deals, django_capture_on_commit_callbacks
):
    client, tokens, device = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play_daily(client, "10.0.0.3", deals=1)
    practice = client.post("/api/v1/plays", {"preset": "easthaven", "seed": 1}, format="json")
    stored = client.post(
        f"/api/v1/plays/{practice.json()['id']}/moves",
        {"seq": 0, "move": {"type": "deal"}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert stored.status_code == 200 and IdempotencyKey.objects.exists()
    user_id = Device.objects.get().user_id
    wrong = delete_me(client, device_secret="A" * 43)
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    assert delete_me(client).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        gone = delete_me(client, device_secret=device["device_secret"])
    assert gone.status_code == 204, gone.content
    assert not get_user_model().objects.filter(pk=user_id).exists()
    for model in (Device, AccountName, Play, Score, Total, IdempotencyKey):
        assert not model.objects.exists(), model
    assert client.get("/api/v1/players/me").status_code == 401
    assert (
        APIClient()
        .post("/api/v1/auth/token/refresh", {"refresh": tokens["refresh"]}, format="json")
        .status_code
        == 401
    )


@pytest.mark.redis
def test_deleted_scores_leave_every_board_equal_to_postgres(
    today_deals, django_capture_on_commit_callbacks
):
    stays, _, _ = new_guest()
    leaves, _, device = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play_daily(stays, "10.0.0.4", deals=0)
        play_daily(leaves, "10.0.0.5", deals=2)
    assert len(board_names(APIClient(), "easthaven/daily/today")) == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert delete_me(leaves, device_secret=device["device_secret"]).status_code == 204
    assert Score.objects.count() == 1
    assert_redis_equals_postgres(live_refs())
    assert board_names(APIClient(), "easthaven/daily/today") == [
        Score.objects.get().player.username
    ]


def test_a_linked_account_deletes_with_its_password_and_groups_pass_on():
    owner, _, _ = new_guest()
    owner_tokens = link(owner, "Founder").json()
    owner = signed_in(owner_tokens)
    first, _, _ = new_guest()
    second, _, _ = new_guest()
    group = owner.post("/api/v1/groups", {"name": "Friends"}, format="json").json()
    lonely = owner.post("/api/v1/groups", {"name": "Alone"}, format="json").json()
    for member in (first, second):
        joined = member.post("/api/v1/groups/join", {"code": group["code"]}, format="json")
        assert joined.status_code in {200, 201}, joined.content
    assert delete_me(owner, password="not the password").status_code == 403
    assert delete_me(owner, password=PASSWORD).status_code == 204
    heir = Membership.objects.filter(group_id=group["id"]).order_by("joined_at").first()
    assert Group.objects.get(pk=group["id"]).owner_id == heir.player_id
    assert not Group.objects.filter(pk=lonely["id"]).exists()


def test_the_export_holds_the_account_plays_moves_scores_and_groups(
    today_deals, django_capture_on_commit_callbacks
):
    client, _, device = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play = play_daily(client, "10.0.0.6", deals=2)
    client.post("/api/v1/groups", {"name": "Mine"}, format="json")
    response = client.get("/api/v1/players/me/export")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    body = response.json()
    assert body["account"]["guest"] is True
    assert body["account"]["device"]["device_id"] == device["device_id"]
    assert device["device_secret"] not in json.dumps(body)
    assert "secret_hash" not in json.dumps(body)
    [exported] = body["plays"]
    assert exported["id"] == play["id"]
    assert [move["text"] for move in exported["moves"]][:2] and len(exported["moves"]) == 3
    assert [score["play"] for score in body["leaderboard"]["scores"]] == [play["id"]]
    assert [group["name"] for group in body["leaderboard"]["groups"]] == ["Mine"]
    assert body["leaderboard"]["profile"]["plays"] == 1
    assert APIClient().get("/api/v1/players/me/export").status_code == 401


def test_abandoned_guests_without_plays_are_deleted_after_the_idle_days(
    today_deals, settings, django_capture_on_commit_callbacks
):
    settings.GUEST_IDLE_DAYS = 30
    idle, _, _ = new_guest()
    played, _, _ = new_guest()
    recent, _, _ = new_guest()
    linked, _, _ = new_guest()
    with django_capture_on_commit_callbacks(execute=True):
        play_daily(played, "10.0.0.7", deals=0)
    assert link(linked, "Kept").status_code == 200
    long_ago = timezone.now() - dt.timedelta(days=31)
    devices = list(Device.objects.order_by("pk"))
    for device in (devices[0], devices[1], devices[3]):  # idle, played, linked: all unseen
        Device.objects.filter(pk=device.pk).update(last_seen_at=long_ago)
    assert tasks.delete_abandoned_guests.delay().get() == 1
    assert tasks.delete_abandoned_guests.delay().get() == 0  # idempotent
    left = set(Device.objects.values_list("user__username", flat=True))
    assert len(left) == 3 and "Kept" in left
    assert not Device.objects.filter(pk=devices[0].pk).exists()
