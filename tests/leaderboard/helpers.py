"""Helpers of the leaderboard tests: hand-made ranked results, API plays (players and their
clients: ``tests.factories``)."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from rest_framework.test import APIClient

from games import engine
from games.models import Deal, Play, PlayStatus, Source
from leaderboard import scores

DAY = dt.date(2026, 11, 26)


def at(day: dt.date, hours: float) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC) + dt.timedelta(hours=hours)


_deals: dict[tuple[str, dt.date], Deal] = {}


def daily_deal(preset: str, day: dt.date) -> Deal:
    deal = Deal.objects.filter(source=Source.DAILY, preset=preset, date=day).first()
    if deal is None:
        deck = engine.format_deck(engine.deck_from_seed(7 + day.toordinal()))
        deal = Deal.objects.create(
            preset=preset, source=Source.DAILY, date=day, deck=deck, verdict="winnable", par=90
        )
    return deal


def ranked_play(
    player,
    *,
    won: bool = False,
    cards: int = 0,
    moves: int = 100,
    seconds: float = 300.0,
    finished_at: dt.datetime | None = None,
    day: dt.date = DAY,
    preset: str = "easthaven",
    options: dict[str, bool] | None = None,
    status: str | None = None,
    play_id: uuid.UUID | None = None,
    undos: int = 0,
) -> Play:
    """A finished ranked play with exactly these figures (no moves applied)."""
    finished_at = finished_at or at(day, 12)
    play = Play(
        player=player,
        deal=daily_deal(preset, day),
        preset=preset,
        options=options or {},
        ranked=True,
        daily_date=day,
        state={},
        status=status or (PlayStatus.WON if won else PlayStatus.LOST),
        finished_at=finished_at,
        foundation_cards=52 if won else cards,
        moves_count=moves,
        undos=undos,
        seconds=seconds,
    )
    if play_id is not None:
        play.id = play_id
    play.save()
    Play.objects.filter(pk=play.pk).update(started_at=finished_at - dt.timedelta(seconds=seconds))
    return play


def record(player, **figures: Any):
    """A ranked result recorded as the ``play_finished`` receiver records it."""
    return scores.record_play(ranked_play(player, **figures))


def post_move(client: APIClient, play: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/plays/{play['id']}/moves", {"seq": play["seq"], "move": move}, format="json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def via_redis(read, attempts: int = 12):
    """``read()`` until Redis answered it.

    Other test sessions sharing Redis db 15 flush it (``cache.clear()`` is a FLUSHDB): a
    board can vanish mid-test, which the code under test survives by answering from
    PostgreSQL and rebuilding. A test that means to check the Redis path reads again.
    """
    for _ in range(attempts):
        result = read()
        if getattr(result, "source", None) == "redis" or (
            hasattr(result, "get") and result.get("X-Leaderboard-Source") == "redis"
        ):
            return result
    raise AssertionError(f"Redis never answered in {attempts} attempts")
