"""The results a tournament's standing counts, whichever its deal rule.

* ``daily``: the leaderboard's visible scores of its board, finished inside the window;
* ``seeded``: the entrants' finished ranked plays of its own deal, finished inside the
  window, each scored by the leaderboard's own rules (``leaderboard.ranking``: the daily
  board's order, the points). They have no ``Score`` (they are on no daily board), so fair
  play's decisions are read from its log (:func:`hidden_plays`) with the leaderboard's
  meaning: a confirmed flag or a ban hides a result, a clear restores it unless the player
  is banned at the time.

Both in the order the standing counts them: by player, then finish time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from fairplay.models import Action, ReviewDecision
from games.models import Play, PlayStatus
from leaderboard import ranking
from leaderboard.models import Score

from .models import DealRule, Tournament, TournamentDeal


@dataclass(frozen=True)
class Result:
    player_id: int
    won: bool
    points: int
    moves: int
    sort_key: int


def counted(tournament: Tournament) -> list[Result]:
    if tournament.deal_rule == DealRule.SEEDED:
        return _seeded(tournament)
    return [Result(s.player_id, s.won, s.points, s.moves, s.sort_key) for s in _scores(tournament)]


def _scores(tournament: Tournament) -> Any:
    return Score.objects.filter(
        board=tournament.board,
        hidden=False,
        finished_at__gte=tournament.starts_at,
        finished_at__lt=tournament.ends_at,
        player__tournament_entries__tournament=tournament,
    ).order_by("player_id", "finished_at", "play_id")


def seeded_plays(tournament: Tournament) -> Any:
    """The entrants' finished ranked plays of the tournament's deal inside its window."""
    deal = TournamentDeal.objects.filter(tournament=tournament).values("deal_id")
    return (
        Play.objects.filter(
            deal_id__in=deal,
            ranked=True,
            finished_at__gte=tournament.starts_at,
            finished_at__lt=tournament.ends_at,
            player__tournament_entries__tournament=tournament,
        )
        .exclude(status__in=(PlayStatus.PLAYING, PlayStatus.EXPIRED))
        .order_by("player_id", "finished_at", "id")
    )


def _seeded(tournament: Tournament) -> list[Result]:
    plays = list(seeded_plays(tournament))
    hidden = hidden_plays(plays)
    day = tournament.starts_at.date()
    found = []
    for play in plays:
        if play.pk in hidden:
            continue
        won = play.status == PlayStatus.WON
        seconds = play.seconds or 0.0
        key = ranking.daily_key(
            ranking.DailyResult(
                won, play.foundation_cards, play.moves_count, seconds, play.finished_at, day
            )
        )
        points = ranking.points(won, play.foundation_cards)
        found.append(Result(play.player_id, won, points, play.moves_count, key))
    return found


def hidden_plays(plays: Iterable[Play]) -> set[Any]:
    """The ids of ``plays`` that fair play's decisions hide (module doc)."""
    owner = {play.pk: play.player_id for play in plays}
    if not owner:
        return set()
    log = ReviewDecision.objects.filter(
        Q(play_id__in=owner, action__in=(Action.CONFIRM, Action.CLEAR))
        | Q(player_id__in=set(owner.values()), action__in=(Action.BAN, Action.UNBAN))
    ).order_by("created_at", "id")
    banned: set[int] = set()
    hidden: set[Any] = set()
    for action, play_id, player_id in log.values_list("action", "play_id", "player_id"):
        if action == Action.BAN:
            banned.add(player_id)
            hidden |= {pk for pk, who in owner.items() if who == player_id}
        elif action == Action.UNBAN:
            banned.discard(player_id)
        elif action == Action.CONFIRM:
            hidden.add(play_id)
        elif player_id not in banned:  # a clear
            hidden.discard(play_id)
    return hidden
