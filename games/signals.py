"""Signals the games app sends; other apps (the leaderboard, fair play, notifications)
connect to them.

* ``play_finished`` is sent with ``sender=Play`` and ``play=<Play>`` once the transaction
  that ended a play (won, lost or resigned; ranked or practice) has committed, so a receiver
  never sees a play that a rollback later takes back.
* ``ranked_start_requested`` is sent with ``sender=Play``, ``player=<user>``, ``preset`` and
  ``day`` (None for an event's own deal, a seeded tournament's) before a ranked play is
  created; a receiver refuses the start by raising
  ``config.errors.DomainError`` (fair play refuses a banned account this way).
* ``play_started`` is sent with ``sender=Play``, ``play=<Play>`` and ``client_keys`` (a
  mapping of the web layer's keyed hashes of the client's address and device, never the raw
  values: :mod:`config.web.clientkeys`) once the transaction that created the play has
  committed.
* ``deal_prepared`` is sent with ``sender=Deal``, ``deal=<Deal>`` and ``seconds`` (its
  search) once a daily deal of (day, preset) has been searched for and stored for the first
  time by this process (never for a deal that was already there; ``deal.attempts`` are the
  candidates rejected before it), outside any transaction, robustly: a receiver's error is
  logged and the deal stands (notifications announce it, the metrics count it).

``games`` imports no receiver: dependencies point from ``leaderboard`` and ``fairplay`` to
``games``, never back.

The others say what the service did, for the metrics (``games.instrumentation``):

* ``moves_applied`` (``sender=Play``, ``preset``, ``count``): a request's moves committed;
* ``move_refused`` (``sender=Play``, ``code``, ``rule``): a move request refused by the
  service with a ``DomainError`` (``rule``: the engine's rule code of an ``illegal_move``,
  else ``""``);
"""

from django.dispatch import Signal

play_finished = Signal()
ranked_start_requested = Signal()
play_started = Signal()
deal_prepared = Signal()
moves_applied = Signal()
move_refused = Signal()
