"""From a play's stored log to what the detectors read (:class:`detectors.PlayRecord`).

Everything here is derived after the finish, so the move path pays nothing for it: the
seconds per move come from the log rows' ``created_at``, the reveal order from replaying the
log through the engine, the linked reveals from the logs of other accounts' plays of the
same deal that share this play's address or device key.
"""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games import engine
from games.models import Move, Play, PlayStatus

from .detectors import PastPlay, PlayRecord
from .models import PlayEvidence

HISTORY_LENGTH = 30  # earlier ranked plays the across-days detector sees


def move_seconds(started_at: dt.datetime, times: Sequence[dt.datetime]) -> list[float]:
    """Server-measured seconds from the previous row (the start for the first) to each row."""
    out, previous = [], started_at
    for at in times:
        out.append(round(max(0.0, (at - previous).total_seconds()), 3))
        previous = at
    return out


def _shown(view: Mapping[str, Any]) -> set[str]:
    cards = {card for column in view["tableau"] for card in column["up"]}
    cards |= {card for card in view["foundations"].values() if card}
    cards |= {card for card in view.get("cells", []) if card}
    return cards | set(view.get("waste", []))


def reveal_order(
    rules: engine.Rules, deck: Sequence[str], moves: Iterable[Mapping[str, Any]]
) -> list[str]:
    """The cards a log showed that the opening deal did not, in the order they appeared
    (cards shown by one move in card-name order). Undo rows step back; resign rows and
    anything past an inapplicable row are ignored."""
    states = [engine.new_game(rules, engine.parse_deck(list(deck)))]
    seen = _shown(engine.visible(states[0], with_moves=False))
    order: list[str] = []
    for row in moves:
        kind = row.get("type")
        if kind == "undo":
            if len(states) > 1:
                states.pop()
            continue
        if kind == "resign":
            continue
        try:
            state = engine.apply_move(states[-1], engine.Move.from_dict(dict(row)))
        except engine.EngineError:
            break
        states.append(state)
        shown = _shown(engine.visible(state, with_moves=False))
        order += sorted(shown - seen)
        seen |= shown
    return order


def log_of(
    play_id: Any, until: dt.datetime | None = None
) -> list[tuple[dict[str, Any], dt.datetime]]:
    rows = Move.objects.filter(play_id=play_id)
    if until is not None:
        rows = rows.filter(created_at__lte=until)
    return list(rows.order_by("seq").values_list("move", "created_at"))


def linked_reveals(play: Play, evidence: PlayEvidence) -> set[str]:
    """Cards that other accounts sharing this play's address or device key turned face up on
    the same deal before this play finished, within the retention window.

    Up to the finish, not the start: a second account playing alongside in another tab is
    as much a link as one that played before.
    """
    keys = Q()
    if evidence.address_key:
        keys |= Q(address_key=evidence.address_key)
    if evidence.device_key:
        keys |= Q(device_key=evidence.device_key)
    if not keys:
        return set()
    until = play.finished_at or timezone.now()
    since = until - dt.timedelta(days=settings.FAIRPLAY_RETENTION_DAYS)
    others = (
        PlayEvidence.objects.filter(keys, deal_id=play.deal_id, started_at__gte=since)
        .filter(started_at__lte=until)
        .exclude(player_id=play.player_id)
        .select_related("play")
    )
    cards: set[str] = set()
    for other in others:
        rules = engine.get_rules(other.play.preset, other.play.options)
        moves = [move for move, _ in log_of(other.play_id, until)]
        cards |= set(reveal_order(rules, play.deal.deck, moves))
    return cards


def history(play: Play) -> tuple[PastPlay, ...]:
    """The account's earlier finished ranked plays, newest first."""
    earlier = (
        Play.objects.filter(player_id=play.player_id, ranked=True, started_at__lt=play.started_at)
        .exclude(status=PlayStatus.PLAYING)
        .select_related("deal", "fairplay_evidence")
        .order_by("-started_at")[:HISTORY_LENGTH]
    )
    out = []
    for past in earlier:
        evidence = getattr(past, "fairplay_evidence", None)
        seconds = evidence.move_seconds if evidence is not None else []
        out.append(
            PastPlay(
                preset=past.preset,
                won=past.status == PlayStatus.WON,
                moves=past.moves_count,
                par=past.deal.par,
                undos=past.undos,
                first_attempt=True,  # a ranked play is the one attempt of its day
                median_move_seconds=statistics.median(seconds) if seconds else None,
            )
        )
    return tuple(out)


def play_record(
    play: Play, evidence: PlayEvidence, moves: Sequence[Mapping[str, Any]]
) -> PlayRecord:
    return PlayRecord(
        preset=play.preset,
        options=dict(play.options),
        deck=tuple(play.deal.deck),
        moves=tuple(moves),
        move_seconds=tuple(evidence.move_seconds),
        outcome=play.status,
        par=play.deal.par,
        account_age_days=evidence.account_age_days or 0.0,
        linked_reveals=frozenset(linked_reveals(play, evidence)),
        history=history(play),
        # The daily's par solution (API moves), for the par-line signal; a practice deal or
        # a deal prepared without one leaves it empty and the signal off.
        par_line=tuple(play.deal.solution or ()),
    )
