"""Reads of fair play: the published replays of a day's top plays (the review queue is the
admin's list of :class:`fairplay.models.Review`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from games import engine
from games.models import Deal, Move, Source
from leaderboard.models import Score


def top_replays(day: dt.date, rules: engine.Rules, limit: int) -> dict[str, Any]:
    """The ``limit`` best visible plays of ``day`` on the board of ``rules``, each with its
    whole move log (seconds since the play's start per row), and the day's deck. Only for a
    published day (:func:`games.daily.is_published`): the caller checks."""
    deal = Deal.objects.filter(source=Source.DAILY, date=day, preset=rules.name).first()
    scores = list(
        Score.objects.filter(board=rules.key, date=day, hidden=False)
        .select_related("player", "play")
        .order_by("sort_key", "play_id")[:limit]
    )
    logs: dict[Any, list[dict[str, Any]]] = {score.play_id: [] for score in scores}
    rows = Move.objects.filter(play_id__in=list(logs)).order_by("play_id", "seq")
    started = {score.play_id: score.play.started_at for score in scores}
    for play_id, seq, move, text, at in rows.values_list(
        "play_id", "seq", "move", "text", "created_at"
    ):
        seconds = round((at - started[play_id]).total_seconds(), 3)
        logs[play_id].append({"seq": seq, "move": move, "text": text, "seconds": seconds})
    return {
        "date": day,
        "preset": rules.name,
        "board": rules.key,
        "deck": list(deal.deck) if deal is not None else None,
        "par": deal.par if deal is not None else None,
        "replays": [
            {
                "rank": rank,
                "username": score.player.get_username(),
                "won": score.won,
                "foundation_cards": score.foundation_cards,
                "moves": score.moves,
                "seconds": round(score.seconds, 2),
                "undos": score.undos,
                "log": logs[score.play_id],
            }
            for rank, score in enumerate(scores, start=1)
        ],
    }
