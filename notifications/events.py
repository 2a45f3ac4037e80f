"""The three events and their payloads (docs/operations/notifications.md).

Each payload names players by id (the push relay maps ids to its device tokens), never a
secret, a deck or a hidden card. Each event has a key that makes it once:

* ``daily_ready`` — today's daily of a preset is ready: ``daily_ready:<day>:<preset>``;
* ``friend_beat`` — a member of one of your groups beat your score on a board of the day:
  ``friend_beat:<their play>:<you>`` (one per beating play and beaten player);
* ``streak_ends`` — your streak of won dailies ends tonight unless you win today's:
  ``streak_ends:<day>:<you>``.
"""

from __future__ import annotations

import datetime as dt

from games import daily
from games.models import Deal
from leaderboard import profiles
from leaderboard.models import Membership, Score

from .outbox import publish


def daily_ready(deal: Deal) -> bool:
    """Announce ``deal`` if it is today's (days prepared ahead wait for their day)."""
    if deal.date != daily.utc_today():
        return False
    data = {"date": deal.date.isoformat(), "preset": deal.preset}
    key = f"daily_ready:{deal.date.isoformat()}:{deal.preset}"
    return publish(key, "daily_ready", data) is not None


def announce_today() -> int:
    """Announce today's stored dailies not announced yet (the beat's catch-up after midnight:
    the deals were prepared days ahead, when no event could be sent)."""
    return sum(daily_ready(deal) for deal in daily.stored_deals(daily.utc_today()))


def friend_beats(score: Score) -> int:
    """Tell each group mate whose score on the same board and day ``score`` beats."""
    if score.hidden:  # a hidden score is on nobody else's board
        return 0
    groups = Membership.objects.filter(player_id=score.player_id).values("group_id")
    mates = (
        Membership.objects.filter(group_id__in=groups)
        .exclude(player_id=score.player_id)
        .values("player_id")
    )
    beaten = (
        Score.objects.filter(
            board=score.board,
            date=score.date,
            player_id__in=mates,
            hidden=False,
            sort_key__gt=score.sort_key,  # lower is better
        )
        .order_by("player_id")
        .values_list("player_id", flat=True)
        .distinct()
    )
    sent = 0
    for player_id in beaten:
        data = {
            "player_id": player_id,
            "friend_id": score.player_id,
            "board": score.board,
            "preset": score.preset,
            "date": score.date.isoformat(),
            "friend_won": score.won,
            "friend_foundation_cards": score.foundation_cards,
        }
        key = f"friend_beat:{score.play_id}:{player_id}"
        sent += publish(key, "friend_beat", data) is not None
    return sent


def streaks_ending(day: dt.date) -> int:
    """Warn every player who won a daily yesterday and none yet on ``day``."""
    yesterday = day - dt.timedelta(days=1)
    won_today = Score.objects.filter(date=day, won=True).values("player_id")
    players = (
        Score.objects.filter(date=yesterday, won=True)
        .exclude(player_id__in=won_today)
        .order_by("player_id")
        .values_list("player_id", flat=True)
        .distinct()
    )
    midnight = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    sent = 0
    for player_id in players:
        won_days = list(
            Score.objects.filter(player_id=player_id, won=True, date__lt=day)
            .values_list("date", flat=True)
            .distinct()
        )
        streak, _ = profiles.streaks(won_days, day)
        data = {
            "player_id": player_id,
            "date": day.isoformat(),
            "streak": streak,
            "ends_at": midnight.isoformat(),  # a ranked daily must start before
        }
        key = f"streak_ends:{day.isoformat()}:{player_id}"
        sent += publish(key, "streak_ends", data) is not None
    return sent
