"""Player profiles and streaks: ``GET /players/{username}`` and ``/players/me``.

Read from the scores in PostgreSQL: ranked plays, wins and win rate overall and per preset,
the current and best streak of UTC days with a won daily, the best rank per board on frozen
days and the best result per board.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Min, Q

from games import daily

from .models import Score


def streaks(won_days: list[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive UTC days in ``won_days``.

    The current streak is alive through today and yesterday: it ends at today if today is
    won, else at yesterday if yesterday is won, else it is 0.
    """
    days = sorted(set(won_days))
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    won = set(days)
    end = today if today in won else today - dt.timedelta(days=1)
    current = 0
    while end in won:
        current += 1
        end -= dt.timedelta(days=1)
    return current, best


def profile(user: Any, own: bool = False) -> dict[str, Any]:
    """``user``'s profile; hidden scores (leaderboard.moderation) count only in their ``own``."""
    scores = Score.objects.filter(player=user)
    if not own:
        scores = scores.filter(hidden=False)
    per_preset = []
    rows = scores.values("preset").annotate(
        plays=Count("play_id"), wins=Count("play_id", filter=Q(won=True))
    )
    for row in rows.order_by("preset"):
        per_preset.append(
            {
                "preset": row["preset"],
                "plays": row["plays"],
                "wins": row["wins"],
                "win_rate": round(row["wins"] / row["plays"], 4) if row["plays"] else 0.0,
            }
        )
    plays = sum(p["plays"] for p in per_preset)
    wins = sum(p["wins"] for p in per_preset)
    won_days = list(scores.filter(won=True).values_list("date", flat=True).distinct())
    current, best = streaks(won_days, daily.utc_today())

    best_ranks = []
    ranked = scores.filter(rank__isnull=False)
    for row in ranked.values("board").annotate(best=Min("rank")).order_by("board"):
        first = (
            ranked.filter(board=row["board"], rank=row["best"])
            .order_by("date")
            .values_list("date", flat=True)
            .first()
        )
        best_ranks.append({"board": row["board"], "rank": row["best"], "date": first})

    best_results = []
    for board in scores.order_by().values_list("board", flat=True).distinct():
        top = scores.filter(board=board).order_by("sort_key", "date").first()
        best_results.append(
            {
                "board": board,
                "date": top.date,
                "won": top.won,
                "foundation_cards": top.foundation_cards,
                "moves": top.moves,
                "seconds": round(top.seconds, 2),
            }
        )
    best_results.sort(key=lambda r: r["board"])
    return {
        "username": user.get_username(),
        "plays": plays,
        "wins": wins,
        "win_rate": round(wins / plays, 4) if plays else 0.0,
        "presets": per_preset,
        "current_streak": current,
        "best_streak": best,
        "last_win_date": max(won_days) if won_days else None,
        "best_ranks": best_ranks,
        "best_results": best_results,
    }
