"""The leaderboard's signals become events on the channels who may see them.

* a recorded score: its owner's channel always; if it is visible (not hidden by fair play),
  its board's channel and the channel of each group its owner belongs to;
* a fair-play decision: the boards touched get a fresh top (a hidden score leaves it, a
  restored one comes back); nobody's own channel hears of it (shadow hiding).
"""

from __future__ import annotations

import logging
from typing import Any

from leaderboard.models import Membership, Score
from leaderboard.refs import BoardRef

from . import channels, events
from .publishing import publish

log = logging.getLogger(__name__)


def on_score_recorded(sender: Any, score: Score, **kwargs: Any) -> None:
    try:
        _publish_score(score)
    except Exception:  # a stream must never fail the play that finished
        log.exception("realtime: could not publish the score of %s", score.play_id)


def _publish_score(score: Score) -> None:
    # Read again: fair play may have hidden it since (an account too young, a ban).
    score = Score.objects.filter(play_id=score.play_id).first() or score
    result = events.result_of(score)
    publish(channels.player(score.player_id), "score", {**result, "play": str(score.play_id)})
    if score.hidden:
        return
    ref = BoardRef.daily(score.board, score.date)
    publish(channels.board(score.board, score.date), "board", events.board_update(ref, score))
    username = events.username_of(score.player_id)
    groups = Membership.objects.filter(player_id=score.player_id).values_list("group_id", flat=True)
    for group_id in groups:
        publish(channels.group(group_id), "finish", {**result, "username": username})


def on_scores_moderated(sender: Any, scores: list[Score], hidden: bool, **kwargs: Any) -> None:
    try:
        for board, day in sorted({(s.board, s.date) for s in scores}):
            ref = BoardRef.daily(board, day)
            publish(channels.board(board, day), "board", events.board_update(ref, None))
    except Exception:
        log.exception("realtime: could not publish a fair-play decision")
