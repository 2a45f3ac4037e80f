"""HTTP views of the leaderboards, player profiles and groups: parse, authorise, call
:mod:`leaderboard.boards`, :mod:`~leaderboard.profiles`, :mod:`~leaderboard.groups`, serialise.

One module a resource family (``boards``, ``players``, ``groups``); ``leaderboard.urls``
routes to them.
"""
