"""Candidate decks: from an HMAC of the secret, (date, preset, attempt); no database."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

import pytest

from games import daily, engine

DAY = dt.date(2026, 11, 29)


def test_candidate_is_the_documented_hmac_through_the_seeded_shuffle(settings):
    settings.DAILY_SECRET = "s3cret"
    digest = hmac.new(b"s3cret", b"haven-daily:v1:2026-11-29:seahaven:3", hashlib.sha256).digest()
    seed = int.from_bytes(digest[:8], "big") >> 1
    assert daily.candidate_seed(DAY, "seahaven", 3) == seed
    assert daily.candidate_deck(DAY, "seahaven", 3) == engine.deck_from_seed(seed)


def test_same_secret_same_deals_forever(settings):
    settings.DAILY_SECRET = "one"
    first = [daily.candidate_deck(DAY, p, n) for p in engine.PRESETS for n in range(3)]
    again = [daily.candidate_deck(DAY, p, n) for p in engine.PRESETS for n in range(3)]
    assert first == again
    assert all(sorted(deck) == list(range(52)) for deck in first)


def test_another_secret_gives_other_deals(settings):
    settings.DAILY_SECRET = "one"
    one = daily.candidate_deck(DAY, "easthaven", 0)
    settings.DAILY_SECRET = "two"
    assert daily.candidate_deck(DAY, "easthaven", 0) != one


def test_every_date_preset_and_attempt_has_its_own_deck():
    decks = {
        daily.candidate_deck(DAY + dt.timedelta(days=d), p, n)
        for d in range(3)
        for p in engine.PRESETS
        for n in range(3)
    }
    assert len(decks) == 3 * len(engine.PRESETS) * 3


def test_seeds_fit_the_engine_range():
    seeds = [daily.candidate_seed(DAY, "westcliff", n) for n in range(200)]
    assert all(0 <= s <= engine.MAX_SEED for s in seeds)
    assert max(seeds) > 2**60  # the top bits are used, not just a small range


@pytest.mark.parametrize("attempt", [-1, 1.5, True, "0"])
def test_bad_attempts_are_refused(attempt):
    with pytest.raises(ValueError, match="attempt"):
        daily.candidate_deck(DAY, "seahaven", attempt)


def test_unknown_preset_is_refused():
    with pytest.raises(engine.RulesError):
        daily.candidate_deck(DAY, "klondike", 0)


def test_lock_keys_are_distinct_signed_64_bit():
    keys = {
        daily.lock_key(DAY + dt.timedelta(days=d), p) for d in range(30) for p in engine.PRESETS
    }
    assert len(keys) == 30 * len(engine.PRESETS)
    assert all(-(2**63) <= k < 2**63 for k in keys)
