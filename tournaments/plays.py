"""Starting a ranked play of a seeded tournament's own deal.

The tournament decides who may play and how often; ``games.services.start_event_play``
makes the ranked play (fair play's ban refusal and evidence as for a daily). Refusals, in
the order they are checked:

=============================  ======  ====================================================
``tournament_not_found``       404     no such tournament, or a group's and not a member
``tournament_not_seeded``      409     a daily tournament: play the day's daily instead
``tournament_not_joined``      403     the caller is no entrant
``tournament_not_started``     409     before the window (``starts_at`` in the problem)
``tournament_over``            409     after the window (``ended_at``)
``tournament_deal_not_ready``  409     the deal is still being prepared (a retry later will do)
``tournament_attempts_used``   409     every attempt started already (``attempts``)
=============================  ======  ====================================================

An entrant's starts are taken one at a time (their entry's row is locked), so two
simultaneous starts never exceed the attempts.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import DomainError
from games import services as plays
from games.models import Play

from . import preparer, seeding, services
from .models import DealRule, Entry


def start(user: Any, tournament_id: Any, client_keys: dict[str, str] | None = None) -> Play:
    """A new ranked play of the tournament's deal for the caller (module doc)."""
    with transaction.atomic():
        tournament = services.get(user, tournament_id)
        if tournament.deal_rule != DealRule.SEEDED:
            raise DomainError(
                "tournament_not_seeded",
                "this tournament is played on the daily deals: start today's daily",
            )
        entry = Entry.objects.select_for_update().filter(tournament=tournament, player_id=user.pk)
        if not entry.exists():
            raise DomainError("tournament_not_joined", "join the tournament before playing it")
        now = timezone.now()
        if now < tournament.starts_at:
            raise DomainError(
                "tournament_not_started",
                "the tournament's window has not opened yet",
                starts_at=tournament.starts_at,
            )
        if now >= tournament.ends_at:
            raise DomainError(
                "tournament_over", "the tournament's window is over", ended_at=tournament.ends_at
            )
        deal = seeding.own_deal(tournament)
        if deal is None:
            preparer.wake()  # without a broker: whichever process this is, prepare it
            raise DomainError(
                "tournament_deal_not_ready", "the tournament's deal is still being prepared"
            )
        used = Play.objects.filter(deal=deal, player_id=user.pk).count()
        if used >= tournament.attempts:
            raise DomainError(
                "tournament_attempts_used",
                "every attempt of this tournament has been played",
                attempts=tournament.attempts,
            )
        return plays.start_event_play(user, deal, client_keys=client_keys)
