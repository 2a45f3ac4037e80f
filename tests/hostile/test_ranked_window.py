"""A ranked play ends with its day (issue 45): the attack is a play started at 23:58 that
waits for midnight, reads the day's published par solution and plays it for rank 1.

Through the real API with a moved clock (``django.utils.timezone.now``, which the day, the
deadline and the timestamps all read). PostgreSQL, so the move path's own transaction (the
expiry committed with the refusal) is the one under test; Redis for the boards.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.expiry import expire_ranked_plays
from games.models import Deal, Play, PlayStatus, Source
from leaderboard.models import Score, Total
from tests.factories import client_for, foundation_source, make_user, seahaven_win_deck

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

DAY = dt.date(2026, 12, 1)
NEXT = DAY + dt.timedelta(days=1)
WIN = [{"type": "move", "from": foundation_source(k), "to": "f"} for k in range(52)]


def at(day: dt.date, hh: int, mm: int, ss: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hh, mm, ss), tzinfo=dt.UTC)


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, now: dt.datetime) -> None:
        self.now = now
        monkeypatch.setattr(timezone, "now", lambda: self.now)


@pytest.fixture
def clock(monkeypatch, settings) -> Clock:
    settings.RANKED_GRACE_MINUTES = 10
    return Clock(monkeypatch, at(DAY, 23, 58))


def store_seahaven_daily(day: dt.date) -> Deal:
    """``day``'s seahaven daily: a deck won by 52 foundation moves, which are its solution."""
    return Deal.objects.create(
        preset="seahaven",
        source=Source.DAILY,
        date=day,
        deck=seahaven_win_deck(),
        verdict="winnable",
        par=52,
        solution=WIN,
    )


