"""Signals the leaderboard sends; apps above it (notifications) connect to them.

* ``score_recorded`` is sent with ``sender=Score`` and ``score=<Score>`` inside the
  transaction that wrote a ranked play's first :class:`~leaderboard.models.Score` (never for
  a score that was already there), so a receiver that writes rows of its own (an outbox)
  commits or rolls back with the score. A receiver must not break the score: it keeps its
  own writes in a savepoint and swallows its own failures.

``leaderboard`` imports no receiver: dependencies point to it, never back.
"""

from django.dispatch import Signal

score_recorded = Signal()
