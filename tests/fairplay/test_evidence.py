"""What is recorded of a ranked play: keyed hashes of the address and device (never the raw
values; blanked after the retention period), the seconds per move, the order of reveals
(undo steps back), the account's age and its policy rule."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from config.web.clientkeys import keyed_hash
from fairplay import records, services
from fairplay.models import Finding, PlayEvidence, Review
from games import engine
from games.models import Play
from leaderboard.models import Score
from tests.factories import client_for, make_user

from .helpers import play_daily

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def test_the_raw_address_and_device_never_reach_the_database(today_deals, detector_records):
    play = play_daily(
        client_for(make_user()), "198.51.100.77", deals=1, HTTP_X_DEVICE_ID="device-secret-9"
    )
    evidence = PlayEvidence.objects.get(play_id=play["id"])
    assert evidence.address_key == keyed_hash("address", "198.51.100.77")
    assert evidence.device_key == keyed_hash("device", "device-secret-9")
    stored = str(list(PlayEvidence.objects.values())) + str(list(Finding.objects.values()))
    assert "198.51.100.77" not in stored and "device-secret-9" not in stored
    assert len(evidence.move_seconds) == 2  # the deal and the resign
    assert evidence.analysed_at is not None and evidence.account_age_days < 0.01


def test_keys_past_the_retention_period_are_purged(today_deals, detector_records, settings):
    settings.FAIRPLAY_RETENTION_DAYS = 30
    old = play_daily(client_for(make_user()), "198.51.100.7", deals=0)
    new = play_daily(client_for(make_user()), "198.51.100.8", deals=0)
    PlayEvidence.objects.filter(play_id=old["id"]).update(
        started_at=timezone.now() - dt.timedelta(days=31)
    )
    assert services.purge_client_keys() == 1
    assert PlayEvidence.objects.get(play_id=old["id"]).address_key == ""
    assert PlayEvidence.objects.get(play_id=new["id"]).address_key != ""


def test_a_young_account_is_kept_off_public_ranks_by_policy(
    today_deals, detector_records, settings
):
    settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = 24
    play = play_daily(client_for(make_user("newcomer")), "203.0.113.9", deals=1)
    finding = Finding.objects.get(play_id=play["id"], detector=services.ACCOUNT_AGE)
    assert finding.flagged and "under the 24 h minimum" in finding.reason
    assert Review.objects.filter(play_id=play["id"]).exists()
    assert Score.objects.get(play_id=play["id"]).hidden


def test_move_seconds_are_measured_from_the_previous_row():
    start = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    times = [start + dt.timedelta(seconds=s) for s in (2.5, 3.0, 10.25)]
    assert records.move_seconds(start, times) == [2.5, 0.5, 7.25]


def test_the_reveal_order_follows_the_log_and_undo_steps_back():
    rules = engine.get_rules("easthaven", {})
    deck = engine.format_deck(engine.deck_from_seed(5))
    state = engine.new_game(rules, engine.parse_deck(deck))
    first_deal = engine.apply_move(state, engine.Move.from_dict({"type": "deal"}))
    dealt = sorted(
        {c for col in engine.visible(first_deal)["tableau"] for c in col["up"]}
        - {c for col in engine.visible(state)["tableau"] for c in col["up"]}
    )
    order = records.reveal_order(rules, deck, [{"type": "deal"}])
    assert order == dealt and len(order) == len(engine.visible(first_deal)["tableau"])
    # An undo steps back: the next deal shows the same cards again, nothing new.
    undone = records.reveal_order(
        rules, deck, [{"type": "deal"}, {"type": "undo"}, {"type": "deal"}]
    )
    assert undone == dealt
    assert records.reveal_order(rules, deck, [{"type": "resign"}]) == []


def test_a_failing_detector_neither_fails_the_move_nor_loses_the_evidence(
    today_deals, monkeypatch, settings
):
    def broken(record, thresholds=None):
        raise RuntimeError("detector bug")

    monkeypatch.setattr("fairplay.detectors.run_detectors", broken)
    settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = 24
    play = play_daily(client_for(make_user()), "203.0.113.9", deals=2)  # each move 200
    evidence = PlayEvidence.objects.get(play_id=play["id"])
    assert len(evidence.move_seconds) == 3 and evidence.reveal_order
    assert evidence.analysed_at is None  # not every detector ran: a rerun is due
    assert list(Finding.objects.filter(play_id=play["id"]).values_list("detector", flat=True)) == [
        services.ACCOUNT_AGE
    ]
    assert Score.objects.get(play_id=play["id"]).hidden  # the policy still applied


def test_the_hourly_sweep_analyses_plays_whose_analysis_never_completed(
    today_deals, detector_records
):
    from fairplay import tasks

    play = play_daily(client_for(make_user()), "203.0.113.9", deals=1)
    # As if its task had been lost ten minutes ago.
    PlayEvidence.objects.filter(play_id=play["id"]).update(analysed_at=None)
    Play.objects.filter(pk=play["id"]).update(finished_at=timezone.now() - dt.timedelta(minutes=10))
    assert services.missed_plays() == [uuid.UUID(play["id"])]
    assert tasks.analyse_missed() == 1
    assert PlayEvidence.objects.get(play_id=play["id"]).analysed_at is not None
    assert services.missed_plays() == []
