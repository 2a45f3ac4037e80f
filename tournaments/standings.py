"""A tournament's standing: live (computed from the scores) or frozen (its Standing rows).

Counted: each entrant's visible results (fair play's hidden ones never: ``results``),
finished inside its window, the first ``attempts`` of them by finish time: the scores on
the tournament's board (``daily``) or the ranked plays of its own deal (``seeded``). Orders:

* ``best``: the best single result by the daily board's key (a win first, then fewer
  seconds and moves; else more foundation cards);
* ``sum``: the most points over the attempts (a win 52, else foundation cards), then
  fewer plays;
* ``fewest_moves``: the fewest moves of a win (no win: after every winner, by points).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from . import results
from .models import Entry, Scoring, Standing, Tournament

NO_KEY = 2**62


@dataclass
class Place:
    player_id: int
    username: str
    plays: int = 0
    wins: int = 0
    points: int = 0
    moves: int | None = None  # fewest moves of a win
    best_key: int = NO_KEY
    rank: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "username": self.username,
            "plays": self.plays,
            "wins": self.wins,
            "points": self.points,
            "moves": self.moves,
        }


def _order(tournament: Tournament, place: Place) -> tuple[Any, ...]:
    if tournament.scoring == Scoring.SUM:
        return (-place.points, place.plays, place.username)
    if tournament.scoring == Scoring.FEWEST_MOVES:
        return (place.moves is None, place.moves or 0, -place.points, place.username)
    return (place.best_key, place.username)


def live(tournament: Tournament) -> list[Place]:
    """Every entrant's place now (entrants without a counted play last, unranked 0)."""
    names = dict(
        get_user_model()
        .objects.filter(tournament_entries__tournament=tournament)
        .values_list("pk", "username")
    )
    places = {pk: Place(pk, name) for pk, name in names.items()}
    for score in results.counted(tournament):
        place = places.get(score.player_id)
        if place is None or place.plays >= tournament.attempts:
            continue
        place.plays += 1
        place.wins += int(score.won)
        place.points += score.points
        place.best_key = min(place.best_key, score.sort_key)
        if score.won and (place.moves is None or score.moves < place.moves):
            place.moves = score.moves
    played = sorted((p for p in places.values() if p.plays), key=lambda p: _order(tournament, p))
    for rank, place in enumerate(played, start=1):
        place.rank = rank
    idle = sorted((p for p in places.values() if not p.plays), key=lambda p: p.username)
    return played + idle


def frozen(tournament: Tournament) -> list[Place]:
    rows = Standing.objects.filter(tournament=tournament).select_related("player")
    return [
        Place(r.player_id, r.player.username, r.plays, r.wins, r.points, r.moves, rank=r.rank)
        for r in rows
    ]


def current(tournament: Tournament) -> list[Place]:
    return frozen(tournament) if tournament.frozen_at else live(tournament)


def entrants(tournament: Tournament) -> int:
    return Entry.objects.filter(tournament=tournament).count()
