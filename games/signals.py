"""Signals the games app sends; other apps (the leaderboard) connect to them.

``play_finished`` is sent with ``sender=Play`` and ``play=<Play>`` once the transaction that
ended a play (won, lost or resigned; ranked or practice) has committed, so a receiver never
sees a play that a rollback later takes back. ``games`` imports no receiver: dependencies
point from ``leaderboard`` to ``games``, never back.

The others say what the service did, for the metrics (``games.instrumentation``):

* ``moves_applied`` (``sender=Play``, ``preset``, ``count``): a request's moves committed;
* ``move_refused`` (``sender=Play``, ``code``, ``rule``): a move request refused by the
  service with a ``DomainError`` (``rule``: the engine's rule code of an ``illegal_move``,
  else ``""``);
* ``deal_prepared`` (``sender=Deal``, ``deal``, ``seconds``): a daily deal searched for and
  stored by this process (``deal.attempts`` are the candidates rejected before it).
"""

from django.dispatch import Signal

play_finished = Signal()
moves_applied = Signal()
move_refused = Signal()
deal_prepared = Signal()
