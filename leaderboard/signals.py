"""What the leaderboard tells apps above it (notifications, the live streams, tournaments).

* ``score_written`` is sent with ``sender=Score`` and ``score=<Score>`` inside the
  transaction that wrote a ranked play's first :class:`~leaderboard.models.Score` (never for
  a score that was already there), so a receiver that writes rows of its own (the
  notification outbox) commits or rolls back with the score. A receiver must not break the
  score: it keeps its own writes in a savepoint and swallows its own failures.
* ``score_recorded`` (``score``) and ``scores_moderated`` (``scores``, the changed rows, and
  ``hidden``) are sent after the commit of the transaction that made the change, so a
  receiver reads what every other process reads. Receivers must not fail the sender: a
  stream that cannot publish logs and drops the event (clients re-read the board when they
  resume).

``leaderboard`` imports no receiver: dependencies point to it, never back.
"""

from django.dispatch import Signal

score_written = Signal()
score_recorded = Signal()
scores_moderated = Signal()
