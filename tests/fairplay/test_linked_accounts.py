"""A linked-account cheat played through the real API: a throwaway account turns the cards of
today's daily from one address, a main account then plays it from the same address. The
main play is flagged, kept off everyone else's boards and shown to its owner; an honest play
from elsewhere is not flagged. The Redis boards stay equal to PostgreSQL throughout."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from fairplay import services
from fairplay.models import Finding, PlayEvidence, Review, ReviewStatus
from leaderboard.models import Score, Total
from tests.factories import client_for, make_user

from .helpers import assert_redis_equals_postgres, board_names, live_refs, play_daily

ADDRESS_X = "198.51.100.7"
ADDRESS_Y = "203.0.113.20"
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]


def _build_boards(anon: APIClient) -> None:
    """Read each board once so Redis builds it; later pushes and removals land on it."""
    for path in ("easthaven/daily/today", "easthaven/weekly/current", "easthaven/all-time"):
        board_names(anon, path)


def test_a_linked_account_cheat_is_flagged_and_hidden_from_others(today_deals, detector_records):
    anon = APIClient()
    honest, throwaway, main = make_user("honest"), make_user("throwaway"), make_user("main")
    play_daily(client_for(honest), ADDRESS_Y, deals=2)
    _build_boards(anon)

    scout = play_daily(client_for(throwaway), ADDRESS_X, deals=3)
    scouted = PlayEvidence.objects.get(play_id=scout["id"]).reveal_order
    assert len(scouted) >= 3  # each deal turned stock cards face up
    cheat = play_daily(client_for(main), ADDRESS_X, deals=3)

    # The detectors saw every card the throwaway turned as linked to the main play.
    main_record = detector_records[-1]
    assert set(scouted) <= main_record.linked_reveals
    assert [r.linked_reveals for r in detector_records[:2]] == [frozenset(), frozenset()]
    finding = Finding.objects.get(play_id=cheat["id"], detector="linked_accounts")
    assert finding.flagged and set(finding.details["cards"]) >= set(scouted)
    review = Review.objects.get(play_id=cheat["id"])
    assert (review.status, review.player_id) == (ReviewStatus.PENDING, main.pk)
    assert Review.objects.count() == 1  # neither the honest play nor the scout is flagged
    assert Score.objects.get(play_id=cheat["id"]).hidden

    # Hidden from every board of everyone else ...
    for viewer in (anon, client_for(honest)):
        assert "main" not in board_names(viewer, "easthaven/daily/today")
        assert "main" not in board_names(viewer, "easthaven/weekly/current")
        assert "main" not in board_names(viewer, "easthaven/all-time")
    assert set(board_names(anon, "easthaven/daily/today")) == {"honest", "throwaway"}
    assert not Total.objects.filter(player=main, shadow=False).exists()
    others_view = anon.get("/api/v1/players/main").json()
    assert (others_view["plays"], others_view["presets"]) == (0, [])

    # ... but its owner still sees it, where it ranks, and in their own profile.
    owner = client_for(main)
    response = owner.get("/api/v1/leaderboards/easthaven/daily/today")
    assert "main" in [e["username"] for e in response.json()["results"]]
    assert response["Cache-Control"].startswith("private")
    around = owner.get("/api/v1/leaderboards/easthaven/daily/today?around=me&n=1")
    assert around.status_code == 200 and "main" in [e["username"] for e in around.json()["results"]]
    assert owner.get("/api/v1/players/me").json()["plays"] == 1
    for path in ("easthaven/weekly/current", "easthaven/all-time"):
        own = owner.get(f"/api/v1/leaderboards/{path}")
        assert "main" in [e["username"] for e in own.json()["results"]], path
        assert own["Cache-Control"].startswith("private")

    assert_redis_equals_postgres(live_refs())


def test_an_honest_play_is_not_flagged(today_deals, detector_records):
    first = play_daily(client_for(make_user("first")), ADDRESS_X, deals=3)
    other = play_daily(client_for(make_user("elsewhere")), ADDRESS_Y, deals=3)
    assert [r.linked_reveals for r in detector_records] == [frozenset(), frozenset()]
    assert not Review.objects.exists()
    assert not Score.objects.filter(play_id__in=[first["id"], other["id"]], hidden=True).exists()
    flagged = Finding.objects.filter(play_id=other["id"], flagged=True)
    assert not flagged.exists()
    # The two fake detectors' findings, and the account's judgement across days (unflagged).
    detectors = Finding.objects.filter(play_id=other["id"]).values_list("detector", flat=True)
    assert sorted(detectors) == ["account", "inhuman_speed", "linked_accounts"]
    assert set(board_names(APIClient(), "easthaven/daily/today")) == {"first", "elsewhere"}


def test_a_shared_device_links_accounts_on_different_addresses(today_deals, detector_records):
    device = {"HTTP_X_DEVICE_ID": "phone-1234"}
    scout = play_daily(client_for(make_user("scout")), ADDRESS_X, deals=2, **device)
    cheat = play_daily(client_for(make_user("cheat")), ADDRESS_Y, deals=2, **device)
    scouted = PlayEvidence.objects.get(play_id=scout["id"]).reveal_order
    assert set(scouted) <= detector_records[-1].linked_reveals
    assert Review.objects.filter(play_id=cheat["id"]).exists()


def test_the_real_detectors_flag_a_cheat_whose_play_reveals_nothing_of_its_own(today_deals):
    """No fake: the main account only turns cards the throwaway turned first."""
    play_daily(client_for(make_user("scout")), ADDRESS_X, deals=3)
    cheat = play_daily(client_for(make_user("cheat")), ADDRESS_X, deals=3)
    # The task already ran (and logged any detector error); again here, so one surfaces.
    services.analyse(cheat["id"])
    linked = Finding.objects.get(play_id=cheat["id"], detector="linked_accounts")
    assert linked.flagged, linked.reason
    assert Score.objects.get(play_id=cheat["id"]).hidden
    assert "cheat" not in board_names(APIClient(), "easthaven/daily/today")
