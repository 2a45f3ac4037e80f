"""The account's judgement across its days, in the service: plays each under the per-play
cut that together cross the account's cut get the account flagged, its earlier plays
hidden from others' boards (daily, weekly, all-time) but not from itself; clearing the
account restores them and resets its evidence; an honest account is never flagged."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fairplay import account_judgement, services
from fairplay.detectors import Finding, PlayRecord
from fairplay.models import AccountEvidence, Action, Review, ReviewDecision, ReviewStatus
from leaderboard import ranking
from leaderboard.models import Score
from leaderboard.refs import BoardRef
from tests.factories import client_for, make_user
from tests.leaderboard.helpers import DAY, at, record

from .helpers import assert_redis_equals_postgres

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]
BOARD = "/api/v1/leaderboards/easthaven"
DAYS = [DAY - dt.timedelta(days=2), DAY - dt.timedelta(days=1), DAY]  # Tue–Thu, one week
#: Each of the cheat's plays: reveal z = 2.5, under the per-play cut (3.0) and the
#: account's (3.5); two of them pool to 5 / √2 = 3.54, over it.
PER_PLAY_Z = 2.5


def _names(client: APIClient, path: str) -> list[str]:
    response = client.get(f"{BOARD}/{path}")
    assert response.status_code == 200, response.content
    return [entry["username"] for entry in response.json()["results"]]


@pytest.fixture
def fake_detectors(monkeypatch):
    """Detectors that flag nothing on one play; ``ace``'s plays carry a reveal z of 2.5."""

    def fake(record: PlayRecord, thresholds=None) -> list[Finding]:
        lucky = _is_ace[0]
        total = PER_PLAY_Z if lucky else 0.0
        return [
            Finding(
                "clairvoyance",
                0.3 if lucky else 0.0,
                False,
                f"z = {total}",
                {"total": total, "variance": 1.0, "choice_total": 0.0, "choice_variance": 1.0},
            ),
            Finding("inhuman_speed", 0.1, False, "human move times", {"moves": 0}),
        ]

    _is_ace = [False]
    monkeypatch.setattr("fairplay.detectors.run_detectors", fake)
    return _is_ace


def _analyse(play, is_ace, lucky: bool, capture) -> None:
    is_ace[0] = lucky
    with capture(execute=True):
        services.analyse(play.pk)


@pytest.fixture
def days_played(fake_detectors, django_capture_on_commit_callbacks):
    """ace wins best on each of three days, bob second; the boards are built."""
    ace, bob = make_user("ace"), make_user("bob")
    plays: dict[str, list] = {"ace": [], "bob": []}
    with django_capture_on_commit_callbacks(execute=True):
        for day in DAYS:
            plays["ace"].append(record(ace, won=True, moves=60, day=day, finished_at=at(day, 9)))
            plays["bob"].append(record(bob, won=True, moves=70, day=day, finished_at=at(day, 10)))
    for path in (f"weekly/{ranking.iso_week(DAY)}", "all-time", f"daily/{DAY}"):
        _names(APIClient(), path)
    return ace, bob, plays


def _refs() -> list[BoardRef]:
    return [BoardRef.weekly("easthaven", ranking.iso_week(DAY)), BoardRef.all_time("easthaven")]


def test_plays_under_the_per_play_cut_flag_the_account_together(
    days_played, fake_detectors, django_capture_on_commit_callbacks
):
    ace, bob, plays = days_played
    capture = django_capture_on_commit_callbacks
    anon, owner = APIClient(), client_for(ace)
    for score in plays["bob"]:
        _analyse(score.play, fake_detectors, False, capture)
    _analyse(plays["ace"][0].play, fake_detectors, True, capture)
    account = AccountEvidence.objects.get(player=ace)
    assert account.status == "" and not Review.objects.filter(player=ace).exists()
    assert account.verdict["clairvoyance_z"] == pytest.approx(2.5)

    _analyse(plays["ace"][1].play, fake_detectors, True, capture)
    account.refresh_from_db()
    assert account.status == ReviewStatus.PENDING
    assert account.verdict["clairvoyance_z"] == pytest.approx(3.54, abs=0.01)
    assert [d["day"] for d in account.verdict["days"]] == [str(DAYS[0]), str(DAYS[1])]
    # Both plays are flagged and hidden: the current one and the earlier one.
    flagged = set(Review.objects.filter(player=ace).values_list("play_id", flat=True))
    assert flagged == {plays["ace"][0].play_id, plays["ace"][1].play_id}
    for day in DAYS[:2]:
        assert _names(anon, f"daily/{day}") == ["bob"]
        assert _names(owner, f"daily/{day}") == ["ace", "bob"]  # its owner still sees it
    assert _names(anon, f"daily/{DAY}") == ["ace", "bob"]  # not yet analysed
    # The weekly and all-time boards count only the visible day for others.
    for path in (f"weekly/{ranking.iso_week(DAY)}", "all-time"):
        wins = {e["username"]: e["wins"] for e in anon.get(f"{BOARD}/{path}").json()["results"]}
        assert wins == {"ace": 1, "bob": 3}
        mine = {e["username"]: e["wins"] for e in owner.get(f"{BOARD}/{path}").json()["results"]}
        assert mine == {"ace": 3, "bob": 3}
    assert_redis_equals_postgres(_refs())

    # While the account waits for review, its next play is flagged too.
    _analyse(plays["ace"][2].play, fake_detectors, False, capture)
    assert Review.objects.filter(player=ace).count() == 3
    assert _names(anon, f"daily/{DAY}") == ["bob"]
    assert_redis_equals_postgres(_refs())


