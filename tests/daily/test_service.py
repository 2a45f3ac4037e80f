"""The daily service with a scripted fake solver: what is stored, idempotence, caps, bounds.

The real solver runs in ``test_workers.py``; here the solver's answers are chosen so every
branch (winnable after rejections, nothing winnable, time spent, lock held) is exercised.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import psycopg
import pytest
from django.db import connection

from games import daily, engine
from games.daily import search, service
from games.models import Deal, Source

DAY = dt.date(2026, 12, 24)


def test_prepare_deal_stores_the_first_winnable_candidate(db, fake_solver, settings):
    settings.SOLVER_NODE_BUDGET = 2_000_000
    deal = daily.prepare_deal(DAY, "seahaven")
    assert deal.source == Source.DAILY and deal.date == DAY and deal.preset == "seahaven"
    assert deal.verdict == "winnable"
    assert deal.deck == engine.format_deck(daily.candidate_deck(DAY, "seahaven", 2))
    assert deal.seed == daily.candidate_seed(DAY, "seahaven", 2)
    assert deal.par == len(deal.solution) == 7  # the shortened solution of the full solve
    assert deal.options == {"classic_supermove": False}
    assert [(a["attempt"], a["verdict"], a["pass"]) for a in deal.attempts] == [
        (0, "unwinnable", "screen"),
        (1, "unknown", "screen"),
    ]
    candidates = [daily.candidate_deck(DAY, "seahaven", n) for n in range(3)]
    assert fake_solver.decks("seahaven", "screen") == candidates
    assert fake_solver.decks("seahaven", "full") == candidates[2:]
    screen = [c for c in fake_solver.calls if c["stage"] == "screen"]
    assert {c["node_budget"] for c in screen} == {50_000}  # DAILY_SCREEN_NODES
    full = [c for c in fake_solver.calls if c["stage"] == "full"]
    assert {c["node_budget"] for c in full} == {2_000_000}


def test_a_new_daily_secret_never_changes_a_prepared_day(db, fake_solver, settings):
    """Rotating DAILY_SECRET (docs/secrets-and-names.md) changes only days not yet prepared:
    the stored deal wins for the day that was, on every path that serves or prepares it."""
    settings.DAILY_SECRET = "the-first-secret-" + "x" * 30
    before = {preset: daily.prepare_deal(DAY, preset) for preset in engine.PRESETS}
    settings.DAILY_SECRET = "the-rotated-secret-" + "y" * 30
    # The new secret would deal the day otherwise.
    winning = len(before["seahaven"].attempts)  # the rejected candidates come first
    assert engine.format_deck(daily.candidate_deck(DAY, "seahaven", winning)) != (
        before["seahaven"].deck
    )
    solves = len(fake_solver.calls)
    for preset, deal in before.items():
        again, created = service.prepare(DAY, preset)
        assert not created and (again.pk, again.deck, again.seed) == (deal.pk, deal.deck, deal.seed)
    served = service.get_or_prepare_day(DAY)
    assert [(d.pk, d.deck) for d in served] == [
        (before[p].pk, before[p].deck) for p in engine.PRESETS
    ]
    assert len(fake_solver.calls) == solves  # nothing was searched again
    assert Deal.objects.filter(date=DAY).count() == len(engine.PRESETS)
    # The next day comes from the new secret.
    settings.SOLVER_NODE_BUDGET = 2_000_000
    next_day = DAY + dt.timedelta(days=1)
    later = daily.prepare_deal(next_day, "seahaven")
    assert later.seed == daily.candidate_seed(next_day, "seahaven", len(later.attempts))


def test_workers_give_every_solve_the_settings_time_budget(db, fake_solver, settings):
    settings.SOLVER_BUDGET_SECONDS = 3.5
    daily.prepare_deal(DAY, "westcliff")
    assert [c["time_budget"] for c in fake_solver.calls] == [3.5] * 4


def test_screening_unknowns_get_a_full_solve_when_nothing_else_wins(db, fake_solver, settings):
    settings.DAILY_MAX_ATTEMPTS = 4
    fake_solver.screen["westcliff"] = ["unknown", "unwinnable", "unknown", "unknown"]
    fake_solver.full["westcliff"] = ["unwinnable", "winnable"]
    deal = daily.prepare_deal(DAY, "westcliff")
    assert deal.verdict == "winnable"
    assert deal.deck == engine.format_deck(daily.candidate_deck(DAY, "westcliff", 2))
    # screening stopped once four undecided candidates' worth of positions were spent
    assert [(a["attempt"], a["verdict"], a["pass"]) for a in deal.attempts] == [
        (0, "unwinnable", "full"),
        (1, "unwinnable", "screen"),
        (3, "unknown", "screen"),
        (4, "unknown", "screen"),
    ]


def test_a_solver_crash_skips_the_candidate(db, fake_solver, caplog):
    calls = []

    def crash_once(rules, deck, *args):
        calls.append(deck)
        if len(calls) == 1:
            raise RecursionError("maximum recursion depth exceeded")
        return fake_solver(rules, deck, *args)

    search._solve, saved = crash_once, search._solve
    try:
        deal = daily.prepare_deal(DAY, "seahaven")
    finally:
        search._solve = saved
    assert deal.verdict == "winnable"
    assert deal.attempts[0]["verdict"] == "error"
    assert "RecursionError" in deal.attempts[0]["error"]
    assert "solver failed on candidate 0" in caplog.text


def test_prepare_deal_is_idempotent(db, fake_solver):
    first = daily.prepare_deal(DAY, "westcliff")
    calls = len(fake_solver.calls)
    again = daily.prepare_deal(DAY, "westcliff")
    assert again.pk == first.pk
    assert len(fake_solver.calls) == calls  # nothing solved the second time
    assert Deal.objects.filter(date=DAY, preset="westcliff").count() == 1


def test_an_insert_that_loses_the_race_returns_the_stored_row(db, fake_solver):
    winner = daily.prepare_deal(DAY, "seahaven")
    fields = search.search_day(DAY, "seahaven", None)
    fields["deck"] = list(reversed(fields["deck"]))
    deal, created = service._store(fields)  # the unique constraint decides, not a check
    assert not created and deal.pk == winner.pk and deal.deck == winner.deck


def test_a_solver_that_always_fails_stores_nothing(db, settings, monkeypatch):
    settings.DAILY_MAX_ATTEMPTS = 2

    def broken(*args):
        raise ImportError("no solver")

    monkeypatch.setattr(search, "_solve", broken)
    with pytest.raises(daily.SolverFailed):
        daily.prepare_deal(DAY, "seahaven")
    assert not Deal.objects.filter(date=DAY).exists()
    assert daily.get_or_prepare_day(DAY, time_budget=1.0) == []  # on demand: logged, left out


def test_no_winnable_candidate_in_the_cap_is_stored_as_unknown(db, fake_solver, settings, caplog):
    settings.DAILY_MAX_ATTEMPTS = 5
    fake_solver.screen["easthaven"] = ["unwinnable", "unknown", "unwinnable", "unknown"]
    deal = daily.prepare_deal(DAY, "easthaven")
    assert deal.verdict == "unknown" and deal.par is None and deal.solution == []
    # the earliest undecided candidate: never a deck proven unwinnable
    assert deal.deck == engine.format_deck(daily.candidate_deck(DAY, "easthaven", 1))
    # five undecided screens spend the cap; the two cheap proofs hardly count
    assert [a["attempt"] for a in deal.attempts] == [0, 2, 3, 4, 5, 6]
    assert len(fake_solver.calls) == 7 + 5  # seven screened, the five unknowns in full
    assert "no winnable deal in 7 candidates" in caplog.text


def test_all_candidates_unwinnable_stores_the_next_one_as_unknown(db, fake_solver, settings):
    """Cheap proofs count for little, but 20 × the cap candidates is the end in any case."""
    settings.DAILY_MAX_ATTEMPTS = 3
    fake_solver.screen["easthaven-suit"] = ["unwinnable"]
    deal = daily.prepare_deal(DAY, "easthaven-suit")
    assert deal.verdict == "unknown"
    assert deal.deck == engine.format_deck(daily.candidate_deck(DAY, "easthaven-suit", 60))
    assert [a["verdict"] for a in deal.attempts] == ["unwinnable"] * 60


def test_cheap_proofs_let_the_search_go_past_the_cap(db, fake_solver, settings):
    settings.DAILY_MAX_ATTEMPTS = 3
    fake_solver.screen["easthaven-suit"] = ["unwinnable"] * 40 + ["winnable"]
    deal = daily.prepare_deal(DAY, "easthaven-suit")
    assert deal.verdict == "winnable"
    assert deal.deck == engine.format_deck(daily.candidate_deck(DAY, "easthaven-suit", 40))
    assert len(deal.attempts) == 40


def test_get_or_prepare_day_returns_the_six_in_presets_order(db, fake_solver):
    daily.prepare_deal(DAY, "westcliff")
    deals = daily.get_or_prepare_day(DAY)
    assert [d.preset for d in deals] == list(engine.PRESETS)
    assert all(d.verdict == "winnable" for d in deals)
    assert Deal.objects.filter(source=Source.DAILY, date=DAY).count() == 6
    calls = len(fake_solver.calls)
    assert [d.pk for d in daily.get_or_prepare_day(DAY)] == [d.pk for d in deals]
    assert len(fake_solver.calls) == calls


def test_on_demand_is_bounded_and_says_unknown(db, fake_solver, settings):
    """A solver that never decides within its budget: the call ends in about the budget."""
    settings.SOLVER_BUDGET_SECONDS = 10.0
    fake_solver.default = ["unknown"]
    fake_solver.sleep = 10.0  # each solve uses all the time it is given
    started = time.monotonic()
    deals = daily.get_or_prepare_day(DAY, time_budget=1.2)
    elapsed = time.monotonic() - started
    assert elapsed < 2.5, elapsed
    assert [d.preset for d in deals] == list(engine.PRESETS)
    assert {d.verdict for d in deals} == {"unknown"}
    assert all(c["time_budget"] <= 1.2 for c in fake_solver.calls)
    assert all(d.par is None and d.solution == [] for d in deals)


def test_on_demand_default_budget_is_the_solver_budget(db, fake_solver, settings):
    settings.SOLVER_BUDGET_SECONDS = 0.6
    fake_solver.default = ["unknown"]
    fake_solver.sleep = 1.0
    started = time.monotonic()
    daily.get_or_prepare_day(DAY)
    assert time.monotonic() - started < 1.8


def test_unknown_preset_is_an_error(db, fake_solver):
    with pytest.raises(engine.RulesError):
        daily.prepare_deal(DAY, "klondike")


# --- The PostgreSQL advisory lock -------------------------------------------------------------


def _hold_lock(day, preset):
    """Another session (as a worker would) holding the (day, preset) lock."""
    s = connection.settings_dict
    other = psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"],
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        password=s["PASSWORD"] or None,
        autocommit=True,
    )
    assert other.execute(
        "SELECT pg_try_advisory_lock(%s)", [daily.lock_key(day, preset)]
    ).fetchone()[0]
    return other


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_held_lock_is_waited_for_then_refused(fake_solver):
    other = _hold_lock(DAY, "seahaven")
    try:
        started = time.monotonic()
        with pytest.raises(daily.DealLocked):
            daily.prepare_deal(DAY, "seahaven", lock_timeout=0.5)
        assert 0.4 < time.monotonic() - started < 2
        assert fake_solver.calls == []
        # on demand: the other presets are prepared, the locked one is left to its holder
        deals = daily.get_or_prepare_day(DAY, time_budget=1.0)
        assert [d.preset for d in deals] == [p for p in engine.PRESETS if p != "seahaven"]
    finally:
        other.close()  # a dead session's locks go with it
    assert daily.prepare_deal(DAY, "seahaven", lock_timeout=1).verdict == "winnable"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_waiter_finds_the_deal_the_lock_holder_stored(fake_solver):
    other = _hold_lock(DAY, "westcliff")

    def finish_like_a_worker():
        time.sleep(0.5)
        deck = engine.format_deck(daily.candidate_deck(DAY, "westcliff", 0))
        other.execute(
            "INSERT INTO games_deal (id, preset, options, deck, source, date, verdict, par,"
            " solution, attempts, created_at) VALUES (gen_random_uuid(), 'westcliff', '{}',"
            " %s, 'daily', %s, 'winnable', 1, '[]', '[]', now())",
            [psycopg.types.json.Jsonb(deck), DAY],
        )
        other.close()

    thread = threading.Thread(target=finish_like_a_worker)
    thread.start()
    deal = daily.prepare_deal(DAY, "westcliff", lock_timeout=10)
    thread.join()
    assert deal.par == 1  # the holder's row, not a second solve
    assert fake_solver.calls == []
    assert Deal.objects.filter(date=DAY, preset="westcliff").count() == 1
