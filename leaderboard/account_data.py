"""The leaderboard's part of an account's deletion and export (``accounts.registry``).

Deletion removes the account's scores and totals and rebuilds every board they were on,
rather than keeping them under an anonymous name: a score is a record of what one person
did, an anonymous row would still be theirs by its day, time and moves, and a board of
"deleted player" rows helps nobody. The daily boards of frozen days are frozen again, so
their ranks stay 1, 2, 3 without a gap. The Redis boards are rebuilt from PostgreSQL once
the deletion commits, so the two agree again; a Redis outage at that moment leaves them
to the catch-up (its rebuild of missing boards) or the next rebuild.

Groups: a group the account owned passes to its oldest remaining member (by joining time),
or is deleted with its last member. The account's memberships go with the user row.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts import registry

from . import freezing, profiles, rebuilding, store
from .models import FrozenDay, Group, Membership, Score, Total
from .refs import BoardRef
from .scores import refs_of

log = logging.getLogger(__name__)


def delete_scores(user_id: int) -> None:
    scores = Score.objects.filter(player_id=user_id)
    refs: set[BoardRef] = set()
    for score in scores.only("board", "date", "week"):
        refs.update(refs_of(score))
    scores.delete()
    Total.objects.filter(player_id=user_id).delete()
    for ref in refs:
        if ref.is_daily and FrozenDay.objects.filter(board=ref.board, date=ref.day).exists():
            freezing.freeze(ref)
    transaction.on_commit(lambda: _rebuild(refs))


def _rebuild(refs: set[BoardRef]) -> None:
    if not store.configured():
        return
    for ref in refs:
        try:
            rebuilding.rebuild(ref)
        except Exception:  # Redis away: the boards are rebuilt when it is back
            log.warning("leaderboard: could not rebuild %s after a deletion", ref.redis_key)


def hand_on_groups(user_id: int) -> None:
    for group in Group.objects.select_for_update().filter(owner_id=user_id):
        heir = (
            Membership.objects.filter(group=group)
            .exclude(player_id=user_id)
            .order_by("joined_at", "id")
            .first()
        )
        if heir is None:
            group.delete()
        else:
            Group.objects.filter(pk=group.pk).update(owner_id=heir.player_id)


def delete_part(user_id: int) -> None:
    hand_on_groups(user_id)
    delete_scores(user_id)


def export_part(user_id: int) -> dict[str, Any]:
    user = get_user_model().objects.get(pk=user_id)
    scores = Score.objects.filter(player_id=user_id).order_by("date", "board")
    memberships = Membership.objects.filter(player_id=user_id).select_related("group")
    return {
        "profile": profiles.profile(user, own=True),
        "scores": [
            {
                "play": str(score.play_id),
                "board": score.board,
                "date": score.date.isoformat(),
                "won": score.won,
                "foundation_cards": score.foundation_cards,
                "moves": score.moves,
                "seconds": score.seconds,
                "points": score.points,
                "rank": score.rank,
                "finished_at": score.finished_at.isoformat(),
            }
            for score in scores
        ],
        "groups": [
            {
                "id": membership.group_id,
                "name": membership.group.name,
                "owner": membership.group.owner_id == user_id,
                "joined_at": membership.joined_at.isoformat(),
            }
            for membership in memberships
        ],
    }


def register() -> None:
    registry.register_part("leaderboard", export=export_part, delete=delete_part)
