"""Reviewers' decisions in the Django admin: clear restores a flagged play on every board,
confirm keeps it hidden, ban refuses ranked starts and hides every ranked play; each
decision is logged with its reviewer, and the Redis boards equal PostgreSQL after each."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fairplay.models import Action, RankedBan, Review, ReviewDecision, ReviewStatus
from leaderboard.models import Score, Total
from tests.factories import client_for, make_user

from .helpers import assert_redis_equals_postgres, board_names, live_refs, play_daily

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]
BOARDS = ("easthaven/daily/today", "easthaven/weekly/current", "easthaven/all-time")


@pytest.fixture
def flagged(today_deals, detector_records):
    """An honest play, a scout and the flagged play of ``main`` on today's boards."""
    anon = APIClient()
    play_daily(client_for(make_user("honest")), "203.0.113.20", deals=1)
    for path in BOARDS:
        board_names(anon, path)  # Redis builds the boards
    play_daily(client_for(make_user("scout")), "198.51.100.7", deals=3)
    main = make_user("main")
    cheat = play_daily(client_for(main), "198.51.100.7", deals=3)
    review = Review.objects.get(play_id=cheat["id"])
    assert review.status == ReviewStatus.PENDING
    return main, review


@pytest.fixture
def reviewer():
    staff = make_user("reviewer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return staff, client


def _act(client: Client, action: str, url: str, pk) -> None:
    response = client.post(url, {"action": action, "_selected_action": [str(pk)]})
    assert response.status_code == 302, response.content


def _on_public_boards(name: str) -> list[bool]:
    return [name in board_names(APIClient(), path) for path in BOARDS]


def test_clear_restores_the_play_on_every_board(flagged, reviewer):
    main, review = flagged
    staff, client = reviewer
    assert _on_public_boards("main") == [False, False, False]
    page = client.get(f"/admin/fairplay/review/{review.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "seen first by a linked account" in text and "deal" in text  # reasons, replay

    _act(client, "clear_selected", "/admin/fairplay/review/", review.pk)
    review.refresh_from_db()
    assert review.status == ReviewStatus.CLEARED
    assert not Score.objects.get(play_id=review.play_id).hidden
    assert _on_public_boards("main") == [True, True, True]
    # This week's and all time, public; the shadow rows went with the last hidden score.
    assert list(Total.objects.filter(player=main).values_list("shadow", flat=True)) == [
        False,
        False,
    ]
    assert APIClient().get("/api/v1/players/main").json()["plays"] == 1
    decision = ReviewDecision.objects.get()
    assert (decision.action, decision.decided_by, decision.decided_by_name) == (
        Action.CLEAR,
        staff,
        "reviewer",
    )
    assert decision.play_id == review.play_id
    assert_redis_equals_postgres(live_refs())


def test_confirm_keeps_the_play_hidden(flagged, reviewer):
    main, review = flagged
    staff, client = reviewer
    _act(client, "confirm_selected", "/admin/fairplay/review/", review.pk)
    review.refresh_from_db()
    assert review.status == ReviewStatus.CONFIRMED and review.decided_at is not None
    assert Score.objects.get(play_id=review.play_id).hidden
    assert _on_public_boards("main") == [False, False, False]
    assert ReviewDecision.objects.get().action == Action.CONFIRM
    assert_redis_equals_postgres(live_refs())
    # A rerun of the analysis (a redelivered task) changes nothing a reviewer decided.
    from fairplay import services

    services.analyse(review.play_id)
    review.refresh_from_db()
    assert review.status == ReviewStatus.CONFIRMED


def test_a_cleared_play_is_not_hidden_again_by_a_rerun(flagged, reviewer):
    main, review = flagged
    _act(reviewer[1], "clear_selected", "/admin/fairplay/review/", review.pk)
    from fairplay import services

    services.analyse(review.play_id)
    assert not Score.objects.get(play_id=review.play_id).hidden
    assert_redis_equals_postgres(live_refs())


def test_a_ban_refuses_ranked_starts_and_hides_every_ranked_play(flagged, reviewer, today_deals):
    main, review = flagged
    staff, client = reviewer
    player = client_for(main)
    other_preset = player.post(
        "/api/v1/plays", {"preset": "westcliff", "daily": "today"}, format="json"
    )
    assert other_preset.status_code == 201  # not banned yet

    _act(client, "ban_selected_players", "/admin/fairplay/review/", review.pk)
    assert RankedBan.objects.filter(player=main).exists()
    review.refresh_from_db()
    assert review.status == ReviewStatus.CONFIRMED
    assert ReviewDecision.objects.get().action == Action.BAN

    refused = player.post("/api/v1/plays", {"preset": "seahaven", "daily": "today"}, format="json")
    assert refused.status_code == 403
    assert refused["Content-Type"].startswith("application/problem+json")
    assert json.loads(refused.content)["code"] == "ranked_banned"
    practice = player.post("/api/v1/plays", {"preset": "seahaven", "seed": 5}, format="json")
    assert practice.status_code == 201

    # The westcliff play that was under way when the ban came is hidden when it ends.
    play = other_preset.json()
    ended = player.post(
        f"/api/v1/plays/{play['id']}/moves",
        {"seq": play["seq"], "move": {"type": "resign"}},
        format="json",
    )
    assert ended.status_code == 200
    assert Score.objects.filter(player=main).count() == 2
    assert not Score.objects.filter(player=main, hidden=False).exists()
    assert not Total.objects.filter(player=main, shadow=False).exists()
    assert_redis_equals_postgres(live_refs())

    _act(client, "lift_selected", "/admin/fairplay/rankedban/", main.pk)
    assert not RankedBan.objects.exists()
    assert [d.action for d in ReviewDecision.objects.order_by("created_at", "id")] == [
        Action.BAN,
        Action.UNBAN,
    ]
    again = player.post("/api/v1/plays", {"preset": "seahaven", "daily": "today"}, format="json")
    assert again.status_code == 201


def test_the_review_queue_is_staff_only(flagged):
    main, review = flagged
    outsider = Client()
    outsider.force_login(make_user("curious"))
    for client in (Client(), outsider):
        response = client.get(f"/admin/fairplay/review/{review.pk}/change/")
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
