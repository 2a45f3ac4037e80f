"""The games signals fair play listens to (connected in ``FairPlayConfig.ready``)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction

from games.models import Play

from . import services

log = logging.getLogger(__name__)


def refuse_banned(sender: Any, player: Any, **kwargs: Any) -> None:
    """``ranked_start_requested``: a banned account's ranked start is a 403."""
    services.refuse_if_banned(player)


def on_play_started(sender: Any, play: Play, client_keys: Mapping[str, str], **kwargs: Any) -> None:
    """``play_started``: keep the hashed keys of a ranked play (one insert, off the move path)."""
    try:
        services.record_start(play, client_keys)
    except Exception:  # the play stands; its analysis records what it can without the keys
        log.exception("fairplay: could not record the start of %s", play.pk)


def on_play_finished(sender: Any, play: Play, **kwargs: Any) -> None:
    """``play_finished``: analyse a ranked play in a Celery task once the commit is done."""
    if not play.ranked or not settings.FAIRPLAY_ANALYSE:
        return
    from .tasks import analyse_play

    play_id = str(play.pk)

    def queue() -> None:
        try:
            analyse_play.delay(play_id)
        except Exception:  # a broker outage, or (eagerly run) the analysis itself
            log.exception("fairplay: could not analyse play %s", play_id)

    transaction.on_commit(queue)