def start_ranked(client, day: dt.date) -> dict:
    response = client.post(
        "/api/v1/plays", {"preset": "seahaven", "daily": day.isoformat()}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def send(client, play: dict, body: dict):
    return client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")


def expired_problem(response) -> None:
    assert response.status_code == 409, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == "ranked_play_expired"
    assert body["deadline"] == at(NEXT, 0, 10).isoformat()


def test_a_play_started_at_2358_cannot_win_with_the_published_solution(clock):
    store_seahaven_daily(DAY)
    client = client_for(make_user())
    play = start_ranked(client, DAY)
    clock.now = at(NEXT, 0, 10)  # the deadline itself: the day is published
    daily = client.get(f"/api/v1/daily/{DAY.isoformat()}").json()["deals"]["seahaven"]
    assert daily["solution"] == WIN and daily["deck"] == seahaven_win_deck()
    expired_problem(send(client, play, {"seq": 0, "moves": daily["solution"]}))
    row = Play.objects.get(pk=play["id"])
    assert (row.status, row.finished_at, row.seq) == (PlayStatus.EXPIRED, clock.now, 0)
    assert client.get(f"/api/v1/plays/{play['id']}").json()["status"] == "expired"
    # Every other door of the move path is shut too: single move, undo, resign.
    for move in (WIN[0], {"type": "undo"}, {"type": "resign"}):
        expired_problem(send(client, play, {"seq": 0, "move": move}))
    assert not Score.objects.exists()


def test_a_move_in_the_grace_works_and_one_after_it_is_refused(clock):
    store_seahaven_daily(DAY)
    client = client_for(make_user())
    play = start_ranked(client, DAY)
    clock.now = at(NEXT, 0, 9, 59)
    assert "deck" not in client.get(f"/api/v1/daily/{DAY.isoformat()}").json()["deals"]["seahaven"]
    response = send(client, play, {"seq": 0, "move": WIN[0]})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "playing"
    clock.now = at(NEXT, 0, 10, 1)
    expired_problem(send(client, play, {"seq": 1, "move": WIN[1]}))
    row = Play.objects.get(pk=play["id"])
    assert (row.status, row.seq, row.foundation_cards) == (PlayStatus.EXPIRED, 1, 1)


def test_the_expiry_stands_under_an_idempotency_key(clock):
    store_seahaven_daily(DAY)
    client = client_for(make_user())
    play = start_ranked(client, DAY)
    clock.now = at(NEXT, 0, 11)
    body = {"seq": 0, "move": {"type": "resign"}}
    first = client.post(
        f"/api/v1/plays/{play['id']}/moves", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    expired_problem(first)
    assert Play.objects.get(pk=play["id"]).status == PlayStatus.EXPIRED
    again = client.post(
        f"/api/v1/plays/{play['id']}/moves", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    expired_problem(again)
    assert again["Idempotent-Replayed"] == "true"


def test_the_beat_task_expires_untouched_plays_and_only_those(clock):
    store_seahaven_daily(DAY)
    store_seahaven_daily(NEXT)
    idle, finisher, tomorrow = (client_for(make_user()) for _ in range(3))
    idle_play = start_ranked(idle, DAY)
    won = send(finisher, start_ranked(finisher, DAY), {"seq": 0, "moves": WIN})
    assert won.json()["status"] == "won"
    clock.now = at(NEXT, 0, 9)
    assert expire_ranked_plays() == 0  # still in the grace
    next_play = start_ranked(tomorrow, NEXT)
    clock.now = at(NEXT, 0, 10)
    assert expire_ranked_plays.delay().get() == 1
    row = Play.objects.get(pk=idle_play["id"])
    assert (row.status, row.finished_at) == (PlayStatus.EXPIRED, at(NEXT, 0, 10))
    assert Play.objects.get(pk=next_play["id"]).status == PlayStatus.PLAYING
    assert expire_ranked_plays() == 0  # idempotent
    assert Score.objects.count() == 1


def test_boards_streaks_and_weekly_totals_ignore_an_expired_play(clock):
    store_seahaven_daily(DAY - dt.timedelta(days=1))
    store_seahaven_daily(DAY)
    me = make_user("lateowl")
    client = client_for(me)
    clock.now = at(DAY - dt.timedelta(days=1), 12, 0)
    yesterday = start_ranked(client, DAY - dt.timedelta(days=1))
    assert send(client, yesterday, {"seq": 0, "moves": WIN}).json()["status"] == "won"
    clock.now = at(DAY, 23, 58)
    play = start_ranked(client, DAY)
    assert send(client, play, {"seq": 0, "moves": WIN[:30]}).status_code == 200
    clock.now = at(NEXT, 0, 20)
    # A resign would have scored the 30 cards: after the deadline it expires the play.
    expired_problem(send(client, play, {"seq": 30, "move": {"type": "resign"}}))
    assert list(Score.objects.values_list("date", flat=True)) == [DAY - dt.timedelta(days=1)]
    board = client.get(f"/api/v1/leaderboards/seahaven/daily/{DAY.isoformat()}").json()
    assert board["results"] == []
    week = DAY.isocalendar()
    assert DAY.isocalendar()[:2] == (DAY - dt.timedelta(days=1)).isocalendar()[:2]
    weekly = client.get(f"/api/v1/leaderboards/seahaven/weekly/{week.year}-W{week.week:02d}").json()
    assert [(e["username"], e["plays"], e["wins"]) for e in weekly["results"]] == [
        ("lateowl", 1, 1)
    ]
    assert Total.objects.get(player=me, period="all").plays == 1
    profile = client.get("/api/v1/players/me").json()
    assert (profile["plays"], profile["wins"], profile["current_streak"]) == (1, 1, 0)


def test_the_deck_is_not_served_before_the_deadline_and_is_after(clock, anon):
    store_seahaven_daily(DAY)
    for now in (at(DAY, 23, 58), at(NEXT, 0, 0), at(NEXT, 0, 9, 59)):
        clock.now = now
        response = anon.get(f"/api/v1/daily/{DAY.isoformat()}")
        assert response.status_code == 200
        deal = response.json()["deals"]["seahaven"]
        assert "deck" not in deal and "solution" not in deal, now
        assert "immutable" not in response["Cache-Control"]
    clock.now = at(NEXT, 0, 10)
    response = anon.get(f"/api/v1/daily/{DAY.isoformat()}")
    assert response.json()["deals"]["seahaven"]["deck"] == seahaven_win_deck()
    assert "immutable" in response["Cache-Control"]
