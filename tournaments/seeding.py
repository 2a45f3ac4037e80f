"""A seeded tournament's own deal: derived from a secret series of its own, solver-checked.

One deal per tournament, the same for every entrant and every attempt. Candidate ``n`` is
the engine's seeded deck of

    HMAC-SHA256(key=DAILY_SECRET, msg="haven-tournament:v1:<tournament id>:<board>:<n>")

(``games.daily.secret_seed``: the dailies' derivation under another name, so no daily
candidate is ever a tournament's). The candidates go through the daily's own search
(``games.daily.search_candidates``: screening, full solves, the par) under an advisory lock
of the tournament (``games.daily.named_lock``), so two workers never solve one tournament
twice; the winner is stored as a games ``Deal`` of source ``event`` with its par and
solution, linked by a :class:`TournamentDeal`. Without the secret nobody predicts the deal.

While the tournament has not ended its deal is live: ``games.daily`` refuses it, in any
disguise, as a practice deck or a hint, with ``live_tournament_deal``. Its ranked plays
close at the tournament's end (:func:`deadline`): a move after it is ``ranked_play_expired``
and the expiry beat closes the untouched ones. From then on the deal is published
(``GET /tournaments/{id}/deal``). The three are one deadline, told to the games app
through its event-deal registry (:data:`EVENT_DEALS`, registered at ``ready()``).

No grace after the end, unlike a daily's midnight: a play finished after ``ends_at``
never counts in the standing, so moving on would only serve to look at a deal about to be
published.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Iterable
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import daily, engine, events
from games.models import Deal, Source

from .models import DealRule, Tournament, TournamentDeal

log = logging.getLogger(__name__)

SERIES_VERSION = "v1"


def series(tournament: Tournament) -> str:
    """The name of the tournament's candidate series (and of its lock)."""
    return f"haven-tournament:{SERIES_VERSION}:{tournament.pk}:{tournament.board}"


def candidate_seed(tournament: Tournament, attempt: int) -> int:
    return daily.secret_seed(series(tournament), attempt)


def own_deal(tournament: Tournament) -> Deal | None:
    """The tournament's stored deal, None before it is prepared (or for a daily one)."""
    found = TournamentDeal.objects.filter(tournament=tournament).select_related("deal").first()
    return found.deal if found else None


def prepare(tournament_id: int, *, lock_timeout: float | None = None) -> tuple[Deal | None, bool]:
    """The deal of seeded tournament ``tournament_id``, searched and stored if missing, and
    whether this call stored it (None for a tournament that is gone or not seeded).
    Idempotent; ``daily.DealLocked`` when another process holds its lock past
    ``lock_timeout``; ``daily.SolverFailed`` when the solver raised on every candidate."""
    tournament = Tournament.objects.filter(pk=tournament_id, deal_rule=DealRule.SEEDED).first()
    if tournament is None:
        return None, False
    deal = own_deal(tournament)
    if deal is not None:
        return deal, False
    with daily.named_lock(series(tournament), timeout=lock_timeout):
        deal = own_deal(tournament)  # whoever held the lock may have stored it
        if deal is not None:
            return deal, False
        rules = engine.get_rules(tournament.preset, tournament.options)
        seed_of = partial(candidate_seed, tournament)
        found = daily.search_candidates(rules, seed_of, f"tournament {tournament.pk}", None)
        try:
            with transaction.atomic():
                deal = Deal.objects.create(
                    preset=rules.name, options=dict(rules.options), source=Source.EVENT, **found
                )
                TournamentDeal.objects.create(tournament=tournament, deal=deal)
        except IntegrityError:  # the tournament went meanwhile
            return own_deal(tournament), False
    log.info(
        "tournament %s deal prepared: %s, par %s, %d rejected",
        tournament.pk,
        deal.verdict,
        deal.par,
        len(deal.attempts),
    )
    return deal, True


def live_deal_ids(now: dt.datetime | None = None) -> Iterable[uuid.UUID]:
    """The deals of every tournament not yet over at ``now`` (upcoming ones included: a
    deal is prepared before its window opens)."""
    moment = now or timezone.now()
    return TournamentDeal.objects.filter(tournament__ends_at__gt=moment).values_list(
        "deal_id", flat=True
    )


def deadline(tournament: Tournament) -> dt.datetime:
    """When the tournament's deal stops being live, its plays close and it is published."""
    return tournament.ends_at


def deal_deadline(deal_id: object) -> dt.datetime | None:
    """The deadline of the tournament whose deal is ``deal_id`` (None: no tournament's)."""
    ends = TournamentDeal.objects.filter(deal_id=deal_id).values_list(
        "tournament__ends_at", flat=True
    )
    return next(iter(ends), None)


#: How far back the expiry beat looks for tournaments that ended (as for the dailies: the
#: beat runs every minute; the rest covers a beat that was down).
CLOSED_LOOKBACK = dt.timedelta(days=14)


def closed_deal_ids(now: dt.datetime) -> Iterable[uuid.UUID]:
    """The deals of the tournaments that ended lately (their open plays are to close)."""
    ended = TournamentDeal.objects.filter(
        tournament__ends_at__lte=now, tournament__ends_at__gt=now - CLOSED_LOOKBACK
    )
    return ended.values_list("deal_id", flat=True)


def is_published(tournament: Tournament, now: dt.datetime | None = None) -> bool:
    """Whether the tournament's deal, par and solution may be shown: it has ended."""
    return (now or timezone.now()) >= deadline(tournament)


EVENT_DEALS = events.EventDeals(
    name="tournament",
    live=live_deal_ids,
    deadline=deal_deadline,
    closed=closed_deal_ids,
    refusal_code="live_tournament_deal",
    refusal_detail=(
        "this deal is a running tournament's deal; practise it once the tournament has ended"
    ),
)


def unprepared(now: dt.datetime | None = None) -> list[int]:
    """Seeded tournaments not over yet whose deal is missing (the beat queues them)."""
    moment = now or timezone.now()
    missing = Tournament.objects.filter(
        deal_rule=DealRule.SEEDED, ends_at__gt=moment, own_deal__isnull=True
    )
    return list(missing.order_by("starts_at").values_list("pk", flat=True)[:100])
