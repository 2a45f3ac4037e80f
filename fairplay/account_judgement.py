"""The account's judgement across its days: after each finished ranked play, its sample
joins the account's evidence (:class:`fairplay.models.AccountEvidence`); when the pooled
evidence crosses the account's cut (:func:`fairplay.detectors.judge_account`, policy
``FAIRPLAY_ACCOUNT``), the play and the account's earlier ranked plays in the window are
flagged and hidden from other players' boards, and the account waits in the review queue.

Reviewers decide on the account as a whole: confirm (its flagged plays stay hidden), clear
(its account-flagged plays return to the boards and its evidence starts again: logged),
or ban (:func:`fairplay.services.ban`, then :func:`confirm`).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Play
from leaderboard import moderation

from . import detectors
from .models import (
    AccountEvidence,
    Action,
    Finding,
    RankedBan,
    Review,
    ReviewDecision,
    ReviewStatus,
)

ACCOUNT = "account"  # the finding's detector name on each play the account's judgement flags
UNDER_REVIEW = (ReviewStatus.PENDING, ReviewStatus.CONFIRMED)


def cuts() -> detectors.AccountCuts:
    return dataclasses.replace(detectors.AccountCuts(), **settings.FAIRPLAY_ACCOUNT)


def judge(play: Play, found: Sequence[detectors.Finding]) -> detectors.Finding | None:
    """Add ``play``'s sample to its account's evidence and judge the account. Returns the
    ``account`` finding for ``play`` (flagged when the account is), or ``None`` when the
    play no longer counts (it started before the account was last cleared). The earlier
    plays in the window are flagged here, after the commit hidden; ``play`` itself is
    flagged by the caller with its other findings."""
    policy = cuts()
    day = play.deal.date or (play.finished_at or play.started_at).date()
    sample = detectors.sample_of(str(play.pk), day.isoformat(), found)
    with transaction.atomic():
        AccountEvidence.objects.get_or_create(player_id=play.player_id)
        account = AccountEvidence.objects.select_for_update().get(player_id=play.player_id)
        if account.reset_at is not None and play.started_at < account.reset_at:
            return None
        samples = [s for s in account.samples if s.get("play") != sample.play]  # a rerun
        samples.append(sample.to_dict())
        samples.sort(key=lambda s: (s.get("day", ""), s.get("play", "")))
        account.samples = samples[-max(policy.window, 1) :]
        verdict = detectors.judge_account(
            [detectors.PlaySample.from_dict(s) for s in account.samples], policy
        )
        account.verdict = {
            **verdict.details(),
            "days": detectors.per_day([detectors.PlaySample.from_dict(s) for s in account.samples]),
        }
        account.reason = verdict.reason
        flagged = verdict.flagged or account.status in UNDER_REVIEW
        if verdict.flagged and account.status not in UNDER_REVIEW:
            account.status = ReviewStatus.PENDING
            account.flagged_at = timezone.now()
            account.decided_at = None
        account.save()
        earlier = [s["play"] for s in account.samples if s["play"] != sample.play]
        hidden = _flag_earlier(play.player_id, earlier, verdict) if flagged else []
    for play_id in hidden:
        moderation.hide_play(play_id)
    return detectors.Finding(
        ACCOUNT, 1.0 if flagged else 0.0, flagged, verdict.reason, verdict.details()
    )


def _flag_earlier(
    player_id: int, plays: Sequence[str], verdict: detectors.AccountVerdict
) -> list[str]:
    """Flag the account's earlier plays in the window (a finding and a review each);
    return those to hide (all but the ones a reviewer cleared one by one)."""
    hide = []
    for play_id in plays:
        if not Play.objects.filter(pk=play_id, player_id=player_id).exists():
            continue  # a play deleted since (its account's data export and deletion)
        Finding.objects.update_or_create(
            play_id=play_id,
            detector=ACCOUNT,
            defaults={
                "score": 1.0,
                "flagged": True,
                "reason": "flagged with its account, " + verdict.reason,
                "details": verdict.details(),
            },
        )
        review, _ = Review.objects.get_or_create(play_id=play_id, defaults={"player_id": player_id})
        if review.status != ReviewStatus.CLEARED:
            hide.append(play_id)
    return hide


def _log(account: AccountEvidence, action: str, by: Any, note: str) -> None:
    ReviewDecision.objects.create(
        action=action,
        player_id=account.player_id,
        decided_by=by,
        decided_by_name=by.get_username(),
        note=note,
    )


def _account_reviews(account: AccountEvidence) -> list[Review]:
    """The reviews of the plays this account's judgement flagged."""
    flagged = Finding.objects.filter(
        play__player_id=account.player_id, detector=ACCOUNT, flagged=True
    ).values_list("play_id", flat=True)
    return list(Review.objects.select_for_update().filter(play_id__in=list(flagged)))


def confirm(account: AccountEvidence, by: Any, note: str = "") -> AccountEvidence:
    """The account's flag stands: its flagged plays stay hidden, its new plays are flagged."""
    with transaction.atomic():
        account = AccountEvidence.objects.select_for_update().get(pk=account.pk)
        now = timezone.now()
        reviews = _account_reviews(account)
        Review.objects.filter(pk__in=[r.pk for r in reviews]).update(
            status=ReviewStatus.CONFIRMED, decided_at=now
        )
        account.status, account.decided_at = ReviewStatus.CONFIRMED, now
        account.save()
        _log(account, Action.CONFIRM, by, note or f"account confirmed ({len(reviews)} plays)")
    for review in reviews:
        moderation.hide_play(review.play_id)
    return account


def clear(account: AccountEvidence, by: Any, note: str = "") -> AccountEvidence:
    """The account played fair: the plays its judgement flagged return to every board
    (unless the account is banned, or another detector flagged the play), and its
    accumulated evidence is reset (logged: plays before now never count again)."""
    with transaction.atomic():
        account = AccountEvidence.objects.select_for_update().get(pk=account.pk)
        now = timezone.now()
        reviews = _account_reviews(account)
        others = set(
            Finding.objects.filter(play_id__in=[r.play_id for r in reviews], flagged=True)
            .exclude(detector=ACCOUNT)
            .values_list("play_id", flat=True)
        )
        cleared = [r for r in reviews if r.play_id not in others]
        Review.objects.filter(pk__in=[r.pk for r in cleared]).update(
            status=ReviewStatus.CLEARED, decided_at=now
        )
        Finding.objects.filter(play_id__in=[r.play_id for r in reviews], detector=ACCOUNT).update(
            flagged=False
        )
        dropped = len(account.samples)
        account.samples, account.verdict = [], {}
        account.status, account.decided_at, account.reset_at = ReviewStatus.CLEARED, now, now
        account.reason = f"cleared: evidence of {dropped} plays reset"
        account.save()
        _log(
            account,
            Action.CLEAR,
            by,
            (note + "; " if note else "") + f"account cleared, evidence of {dropped} plays reset",
        )
        banned = RankedBan.objects.filter(player_id=account.player_id).exists()
    if not banned:
        for review in cleared:
            moderation.restore_play(review.play_id)
    return account


def evidence_of(player_id: int | uuid.UUID) -> AccountEvidence | None:
    return AccountEvidence.objects.filter(player_id=player_id).first()
