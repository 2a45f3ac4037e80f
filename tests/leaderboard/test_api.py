"""The leaderboard, player and group endpoints: shapes, problem details, groups, profiles
and streaks, and an end-to-end daily played through the moves API with and without Redis."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from games.daily import utc_today
from games.models import Deal, Source
from leaderboard.models import Score
from tests.factories import client_for, foundation_source, make_user, seahaven_win_deck

from .helpers import DAY, at, post_move, record, via_redis

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}
BASE = "/api/v1/leaderboards"


def problem(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = json.loads(response.content)
    assert PROBLEM_KEYS <= set(body)
    assert body["code"] == code, body
    assert body["status"] == status
    return body


@pytest.fixture
def board(db, django_capture_on_commit_callbacks):
    """Five results on easthaven, 2026-11-26: u0 (best) … u4."""
    users = [make_user(f"u{i}") for i in range(5)]
    with django_capture_on_commit_callbacks(execute=True):
        for i, user in enumerate(users):
            record(user, won=i < 3, cards=40 - i, moves=70 + i, finished_at=at(DAY, 10 + i))
    return users


@pytest.mark.django_db
def test_daily_board_shape_and_cursor_links(board):
    anon = APIClient()
    response = anon.get(f"{BASE}/easthaven/daily/2026-11-26?page_size=2")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["board"] == {
        "preset": "easthaven",
        "options": [],
        "key": "easthaven",
        "kind": "daily",
        "period": "2026-11-26",
        "group": None,
        "frozen": True,
    }
    assert body["previous"] is None
    first = body["results"][0]
    assert set(first) == {
        "rank",
        "username",
        "won",
        "foundation_cards",
        "moves",
        "seconds",
        "undos",
        "finished_at",
    }
    assert (first["rank"], first["username"], first["won"], first["moves"]) == (1, "u0", True, 70)
    assert first["finished_at"] == "2026-11-26T10:00:00Z"
    names = [e["username"] for e in body["results"]]
    while body["next"]:
        body = anon.get(body["next"]).json()
        names += [e["username"] for e in body["results"]]
    assert names == ["u0", "u1", "u2", "u3", "u4"]
    back = anon.get(body["previous"]).json()
    assert [e["rank"] for e in back["results"]] == [3, 4]
    # A past day's board is frozen on its first read.
    assert list(Score.objects.order_by("rank").values_list("rank", flat=True)) == [1, 2, 3, 4, 5]


@pytest.mark.django_db
def test_around_me(board):
    client = client_for(board[2])
    body = client.get(f"{BASE}/easthaven/daily/2026-11-26?around=me&n=1").json()
    assert [(e["rank"], e["username"]) for e in body["results"]] == [
        (2, "u1"),
        (3, "u2"),
        (4, "u3"),
    ]
    assert body["next"] and body["previous"]
    nxt = client.get(body["next"]).json()
    assert [e["username"] for e in nxt["results"]] == ["u4"]
    top = client_for(board[0]).get(f"{BASE}/easthaven/daily/2026-11-26?around=me&n=1").json()
    assert [e["rank"] for e in top["results"]] == [1, 2]
    assert top["previous"] is None


@pytest.mark.django_db
def test_weekly_and_all_time(board):
    anon = APIClient()
    for url in (f"{BASE}/easthaven/weekly/2026-W48", f"{BASE}/easthaven/all-time"):
        body = anon.get(url).json()
        assert [(e["username"], e["wins"], e["points"], e["plays"]) for e in body["results"]] == [
            ("u0", 1, 100, 1),
            ("u1", 1, 100, 1),
            ("u2", 1, 100, 1),
            ("u3", 0, 37, 1),
            ("u4", 0, 36, 1),
        ]
        assert set(body["results"][0]) == {"rank", "username", "wins", "points", "plays"}
    assert anon.get(f"{BASE}/easthaven/weekly/2026-W47").json()["results"] == []
    assert anon.get(f"{BASE}/easthaven/weekly/current").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        # One condition, one code and status everywhere (issue 22): as on POST /plays.
        (f"{BASE}/klondike/daily/today", 400, "unknown_preset"),
        (f"{BASE}/klondike/all-time", 400, "unknown_preset"),
        (f"{BASE}/easthaven/daily/today?options=supermove", 400, "unknown_option"),
        (f"{BASE}/seahaven/all-time?options=partial_runs", 400, "unknown_option"),
        (f"{BASE}/easthaven/daily/2026-13-01", 400, "invalid_date"),
        (f"{BASE}/easthaven/daily/yesterday", 400, "invalid_date"),
        (f"{BASE}/easthaven/daily/2999-01-01", 404, "board_not_available"),
        (f"{BASE}/easthaven/weekly/2026-W54", 400, "invalid_week"),
        (f"{BASE}/easthaven/weekly/2026-48", 400, "invalid_week"),
        (f"{BASE}/easthaven/weekly/%F0%9F%83%8F", 400, "invalid_week"),
        (f"{BASE}/easthaven/all-time?cursor=garbage", 400, "invalid_cursor"),
        (f"{BASE}/easthaven/all-time?cursor=eyJkIjoibiJ9", 400, "invalid_cursor"),
        (f"{BASE}/easthaven/daily/today?page_size=0", 400, "invalid_page_size"),
        (f"{BASE}/easthaven/daily/today?page_size=abc", 400, "invalid_page_size"),
        (f"{BASE}/easthaven/daily/today?around=you", 400, "invalid_around"),
        (f"{BASE}/easthaven/daily/today?around=me", 401, "not_authenticated"),
        (f"{BASE}/easthaven/daily/today?group=1", 401, "not_authenticated"),
        ("/api/v1/players/nobody", 404, "player_not_found"),
        ("/api/v1/players/me", 401, "not_authenticated"),
        ("/api/v1/groups", 401, "not_authenticated"),
    ],
)
def test_bad_requests_are_problems(url, status, code):
    problem(APIClient().get(url), status, code)


@pytest.mark.django_db
def test_bad_requests_of_a_signed_in_player(board):
    client = client_for(make_user())
    problem(client.get(f"{BASE}/easthaven/daily/2026-11-26?around=me"), 404, "not_on_board")
    problem(client.get(f"{BASE}/easthaven/daily/2026-11-26?around=me&n=99"), 400, "invalid_n")
    problem(client.get(f"{BASE}/easthaven/all-time?group=abc"), 400, "invalid_group")
    problem(client.get(f"{BASE}/easthaven/all-time?group=999999"), 404, "group_not_found")


@pytest.mark.django_db
def test_groups(board):
    owner, friend, stranger = (client_for(u) for u in board[1:4])
    created = owner.post("/api/v1/groups", {"name": "Tuesday club"}, format="json")
    assert created.status_code == 201, created.content
    group = created.json()
    assert group["owner"] == "u1" and group["members_count"] == 1 and len(group["code"]) == 8
    problem(owner.post("/api/v1/groups", {"name": ""}, format="json"), 400, "validation_error")

    problem(stranger.get(f"/api/v1/groups/{group['id']}"), 404, "group_not_found")
    problem(
        stranger.get(f"{BASE}/easthaven/daily/2026-11-26?group={group['id']}"),
        404,
        "group_not_found",
    )
    problem(
        friend.post("/api/v1/groups/join", {"code": "NOPE1234"}, format="json"),
        404,
        "invalid_invite_code",
    )
    joined = friend.post("/api/v1/groups/join", {"code": group["code"].lower()}, format="json")
    assert joined.status_code == 201
    assert (
        friend.post("/api/v1/groups/join", {"code": group["code"]}, format="json").status_code
        == 200
    )
    detail = friend.get(f"/api/v1/groups/{group['id']}").json()
    assert [m["username"] for m in detail["members"]] == ["u1", "u2"]
    assert [g["name"] for g in friend.get("/api/v1/groups").json()["results"]] == ["Tuesday club"]
    assert stranger.get("/api/v1/groups").json()["results"] == []

    page = friend.get(f"{BASE}/easthaven/daily/2026-11-26?group={group['id']}").json()
    assert [(e["rank"], e["username"]) for e in page["results"]] == [(1, "u1"), (2, "u2")]
    assert page["board"]["group"] == group["id"]
    mine = friend.get(f"{BASE}/easthaven/all-time?group={group['id']}&around=me&n=0").json()
    assert [(e["rank"], e["username"]) for e in mine["results"]] == [(2, "u2")]

    assert owner.post(f"/api/v1/groups/{group['id']}/leave").status_code == 204
    problem(owner.get(f"/api/v1/groups/{group['id']}"), 404, "group_not_found")
    assert friend.get(f"/api/v1/groups/{group['id']}").json()["owner"] == "u2"
    assert friend.post(f"/api/v1/groups/{group['id']}/leave").status_code == 204
    problem(
        friend.post("/api/v1/groups/join", {"code": group["code"]}, format="json"),
        404,
        "invalid_invite_code",
    )  # the empty group is gone


@pytest.mark.django_db
def test_profile_and_streaks_across_utc_midnight(django_capture_on_commit_callbacks, monkeypatch):
    me = make_user("streaky")
    d = dt.date(2026, 11, 20)
    with django_capture_on_commit_callbacks(execute=True):
        # The 20th's daily, won one second after midnight: it still counts for the 20th.
        record(me, won=True, day=d, finished_at=at(d, 24 + 1 / 3600))
        record(me, won=True, day=d + dt.timedelta(days=1), finished_at=at(d, 47.9997))
        record(me, cards=30, day=d + dt.timedelta(days=2), preset="westcliff")
        record(me, won=True, day=d + dt.timedelta(days=2), preset="seahaven")
        record(me, won=True, day=d + dt.timedelta(days=4), preset="seahaven")
    client = client_for(me)

    def profile_at(today):
        monkeypatch.setattr("games.daily.utc_today", lambda: today)
        return client.get("/api/v1/players/me").json()

    body = profile_at(d + dt.timedelta(days=2))
    assert (body["current_streak"], body["best_streak"]) == (3, 3)
    assert (body["plays"], body["wins"], body["win_rate"]) == (5, 4, 0.8)
    assert body["presets"] == [
        {"preset": "easthaven", "plays": 2, "wins": 2, "win_rate": 1.0},
        {"preset": "seahaven", "plays": 2, "wins": 2, "win_rate": 1.0},
        {"preset": "westcliff", "plays": 1, "wins": 0, "win_rate": 0.0},
    ]
    assert profile_at(d + dt.timedelta(days=3))["current_streak"] == 3  # alive until tonight
    assert profile_at(d + dt.timedelta(days=4))["current_streak"] == 1
    assert profile_at(d + dt.timedelta(days=6))["current_streak"] == 0
    body = profile_at(d + dt.timedelta(days=6))
    assert body["best_streak"] == 3 and body["last_win_date"] == "2026-11-24"
    # Best ranks come from frozen days.
    APIClient().get(f"{BASE}/seahaven/daily/2026-11-22")
    public = APIClient().get("/api/v1/players/streaky").json()
    assert public["best_ranks"] == [{"board": "seahaven", "rank": 1, "date": "2026-11-22"}]
    assert {r["board"] for r in public["best_results"]} == {"easthaven", "seahaven", "westcliff"}


@pytest.mark.django_db
def test_schema_lists_the_leaderboard_endpoints():
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    for path in [
        "/api/v1/leaderboards/{preset}/daily/{date}",
        "/api/v1/leaderboards/{preset}/weekly/{week}",
        "/api/v1/leaderboards/{preset}/all-time",
        "/api/v1/players/{username}",
        "/api/v1/players/me",
        "/api/v1/groups",
        "/api/v1/groups/join",
        "/api/v1/groups/{group_id}",
        "/api/v1/groups/{group_id}/leave",
    ]:
        assert path in schema["paths"], path
    assert "DailyEntry" in schema["components"]["schemas"]


# --- End to end ------------------------------------------------------------------------------


def _play_daily(client, today, script):
    """Start today's ranked seahaven play and run ``script`` through the moves API."""
    response = client.post(
        "/api/v1/plays", {"preset": "seahaven", "daily": today.isoformat()}, format="json"
    )
    assert response.status_code == 201, response.content
    play = response.json()
    k = 0
    for step in script:
        if step == "undo":
            play = post_move(client, play, {"type": "undo"})
            k -= 1
        elif step == "resign":
            play = post_move(client, play, {"type": "resign"})
        else:
            for _ in range(step):
                play = post_move(
                    client, play, {"type": "move", "from": foundation_source(k), "to": "f"}
                )
                k += 1
    return play


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", [pytest.param("redis", marks=pytest.mark.redis), "postgres"])
def test_end_to_end_daily_through_the_api(settings, path):
    if path == "postgres":
        settings.REDIS_URL = ""
    today = utc_today()
    Deal.objects.create(
        preset="seahaven",
        source=Source.DAILY,
        date=today,
        deck=seahaven_win_deck(),
        verdict="winnable",
        par=52,
    )
    scripts = {
        "fast": [52],  # won in 52 moves
        "undoer": [1, "undo", 52],  # won in 54: the move, the undo, 52
        "partial": [20, "resign"],  # 20 cards, 20 moves
        "partial_later": [20, "resign"],  # the same, finished later
        "quitter": ["resign"],
    }
    clients = {}
    for name in ["undoer", "partial", "quitter", "fast", "partial_later"]:
        clients[name] = client_for(make_user(name))
        end = _play_daily(clients[name], today, scripts[name])
        assert end["status"] in ("won", "resigned")
    again = clients["fast"].post(
        "/api/v1/plays", {"preset": "seahaven", "daily": today.isoformat()}, format="json"
    )
    problem(again, 409, "already_played")

    url = f"{BASE}/seahaven/daily/today"
    response = APIClient().get(url)
    assert response.status_code == 200
    body = response.json()
    expected = ["fast", "undoer", "partial", "partial_later", "quitter"]
    assert [e["username"] for e in body["results"]] == expected
    assert [(e["won"], e["foundation_cards"], e["moves"], e["undos"]) for e in body["results"]] == [
        (True, 52, 52, 0),
        (True, 52, 54, 1),
        (False, 20, 20, 0),
        (False, 20, 20, 0),
        (False, 0, 0, 0),
    ]
    assert body["results"][2]["finished_at"] < body["results"][3]["finished_at"]
    assert Score.objects.count() == 5
    if path == "redis":
        # The first read may have rebuilt the board; from now on Redis answers, identically.
        again = via_redis(lambda: APIClient().get(url))
        assert again.json()["results"] == body["results"]
    else:
        assert response["X-Leaderboard-Source"] == "postgres"
    mine = clients["partial"].get(f"{url}?around=me&n=1").json()
    assert [e["username"] for e in mine["results"]] == ["undoer", "partial", "partial_later"]
    weekly = APIClient().get(f"{BASE}/seahaven/weekly/current").json()
    # Equal wins, points and plays: the player id decides (undoer signed up before fast).
    assert [(e["username"], e["points"]) for e in weekly["results"]] == [
        ("undoer", 100),
        ("fast", 100),
        ("partial", 20),
        ("partial_later", 20),
        ("quitter", 0),
    ]
