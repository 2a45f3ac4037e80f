"""Fair play's business logic: evidence at the start, the analysis after the finish, and the
reviewers' decisions. Views, receivers, tasks and the admin call these; the leaderboard
hides and restores scores (:mod:`leaderboard.moderation`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import uuid
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.errors import DomainError
from config.observability import metrics
from games import engine
from games.models import Play, PlayStatus
from leaderboard import moderation

from . import account_judgement, detectors, records
from .models import Action, Finding, PlayEvidence, RankedBan, Review, ReviewDecision, ReviewStatus

log = logging.getLogger(__name__)

ACCOUNT_AGE = "account_age"  # the policy rule's name among the detectors' findings


# --- At the start ----------------------------------------------------------------------------


def refuse_if_banned(player: Any) -> None:
    if RankedBan.objects.filter(player_id=player.pk).exists():
        raise DomainError(
            "ranked_banned", "this account is banned from ranked play; practice is still open"
        )


def record_start(play: Play, client_keys: Mapping[str, str]) -> PlayEvidence | None:
    """The evidence row of a ranked play, with the hashed address and device keys."""
    if not play.ranked:
        return None
    age = (play.started_at - play.player.date_joined).total_seconds() / 86400
    evidence, _ = PlayEvidence.objects.get_or_create(
        play=play,
        defaults={
            "player_id": play.player_id,
            "deal_id": play.deal_id,
            "started_at": play.started_at,
            "address_key": client_keys.get("address", ""),
            "device_key": client_keys.get("device", ""),
            "account_age_days": max(0.0, age),
        },
    )
    return evidence


# --- After the finish ------------------------------------------------------------------------


def thresholds() -> detectors.Thresholds:
    return dataclasses.replace(detectors.Thresholds(), **settings.FAIRPLAY_THRESHOLDS)


def _account_age_finding(evidence: PlayEvidence) -> detectors.Finding | None:
    minimum = settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS
    hours = (evidence.account_age_days or 0.0) * 24
    if minimum <= 0:
        return None
    young = hours < minimum
    return detectors.Finding(
        detector=ACCOUNT_AGE,
        score=1.0 if young else 0.0,
        flagged=young,
        reason=(
            f"the account was {hours:.1f} h old at the start, under the {minimum:g} h minimum"
            if young
            else f"the account was {hours:.1f} h old at the start"
        ),
        details={"hours": round(hours, 2), "minimum_hours": minimum},
    )


def analyse(play_id: uuid.UUID | str) -> list[Finding]:
    """Derive the evidence of a finished ranked play, run the detectors, judge the account
    across its days (:mod:`fairplay.account_judgement`: the ``account`` finding, and the
    earlier plays it flags), store the findings and flag the play if any flagged it
    (idempotent: a rerun updates the rows and never overrides a reviewer's clearance).

    The evidence is saved before the detectors run, and the policy rules (account age, a
    ban) apply even if a detector fails; ``analysed_at`` is set only once all of them ran,
    and the failure propagates (the task logs it).
    """
    play = Play.objects.select_related("deal", "player").filter(pk=play_id).first()
    if play is None or not play.ranked or play.status == PlayStatus.PLAYING:
        return []
    evidence = PlayEvidence.objects.filter(play=play).first() or record_start(play, {})
    assert evidence is not None
    log_rows = records.log_of(play.pk)
    moves = [move for move, _ in log_rows]
    evidence.move_seconds = records.move_seconds(play.started_at, [at for _, at in log_rows])
    rules = engine.get_rules(play.preset, play.options)
    evidence.reveal_order = records.reveal_order(rules, play.deal.deck, moves)
    evidence.save()
    policy = _account_age_finding(evidence)
    found = [policy] if policy is not None else []
    record = records.play_record(play, evidence, moves)
    try:
        found = list(detectors.run_detectors(record, thresholds())) + found
        account = account_judgement.judge(play, found)  # the account across its days
        if account is not None:
            found.append(account)
        evidence.analysed_at = timezone.now()
    finally:
        rows = _judge(play, evidence, found)
    return rows


def _judge(play: Play, evidence: PlayEvidence, found: list[detectors.Finding]) -> list[Finding]:
    """Store ``found``, open a review if any flagged, and hide the play unless a reviewer
    cleared it; a banned player's play is hidden in any case."""
    with transaction.atomic():
        rows = [
            Finding.objects.update_or_create(
                play=play,
                detector=f.detector,
                defaults={
                    "score": f.score,
                    "flagged": f.flagged,
                    "reason": f.reason,
                    "details": dict(f.details),
                },
            )[0]
            for f in found
        ]
        evidence.save(update_fields=["analysed_at"])
        hide = RankedBan.objects.filter(player_id=play.player_id).exists()
        flagged = [f.detector for f in found if f.flagged]
        if flagged:
            review, opened = Review.objects.get_or_create(
                play=play, defaults={"player": play.player}
            )
            hide = hide or review.status != ReviewStatus.CLEARED
            if opened:  # a rerun of the analysis counts nothing twice
                transaction.on_commit(lambda: [metrics.record_fairplay_flag(d) for d in flagged])
    if hide:
        moderation.hide_play(play.pk)
    return rows


MISSED_WINDOW = dt.timedelta(days=2)
MISSED_GRACE = dt.timedelta(minutes=5)  # a play's own task is usually done by then


def missed_plays(now: dt.datetime | None = None, limit: int = 500) -> list[uuid.UUID]:
    """Finished ranked plays of the last two days whose analysis never completed (a broker
    outage, a worker lost past its retries, a detector that failed), oldest first."""
    now = now or timezone.now()
    plays = (
        Play.objects.filter(ranked=True, finished_at__gte=now - MISSED_WINDOW)
        .filter(finished_at__lte=now - MISSED_GRACE)
        .exclude(status=PlayStatus.PLAYING)
        .filter(Q(fairplay_evidence__isnull=True) | Q(fairplay_evidence__analysed_at__isnull=True))
        .order_by("finished_at")
    )
    return list(plays.values_list("pk", flat=True)[:limit])


# --- Reviewers' decisions --------------------------------------------------------------------


def _log(action: str, player_id: int, by: Any, play_id: Any = None, note: str = "") -> None:
    ReviewDecision.objects.create(
        action=action,
        play_id=play_id,
        player_id=player_id,
        decided_by=by,
        decided_by_name=by.get_username(),
        note=note,
    )


def _decide(review: Review, status: str, action: str, by: Any, note: str) -> Review:
    with transaction.atomic():
        review = Review.objects.select_for_update().get(pk=review.pk)
        review.status = status
        review.decided_at = timezone.now()
        review.save()
        _log(action, review.player_id, by, review.play_id, note)
    return review


def confirm(review: Review, by: Any, note: str = "") -> Review:
    """The flag stands: the play stays hidden from others."""
    review = _decide(review, ReviewStatus.CONFIRMED, Action.CONFIRM, by, note)
    moderation.hide_play(review.play_id)
    return review


def clear(review: Review, by: Any, note: str = "") -> Review:
    """The play was fair: it returns to every board (unless its player is banned)."""
    review = _decide(review, ReviewStatus.CLEARED, Action.CLEAR, by, note)
    if not RankedBan.objects.filter(player_id=review.player_id).exists():
        moderation.restore_play(review.play_id)
    return review


def ban(player: Any, by: Any, note: str = "", review: Review | None = None) -> int:
    """Ban ``player`` from ranked play: new ranked starts are refused (403 ``ranked_banned``)
    and every ranked score of theirs is hidden; a review it came from is confirmed."""
    with transaction.atomic():
        RankedBan.objects.get_or_create(player_id=player.pk)
        _log(Action.BAN, player.pk, by, review.play_id if review else None, note)
        if review is not None:
            Review.objects.filter(pk=review.pk).update(
                status=ReviewStatus.CONFIRMED, decided_at=timezone.now()
            )
    return moderation.hide_player(player.pk)


def unban(player: Any, by: Any, note: str = "") -> bool:
    """Lift a ban: ranked starts are open again. Scores stay hidden until each is cleared."""
    with transaction.atomic():
        deleted, _ = RankedBan.objects.filter(player_id=player.pk).delete()
        if deleted:
            _log(Action.UNBAN, player.pk, by, note=note)
    return bool(deleted)


# --- Retention -------------------------------------------------------------------------------


def purge_client_keys(now: dt.datetime | None = None) -> int:
    """Blank the address and device keys older than ``FAIRPLAY_RETENTION_DAYS``."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=settings.FAIRPLAY_RETENTION_DAYS)
    old = PlayEvidence.objects.filter(started_at__lt=cutoff).exclude(address_key="", device_key="")
    return old.update(address_key="", device_key="")
