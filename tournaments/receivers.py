"""Scores move tournament boards: a live ``standings`` event for each running tournament
the player entered; a fair-play decision re-freezes the closed ones it touches."""

from __future__ import annotations

import logging
from typing import Any

from leaderboard.models import Score
from realtime import channels
from realtime.publishing import publish

from . import services, standings
from .models import Tournament

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
