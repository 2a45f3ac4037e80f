"""A board event is personalised per viewer cheaply: who it moved is worked out once per
event (with the events it replaced), the viewer's rank is read again only when it may have
moved, and viewers with the same rank share one rendered frame (docs/live.md)."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from realtime import hub, views


def _event(n: int, changed: dict | None, skipped: tuple[hub.Event, ...] = ()) -> hub.Event:
    data = json.dumps({"top": [], "changed": changed})
    return hub.Event(f"{n}-0", "board", data, skipped=skipped)


def _personaliser(monkeypatch, username: str, mine: int | None, rank_now: int | None):
    reads: list[int] = []

    def off_loop(function):
        async def read(*args):
            reads.append(1)
            return rank_now

        return read

    monkeypatch.setattr(views, "off_loop", off_loop)
    viewer = SimpleNamespace(username=username, pk=7)
    return views._board_personaliser(None, viewer, mine), reads


def test_a_finish_below_the_viewer_reads_nothing(monkeypatch):
    personalise, reads = _personaliser(monkeypatch, "me", 3, 2)
    out = asyncio.run(personalise(_event(1, {"username": "x", "rank": 9})))
    assert reads == [] and json.loads(out.data)["me"] == 3


def test_a_replaced_event_above_the_viewer_counts(monkeypatch):
    personalise, reads = _personaliser(monkeypatch, "me", 3, 4)
    above = _event(1, {"username": "x", "rank": 2})
    latest = _event(2, {"username": "y", "rank": 8}, skipped=(above,))
    out = asyncio.run(personalise(latest))
    assert reads == [1] and json.loads(out.data)["me"] == 4


def test_the_viewer_themself_or_a_fair_play_decision_reads_again(monkeypatch):
    personalise, reads = _personaliser(monkeypatch, "me", None, 5)
    asyncio.run(personalise(_event(1, {"username": "me", "rank": 5})))
    asyncio.run(personalise(_event(2, None)))
    assert reads == [1, 1]


def test_viewers_with_the_same_rank_share_one_frame(monkeypatch):
    event = _event(1, {"username": "x", "rank": 9})
    first, _ = _personaliser(monkeypatch, "a", None, None)
    second, _ = _personaliser(monkeypatch, "b", None, None)
    third, _ = _personaliser(monkeypatch, "c", 2, None)
    a, b, c = (asyncio.run(p(event)) for p in (first, second, third))
    assert a is b and a.frame is b.frame
    assert c is not a and json.loads(c.data)["me"] == 2
    assert a.frame.startswith(b"id: 1-0\nevent: board\ndata: {")
