"""What accounts tell the apps above them (they import none of those apps).

``account_renamed``: an account's name changed (a guest was linked), sent once the change
is committed, with ``user_id``, ``old`` and ``new``. The leaderboard rebuilds the boards
that show the old name beside the account's scores.
"""

from django.dispatch import Signal

account_renamed = Signal()
