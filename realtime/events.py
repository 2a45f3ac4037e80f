"""What a stream says: payloads built from PostgreSQL and the boards, never from a play.

Nothing here reads a deal or a play's cards: a board event holds the public top of the
board (as ``GET /leaderboards/.../daily/{date}`` shows it to anyone, hidden scores left
out) and the rank of the entry that changed; a finish holds a player's result; a player's
own events hold their own results (a hidden one included: shadow hiding never tells).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from leaderboard import boards
from leaderboard.models import Score
from leaderboard.refs import BoardRef


def result_of(score: Score) -> dict[str, Any]:
    return {
        "preset": score.preset,
        "date": score.date.isoformat(),
        "won": score.won,
        "foundation_cards": score.foundation_cards,
        "moves": score.moves,
        "seconds": round(score.seconds, 2),
    }


def username_of(player_id: int) -> str | None:
    names = get_user_model().objects.filter(pk=player_id).values_list("username", flat=True)
    return names.first()


def top_of(ref: BoardRef) -> list[dict[str, Any]]:
    """The public top of a board (no viewer: nobody's hidden score is in it)."""
    return boards.read(ref, size=settings.REALTIME_TOP).entries


def rank_of(ref: BoardRef, player_id: int, viewer: int | None = None) -> int | None:
    """``player_id``'s rank on the board as ``viewer`` sees it (None: not on it)."""
    page = boards.read(ref, mode="around", me=player_id, size=0, viewer=viewer)
    if page.start < 0 or not page.entries:
        return None
    return int(page.entries[-1]["rank"])


def board_update(ref: BoardRef, changed: Score | None) -> dict[str, Any]:
    """A board's event: its top, and who moved (None after a fair-play decision)."""
    moved = None
    if changed is not None:
        moved = {
            "username": username_of(changed.player_id),
            "rank": rank_of(ref, changed.player_id),
        }
    return {"top": top_of(ref), "changed": moved}


def board_snapshot(ref: BoardRef, viewer: int) -> dict[str, Any]:
    return {"top": top_of(ref), "changed": None, "me": rank_of(ref, viewer, viewer)}
