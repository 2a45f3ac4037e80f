"""What the leaderboard tells apps above it (the live streams, tournaments).

Both are sent after the commit of the transaction that made the change, so a receiver
reads what every other process reads. Receivers must not fail the sender: a stream that
cannot publish logs and drops the event (clients re-read the board when they resume).
"""

from django.dispatch import Signal

#: A finished ranked play was scored: ``score`` (a :class:`leaderboard.models.Score`).
score_recorded = Signal()

#: Fair play hid or restored scores: ``scores`` (the changed rows), ``hidden`` (bool).
scores_moderated = Signal()
