"""Groups: a private board of friends, joined by invite code.

Only members see a group; to anyone else it does not exist (``group_not_found``).
``?group=ID`` on a board ranks only its members (:func:`member_ids`, read from PostgreSQL).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count

from config.errors import DomainError

from .models import Group, Membership


def group_limit() -> int:
    return settings.LEADERBOARD_GROUP_MAX_MEMBERS


def _not_found() -> DomainError:
    return DomainError("group_not_found", "no such group (or you are not a member)")


def create_group(user: Any, name: str) -> Group:
    for _ in range(5):  # a code collision is astronomically rare; retry anyway
        try:
            with transaction.atomic():
                group = Group.objects.create(name=name, owner=user)
                Membership.objects.create(group=group, player=user)
                return group
        except IntegrityError:
            continue
    raise DomainError("try_again", "could not allocate an invite code, please retry")


def my_groups(user: Any):
    return Group.objects.filter(memberships__player=user).annotate(
        members_count=Count("memberships", distinct=True)
    )


def group_for(user: Any, group_id: Any) -> Group:
    """The group if ``user`` belongs to it; ``group_not_found`` otherwise (other groups do
    not exist)."""
    try:
        group_id = int(group_id)
    except (TypeError, ValueError):
        raise DomainError("invalid_group", "a group id is an integer") from None
    group = my_groups(user).filter(pk=group_id).first()
    if group is None:
        raise _not_found()
    return group


def join_group(user: Any, code: str) -> tuple[Group, bool]:
    """Join by invite code; (group, joined) — joined is False if already a member."""
    code = (code or "").strip().upper()
    with transaction.atomic():
        group = Group.objects.select_for_update().filter(code=code).first()
        if group is None:
            raise DomainError("invalid_invite_code", "no group has that invite code")
        if Membership.objects.filter(group=group, player=user).exists():
            return group_for(user, group.pk), False
        if group.memberships.count() >= group_limit():
            raise DomainError("group_full", f"a group has at most {group_limit()} members")
        Membership.objects.create(group=group, player=user)
    return group_for(user, group.pk), True


def leave_group(user: Any, group_id: Any) -> None:
    """Leave; the oldest remaining member becomes owner; an empty group is deleted."""
    group = group_for(user, group_id)
    with transaction.atomic():
        group = Group.objects.select_for_update().get(pk=group.pk)
        Membership.objects.filter(group=group, player=user).delete()
        rest = group.memberships.order_by("joined_at", "id").first()
        if rest is None:
            group.delete()
        elif group.owner_id == user.pk:
            group.owner_id = rest.player_id
            group.save(update_fields=["owner"])


def member_ids(group: Group) -> list[int]:
    return list(group.memberships.values_list("player_id", flat=True))
