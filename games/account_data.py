"""The games app's part of an account's deletion and export (``accounts.registry``).

Deletion: the account's plays are locked first, so a move in flight commits before the
account goes and a later one finds no play; the plays, their moves and the account's
idempotency keys then go with the user row (foreign keys, ``CASCADE``). Deals stay: a
deal is no one's personal data. Export: every play with its moves.
"""

from __future__ import annotations

from typing import Any

from accounts import deletion, registry

from .models import Move, Play


def lock_plays(user_id: int) -> None:
    list(Play.objects.select_for_update().filter(player_id=user_id).order_by("pk").values("pk"))


def export_plays(user_id: int) -> list[dict[str, Any]]:
    plays = Play.objects.filter(player_id=user_id).order_by("started_at", "pk")
    moves: dict[Any, list[dict[str, Any]]] = {}
    rows = Move.objects.filter(play__player_id=user_id).order_by("play_id", "seq")
    for play_id, seq, move, text, created_at in rows.values_list(
        "play_id", "seq", "move", "text", "created_at"
    ):
        moves.setdefault(play_id, []).append(
            {"seq": seq, "move": move, "text": text, "at": created_at.isoformat()}
        )
    return [
        {
            "id": str(play.pk),
            "preset": play.preset,
            "options": play.options,
            "ranked": play.ranked,
            "daily_date": play.daily_date.isoformat() if play.daily_date else None,
            "status": play.status,
            "started_at": play.started_at.isoformat(),
            "finished_at": play.finished_at.isoformat() if play.finished_at else None,
            "foundation_cards": play.foundation_cards,
            "moves_count": play.moves_count,
            "undos": play.undos,
            "seconds": play.seconds,
            "moves": moves.get(play.pk, []),
        }
        for play in plays
    ]


def register() -> None:
    deletion.lock_first(lock_plays)
    registry.register_part("plays", export=export_plays)
