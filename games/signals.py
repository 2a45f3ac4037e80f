"""Signals the games app sends; other apps (the leaderboard, fair play, notifications)
connect to them.

* ``play_finished`` is sent with ``sender=Play`` and ``play=<Play>`` once the transaction
  that ended a play (won, lost or resigned; ranked or practice) has committed, so a receiver
  never sees a play that a rollback later takes back.
* ``ranked_start_requested`` is sent with ``sender=Play``, ``player=<user>``, ``preset`` and
  ``day`` before a ranked play is created; a receiver refuses the start by raising
  ``config.errors.DomainError`` (fair play refuses a banned account this way).
* ``play_started`` is sent with ``sender=Play``, ``play=<Play>`` and ``client_keys`` (a
  mapping of the web layer's keyed hashes of the client's address and device, never the raw
  values: :mod:`config.web.clientkeys`) once the transaction that created the play has
  committed.
* ``daily_prepared`` is sent with ``sender=Deal`` and ``deal=<Deal>`` once a daily deal of
  (day, preset) has been stored for the first time (never for a deal that was already
  there), outside any transaction; a receiver must not raise (the deal stands).

``games`` imports no receiver: dependencies point from ``leaderboard`` and ``fairplay`` to
``games``, never back.
"""

from django.dispatch import Signal

play_finished = Signal()
ranked_start_requested = Signal()
play_started = Signal()
daily_prepared = Signal()
