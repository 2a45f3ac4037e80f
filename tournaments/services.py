"""Creating, joining and freezing tournaments; the beat's weekly cup.

Refusals are domain errors with catalogued codes: ``tournament_not_found`` (also a group's
tournament for a non-member), ``tournament_closed`` (a join outside the join window),
``tournament_full`` (the cap reached), ``not_group_owner`` (only a group's owner creates
its tournaments), ``invalid_tournament`` (a window or size that makes no sense).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from config.errors import DomainError
from games import engine
from leaderboard.models import Group, Membership

from . import standings
from .models import Entry, Scoring, Standing, Tournament

log = logging.getLogger(__name__)

MAX_PLAYERS = 1000
MAX_ATTEMPTS = 50
MAX_DAYS = 31


def visible_to(user: Any) -> QuerySet[Tournament]:
    """Open tournaments, and those of the caller's groups."""
    mine = Membership.objects.filter(player_id=user.pk).values("group_id")
    return Tournament.objects.filter(Q(group__isnull=True) | Q(group_id__in=mine))


def get(user: Any, tournament_id: Any) -> Tournament:
    found = visible_to(user).filter(pk=tournament_id).first()
    if found is None:
        raise DomainError("tournament_not_found", "no such tournament")
    return found


def create(user: Any, group_id: int, **fields: Any) -> Tournament:
    """A group owner's tournament for their group (an operator uses the admin)."""
    group = Group.objects.filter(pk=group_id, owner_id=user.pk).first()
    if group is None:
        raise DomainError("not_group_owner", "only the group's owner creates its tournaments")
    return build(owner=user, group=group, **fields)


def build(**fields: Any) -> Tournament:
    """Validate and save (the beat uses it as the API does)."""
    board, join_until, options = validate(fields)
    return Tournament.objects.create(
        **{**fields, "join_until": join_until, "options": options, "board": board}
    )


def validate(fields: dict[str, Any]) -> tuple[str, dt.datetime, dict[str, Any]]:
    """The board (rules key), the end of the join window and the options of ``fields``;
    ``invalid_tournament`` for a window, size or rule set that makes no sense."""
    starts, ends = fields["starts_at"], fields["ends_at"]
    join_until = fields.get("join_until") or ends
    if not starts < ends or ends - starts > dt.timedelta(days=MAX_DAYS):
        raise DomainError("invalid_tournament", f"a window runs forward, {MAX_DAYS} days at most")
    if not join_until <= ends:
        raise DomainError("invalid_tournament", "joins close before the window ends")
    if not 2 <= fields.get("max_players", 100) <= MAX_PLAYERS:
        raise DomainError("invalid_tournament", f"max_players is from 2 to {MAX_PLAYERS}")
    if not 1 <= fields.get("attempts", 1) <= MAX_ATTEMPTS:
        raise DomainError("invalid_tournament", f"attempts is from 1 to {MAX_ATTEMPTS}")
    options = fields.get("options") or {}
    try:
        rules = engine.get_rules(fields["preset"], options)
    except engine.RulesError as error:
        raise DomainError("invalid_tournament", str(error)) from None
    return rules.key, join_until, options


def join(user: Any, tournament_id: Any) -> tuple[Tournament, bool]:
    """Enter the caller (True if new; joining twice is no error)."""
    with transaction.atomic():
        tournament = get(user, tournament_id)
        # One join at a time per tournament, so the cap holds under concurrent joins.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if Entry.objects.filter(tournament=tournament, player_id=user.pk).exists():
            return tournament, False
        now = timezone.now()
        if now > tournament.join_until or now >= tournament.ends_at:
            raise DomainError(
                "tournament_closed", "the join window is over", closed_at=tournament.join_until
            )
        if standings.entrants(tournament) >= tournament.max_players:
            raise DomainError(
                "tournament_full", "the tournament is full", max_players=tournament.max_players
            )
        try:
            with transaction.atomic():
                Entry.objects.create(tournament=tournament, player_id=user.pk)
        except IntegrityError:
            return tournament, False
    return tournament, True


def freeze(tournament: Tournament) -> bool:
    """Write the final standing of a closed tournament; again after a fair-play decision
    (idempotent: the rows are replaced by the same computation). True if written."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if locked is None or timezone.now() < locked.ends_at:
            return False
        places = [p for p in standings.live(locked) if p.plays]
        Standing.objects.filter(tournament=locked).delete()
        Standing.objects.bulk_create(
            Standing(
                tournament=locked,
                player_id=p.player_id,
                rank=p.rank,
                plays=p.plays,
                wins=p.wins,
                points=p.points,
                moves=p.moves,
            )
            for p in places
        )
        Tournament.objects.filter(pk=locked.pk).update(frozen_at=locked.frozen_at or timezone.now())
    return True


def freeze_closed() -> int:
    """Freeze every closed tournament not frozen yet (the beat, each minute)."""
    due = Tournament.objects.filter(frozen_at__isnull=True, ends_at__lte=timezone.now())
    return sum(freeze(t) for t in due.order_by("ends_at")[:100])


def weekly_cup(preset: str, today: dt.date) -> Tournament:
    """This ISO week's cup of ``preset`` (created once, whoever asks twice)."""
    monday = today - dt.timedelta(days=today.weekday())
    year, week, _ = monday.isocalendar()
    starts = dt.datetime.combine(monday, dt.time(), tzinfo=dt.UTC)
    key = f"weekly-cup:{preset}:{year}-W{week:02d}"
    found = Tournament.objects.filter(recurrence=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return build(
                name=f"Weekly cup {year}-W{week:02d} ({preset})",
                preset=preset,
                starts_at=starts,
                ends_at=starts + dt.timedelta(days=7),
                join_until=starts + dt.timedelta(days=6),
                max_players=MAX_PLAYERS,
                attempts=7,
                scoring=Scoring.SUM,
                recurrence=key,
            )
    except IntegrityError:  # a second beat made it meanwhile
        return Tournament.objects.get(recurrence=key)
