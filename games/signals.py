"""Signals the games app sends; other apps (the leaderboard) connect to them.

``play_finished`` is sent with ``sender=Play`` and ``play=<Play>`` once the transaction that
ended a play (won, lost or resigned; ranked or practice) has committed, so a receiver never
sees a play that a rollback later takes back. ``games`` imports no receiver: dependencies
point from ``leaderboard`` to ``games``, never back.
"""

from django.dispatch import Signal

play_finished = Signal()
