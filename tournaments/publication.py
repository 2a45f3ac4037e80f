"""A seeded tournament's deal made public once the tournament has ended.

As a past daily's deck, par and solution are shown once its day's ranked plays can no
longer move (``games.daily.window``), a seeded tournament's deal is shown once its plays
have closed: at its end (``seeding.deadline``, the same moment the live-deal refusal lets
it go and the move path expires its plays). Before that nothing of it leaves the server.

Refusals, in the order they are checked:

=================================  ======  ================================================
``tournament_not_found``           404     no such tournament, or a group's and not a member
``tournament_not_seeded``          409     a daily tournament: its deals are the dailies'
``tournament_deal_not_published``  409     not ended yet (``published_at`` in the problem)
``not_found``                      404     ended with no deal ever prepared
=================================  ======  ================================================
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from config.errors import DomainError
from games.models import Deal

from . import seeding, services
from .models import DealRule, Tournament


def published_deal(user: Any, tournament_id: Any) -> tuple[Tournament, Deal, dt.datetime]:
    """The tournament, its deal and when it was published (module doc for the refusals)."""
    tournament = services.get(user, tournament_id)
    if tournament.deal_rule != DealRule.SEEDED:
        raise DomainError(
            "tournament_not_seeded",
            "this tournament is played on the daily deals: read them at /api/v1/daily/{date}",
        )
    published_at = seeding.deadline(tournament)
    if timezone.now() < published_at:
        raise DomainError(
            "tournament_deal_not_published",
            "the tournament's deal is shown once the tournament has ended",
            published_at=published_at,
        )
    deal = seeding.own_deal(tournament)
    if deal is None:
        raise DomainError("not_found", "the tournament ended without a prepared deal")
    return tournament, deal, published_at
