"""Winnability: the solver on the cluster, and what it knows given to players.

* :mod:`.runs` solves chunks of seeds and stores one :class:`.models.DealResult` per deal;
  :mod:`.tasks` is its Celery task, :mod:`.fanout` the ``manage.py winnability`` driver that
  plans the chunks, sends them and follows the progress;
* :mod:`.csvfile` exports and imports the results (``data/winnability.csv``);
* :mod:`.tables` summarises them (won/lost/unknown per budget, Wilson interval, times);
* :mod:`.selectors` gives ``/api/v1/presets`` each preset's winnable share;
* :mod:`.hints` answers ``POST /api/v1/plays/{id}/hint``.
"""
