"""The live streams through a real uvicorn: a finish reaches subscribers, a resume misses
and repeats nothing, tickets open streams, groups are members only, Redis down is a
fallback event and never a 5xx (docs/live.md)."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from django.utils import timezone

from leaderboard import groups
from tournaments import services

from .players import bearer, board_stream_url, finish_daily, make_player
from .sse_client import Stream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SECRETS = ("deck", "cards", "tableau", "stock", "cells", "solution", "hidden")


def assert_nothing_hidden(events) -> None:
    for event in events:
        for word in SECRETS:
            assert f'"{word}"' not in event.data, (word, event)


def test_a_finished_play_reaches_the_board_and_player_streams(asgi, today_deals):
    watcher, finisher = make_player("watcher"), make_player("finisher")
    board = Stream(board_stream_url(asgi.base), bearer(watcher))
    mine = Stream(f"{asgi.base}/api/v1/players/me/stream", bearer(finisher))
    try:
        assert board.response.status_code == 200
        assert board.response.headers["content-type"].startswith("text/event-stream")
        [snapshot] = board.take(1)
        assert snapshot.event == "snapshot"
        assert snapshot.json() == {"top": [], "changed": None, "me": None}
        assert mine.take(1)[0].event == "snapshot"

        finish_daily(asgi.base, finisher)

        [update] = board.take(1, until="board")
        data = update.json()
        assert update.event == "board" and update.id
        assert data["changed"] == {"username": "finisher", "rank": 1}
        assert [row["username"] for row in data["top"]] == ["finisher"]
        assert data["me"] is None  # the watcher has not played
        [own] = mine.take(1, until="score")
        assert own.event == "score" and own.json()["preset"] == "easthaven"
        assert_nothing_hidden([snapshot, update, own])
    finally:
        board.close()
        mine.close()


def test_a_resume_with_the_last_id_misses_nothing_and_repeats_nothing(asgi, today_deals):
    watcher = make_player("watcher")
    players = [make_player(f"p{i}") for i in range(4)]
    first = Stream(board_stream_url(asgi.base), bearer(watcher))
    [snapshot] = first.take(1)
    finish_daily(asgi.base, players[0])
    [seen] = first.take(1, until="board")
    first.close()  # the connection drops; two players finish meanwhile
    for player in players[1:3]:
        finish_daily(asgi.base, player)

    again = Stream(board_stream_url(asgi.base), {**bearer(watcher), "Last-Event-ID": seen.id})
    try:
        missed = again.take(2)
        assert [e.event for e in missed] == ["board", "board"]
        assert [e.json()["changed"]["username"] for e in missed] == ["p1", "p2"]
        finish_daily(asgi.base, players[3])
        [live] = again.take(1, until="board")
        assert live.json()["changed"]["username"] == "p3"
        ids = [snapshot.id, seen.id, *(e.id for e in missed), live.id]
        assert len(set(ids)) == 5
        assert ids == sorted(ids, key=lambda i: tuple(map(int, i.split("-"))))
        # Nothing more: no event is sent twice.
        assert [e for e in again.take(3, within=2.5) if e.event != "snapshot"] == []
    finally:
        again.close()


def test_a_ticket_opens_a_stream_and_nothing_else_does(asgi, today_deals):
    user = make_player("ticketed")
    issued = httpx.post(f"{asgi.base}/api/v1/streams/tickets", headers=bearer(user), timeout=10)
    assert issued.status_code == 201
    ticket = issued.json()["ticket"]
    stream = Stream(f"{board_stream_url(asgi.base)}?ticket={ticket}")
    try:
        assert stream.response.status_code == 200
        assert stream.take(1)[0].event == "snapshot"
    finally:
        stream.close()
    refusals = [
        ("", {}, "not_authenticated"),
        ("?ticket=forged", {}, "token_not_valid"),
        ("", {"Authorization": "Bearer x"}, "token_not_valid"),
    ]
    for query, headers, code in refusals:
        refused = httpx.get(board_stream_url(asgi.base) + query, headers=headers, timeout=10)
        assert refused.status_code == 401
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
        assert refused.json()["code"] == code
    # The ticket is no API credential.
    me = httpx.get(f"{asgi.base}/api/v1/players/me?ticket={ticket}", timeout=10)
    assert me.status_code == 401


def test_a_group_stream_is_for_members_only(asgi, today_deals):
    owner, friend, stranger = make_player("owner"), make_player("friend"), make_player("stranger")
    group = groups.create_group(owner, "friends")
    groups.join_group(friend, group.code)
    url = f"{asgi.base}/api/v1/groups/{group.pk}/stream"
    refused = httpx.get(url, headers=bearer(stranger), timeout=10)
    assert refused.status_code == 404 and refused.json()["code"] == "group_not_found"
    stream = Stream(url, bearer(owner))
    try:
        stream.take(1)
        finish_daily(asgi.base, friend)
        finish_daily(asgi.base, stranger)  # not a member: never on this stream
        [finish] = stream.take(1, until="finish")
        assert finish.json()["username"] == "friend"
        assert stream.take(1, within=2, until="finish") == []
        assert_nothing_hidden([finish])
    finally:
        stream.close()


def test_redis_killed_degrades_to_polling_without_a_5xx(asgi, own_redis, today_deals):
    user = make_player("poller")
    open_before = Stream(board_stream_url(asgi.base), bearer(user))
    open_before.take(1)
    own_redis.kill()
    try:
        [lost] = open_before.take(1, within=15, until="fallback")
        assert lost.event == "fallback"
    finally:
        open_before.close()
    for _ in range(3):  # the breaker open or not: the same answer
        answer = httpx.get(board_stream_url(asgi.base), headers=bearer(user), timeout=10)
        assert answer.status_code == 200
        events = [e for e in (answer.text.split("\n\n")) if e.strip()]
        assert len(events) == 1 and "event: fallback" in events[0]
        assert "retry: " in events[0]
        assert '"poll":"/api/v1/leaderboards/easthaven/daily/' in events[0]
        polled = httpx.get(
            f"{asgi.base}/api/v1/leaderboards/easthaven/daily/today",
            headers=bearer(user),
            timeout=10,
        )
        assert polled.status_code == 200
    own_redis.start()


def test_a_tournament_stream_follows_its_entrants(asgi, today_deals):
    now = timezone.now()
    cup = services.build(
        name="cup", preset="easthaven", starts_at=now - dt.timedelta(minutes=1),
        ends_at=now + dt.timedelta(hours=1),
    )
    entrant, outsider = make_player("entrant"), make_player("outsider")
    joined = httpx.post(f"{asgi.base}/api/v1/tournaments/{cup.pk}/join", headers=bearer(entrant))
    assert joined.status_code == 201
    stream = Stream(f"{asgi.base}/api/v1/tournaments/{cup.pk}/stream", bearer(outsider))
    try:
        [snapshot] = stream.take(1)
        assert snapshot.json() == {"standings": []}
        finish_daily(asgi.base, outsider)  # not an entrant: no standings event
        finish_daily(asgi.base, entrant)
        [standing] = stream.take(1, until="standings")
        assert [p["username"] for p in standing.json()["standings"]] == ["entrant"]
        assert_nothing_hidden([standing])
    finally:
        stream.close()
