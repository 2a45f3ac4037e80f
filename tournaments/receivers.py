"""Results move tournament boards: a live ``standings`` event for each running tournament
the player entered; a fair-play decision re-freezes the closed ones it touches.

A daily tournament hears the leaderboard's scores; a seeded one hears the games app's
``play_finished`` of its own deal and fair play's decisions (its plays have no score).
A seeded tournament's deal is queued for preparation once the tournament is saved."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from fairplay.models import ReviewDecision
from games.models import Play, Source
from leaderboard.models import Score
from realtime import channels
from realtime.publishing import publish

from . import preparer, services, standings
from .models import DealRule, Tournament, TournamentDeal

log = logging.getLogger(__name__)


def _touched(score: Score) -> Any:
    return Tournament.objects.filter(
        entries__player_id=score.player_id,
        board=score.board,
        starts_at__lte=score.finished_at,
        ends_at__gt=score.finished_at,
    )


def publish_standings(tournament: Tournament) -> None:
    top = [place.as_dict() for place in standings.current(tournament) if place.rank][:50]
    publish(channels.tournament(tournament.pk), "standings", {"standings": top})


def on_score_recorded(sender: Any, score: Score, **kwargs: Any) -> None:
    try:
        if Score.objects.filter(play_id=score.play_id, hidden=True).exists():
            return  # on no board but its owner's
        for tournament in _touched(score):
            publish_standings(tournament)
    except Exception:  # a board must never fail the play that finished
        log.exception("tournaments: could not publish the score of %s", score.play_id)


def on_scores_moderated(sender: Any, scores: list[Score], hidden: bool, **kwargs: Any) -> None:
    seen: set[int] = set()
    for score in scores:
        for tournament in _touched(score):
            if tournament.pk in seen:
                continue
            seen.add(tournament.pk)
            if tournament.frozen_at:
                services.freeze(tournament)
            publish_standings(tournament)


def on_tournament_saved(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    """Have a seeded tournament's deal prepared off the request after the commit (the
    admin, a group owner, an edit that made it seeded: ``preparer.queue``); the beat's
    sweep, or the in-process preparer's, catches what this misses."""
    if instance.deal_rule != DealRule.SEEDED:
        return
    if TournamentDeal.objects.filter(tournament_id=instance.pk).exists():
        return
    tournament_id = instance.pk
    transaction.on_commit(lambda: preparer.queue(tournament_id))


def on_play_finished(sender: Any, play: Play, **kwargs: Any) -> None:
    """A seeded tournament's play ended: publish the standing of its tournament."""
    if not play.ranked or play.daily_date is not None:
        return
    try:
        if not Play.objects.filter(pk=play.pk, deal__source=Source.EVENT).exists():
            return
        running = Tournament.objects.filter(
            own_deal__deal_id=play.deal_id,
            entries__player_id=play.player_id,
            starts_at__lte=play.finished_at,
            ends_at__gt=play.finished_at,
        )
        for tournament in running:
            publish_standings(tournament)
    except Exception:  # a board must never fail the play that finished
        log.exception("tournaments: could not publish the play %s", play.pk)


def on_decision(sender: Any, instance: ReviewDecision, created: bool, **kwargs: Any) -> None:
    """Fair play decided about a player: their seeded tournaments follow (re-frozen if
    final), after the decision's commit."""
    if not created:
        return
    player_id = instance.player_id

    def follow() -> None:
        touched = Tournament.objects.filter(
            deal_rule=DealRule.SEEDED, entries__player_id=player_id
        ).order_by("pk")
        for tournament in touched:
            try:
                if tournament.frozen_at:
                    services.freeze(tournament)
                publish_standings(tournament)
            except Exception:  # the decision stands; the next freeze or result catches up
                log.exception("tournaments: could not follow a decision in %s", tournament.pk)

    transaction.on_commit(follow)
