"""The Celery tasks run eagerly (as without REDIS_URL) and the prepare_daily command."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import engine
from games.daily import tasks, utc_today
from games.models import Deal, Source

DAY = dt.date(2026, 12, 24)


def _stored(day):
    return sorted(
        Deal.objects.filter(source=Source.DAILY, date=day).values_list("preset", flat=True)
    )


def test_prepare_daily_fans_out_one_task_per_preset(db, fake_solver):
    assert tasks.prepare_daily.delay(DAY.isoformat()).get() == list(engine.PRESETS)
    assert _stored(DAY) == sorted(engine.PRESETS)
    # a day already prepared is left alone: nothing queued, nothing solved
    calls = len(fake_solver.calls)
    assert tasks.prepare_daily.delay(DAY.isoformat()).get() == []
    assert len(fake_solver.calls) == calls
    assert Deal.objects.filter(source=Source.DAILY, date=DAY).count() == 6


def test_prepare_daily_preset_reports_its_outcome(db, fake_solver):
    result = tasks.prepare_daily_preset.delay(DAY.isoformat(), "seahaven").get()
    assert result == {
        "date": DAY.isoformat(),
        "preset": "seahaven",
        "created": True,
        "verdict": "winnable",
        "par": 7,
        "rejected": 2,
        "outcome": "winnable",
    }
    again = tasks.prepare_daily_preset.delay(DAY.isoformat(), "seahaven").get()
    assert again["created"] is False


def test_prepare_daily_preset_says_when_nothing_was_winnable(db, fake_solver, settings):
    settings.DAILY_MAX_ATTEMPTS = 2
    fake_solver.screen["westcliff"] = ["unknown"]
    result = tasks.prepare_daily_preset.delay(DAY.isoformat(), "westcliff").get()
    assert result["outcome"] == "no_winnable_candidate" and result["verdict"] == "unknown"


def test_prepare_upcoming_days_covers_today_and_the_days_ahead(db, fake_solver, settings):
    settings.DAILY_DAYS_AHEAD = 2
    today = utc_today()
    call_command("prepare_daily", "--date", today.isoformat(), "--preset", "seahaven",
                 stderr=StringIO(), stdout=StringIO())  # fmt: skip
    queued = tasks.prepare_upcoming_days.delay().get()
    days = [(today + dt.timedelta(days=d)).isoformat() for d in range(3)]
    assert list(queued) == days
    assert "seahaven" not in queued[days[0]] and len(queued[days[0]]) == 5
    for day in days:
        assert _stored(dt.date.fromisoformat(day)) == sorted(engine.PRESETS)
    assert tasks.prepare_upcoming_days.delay().get() == {}


def test_command_prepares_days_and_presets_with_a_progress_bar(db, fake_solver):
    out, err = StringIO(), StringIO()
    call_command(
        "prepare_daily", "--date", "2026-12-24", "--days", "2",
        "--preset", "seahaven", "--preset", "westcliff", stdout=out, stderr=err,
    )  # fmt: skip
    assert _stored(DAY) == ["seahaven", "westcliff"]
    assert _stored(DAY + dt.timedelta(days=1)) == ["seahaven", "westcliff"]
    assert "4 prepared, 0 already there" in out.getvalue()
    assert "daily deals" in err.getvalue() and "4/4" in err.getvalue()
    out = StringIO()
    call_command("prepare_daily", "--date", "2026-12-24", "--preset", "seahaven",
                 stdout=out, stderr=StringIO())  # fmt: skip
    assert "0 prepared, 1 already there" in out.getvalue()


def test_command_defaults_to_today_all_presets(db, fake_solver):
    call_command("prepare_daily", stdout=StringIO(), stderr=StringIO())
    assert _stored(utc_today()) == sorted(engine.PRESETS)


def test_command_warns_about_days_without_a_winnable_deal(db, fake_solver, settings):
    settings.DAILY_MAX_ATTEMPTS = 1
    fake_solver.screen["seahaven"] = ["unknown"]
    err = StringIO()
    call_command("prepare_daily", "--date", "2026-12-24", "--preset", "seahaven",
                 stdout=StringIO(), stderr=err)  # fmt: skip
    assert "no winnable candidate found: 2026-12-24 seahaven: unknown" in err.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--date", "2026-13-01"], "--date must be YYYY-MM-DD"),
        (["--date", "tomorrow"], "--date must be YYYY-MM-DD"),
        (["--days", "0"], "--days must be between 1 and 366"),
        (["--days", "-3"], "--days must be between 1 and 366"),
        (["--days", "seven"], "invalid int value"),
        (["--preset", "klondike"], "unknown preset 'klondike'"),
    ],
)
def test_command_bad_arguments_are_command_errors(db, fake_solver, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("prepare_daily", *args, stdout=StringIO(), stderr=StringIO())
    assert fake_solver.calls == []