def _reviewer() -> Client:
    staff = make_user("reviewer")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


def test_clearing_the_account_restores_its_plays_and_resets_its_evidence(
    days_played, fake_detectors, django_capture_on_commit_callbacks
):
    ace, _, plays = days_played
    capture = django_capture_on_commit_callbacks
    for score in plays["ace"][:2]:
        _analyse(score.play, fake_detectors, True, capture)
    account = AccountEvidence.objects.get(player=ace)
    assert account.status == ReviewStatus.PENDING
    admin = _reviewer()
    page = admin.get(f"/admin/fairplay/accountevidence/{ace.pk}/change/")
    assert page.status_code == 200 and b"vidence day by day" in page.content
    assert str(DAYS[1]).encode() in page.content

    url = "/admin/fairplay/accountevidence/"
    with capture(execute=True):
        response = admin.post(url, {"action": "clear_selected", "_selected_action": [ace.pk]})
    assert response.status_code == 302, response.content
    account.refresh_from_db()
    assert account.status == ReviewStatus.CLEARED and account.samples == []
    assert account.reset_at is not None
    decision = ReviewDecision.objects.get(player=ace)
    assert decision.action == Action.CLEAR and "evidence of 2 plays reset" in decision.note
    assert set(Review.objects.filter(player=ace).values_list("status", flat=True)) == {
        ReviewStatus.CLEARED
    }
    anon = APIClient()
    for day in DAYS[:2]:
        assert _names(anon, f"daily/{day}") == ["ace", "bob"]
    assert not Score.objects.filter(player=ace, hidden=True).exists()
    assert_redis_equals_postgres(_refs())

    # The cleared evidence never counts again, even if an old play is analysed again.
    _analyse(plays["ace"][0].play, fake_detectors, True, capture)
    account.refresh_from_db()
    assert account.samples == [] and account.status == ReviewStatus.CLEARED


def test_confirm_and_ban_work_on_a_flagged_account(
    days_played, fake_detectors, django_capture_on_commit_callbacks
):
    ace, _, plays = days_played
    capture = django_capture_on_commit_callbacks
    for score in plays["ace"][:2]:
        _analyse(score.play, fake_detectors, True, capture)
    admin = _reviewer()
    url = "/admin/fairplay/accountevidence/"
    with capture(execute=True):
        admin.post(url, {"action": "confirm_selected", "_selected_action": [ace.pk]})
    assert set(Review.objects.filter(player=ace).values_list("status", flat=True)) == {
        ReviewStatus.CONFIRMED
    }
    with capture(execute=True):
        admin.post(url, {"action": "ban_selected_players", "_selected_action": [ace.pk]})
    assert not Score.objects.filter(player=ace, hidden=False).exists()  # every day hidden
    assert _names(APIClient(), "all-time") == ["bob"]
    assert_redis_equals_postgres(_refs())
    actions = set(ReviewDecision.objects.filter(player=ace).values_list("action", flat=True))
    assert actions == {Action.CONFIRM, Action.BAN}


def test_an_honest_account_over_many_days_is_not_flagged(
    fake_detectors, django_capture_on_commit_callbacks
):
    bob = make_user("bob")
    for back in range(40):
        day = DAY - dt.timedelta(days=back)
        play = record(bob, won=True, moves=70, day=day, finished_at=at(day, 10)).play
        _analyse(play, fake_detectors, False, django_capture_on_commit_callbacks)
    account = account_judgement.evidence_of(bob.pk)
    assert account is not None and account.status == ""
    assert len(account.samples) == account_judgement.cuts().window  # a rolling window
    assert not Review.objects.filter(player=bob).exists()
