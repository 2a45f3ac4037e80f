"""``manage.py winnability`` in-process (no broker): planning, retries at larger budgets,
idempotent reruns, CSV export and import, the tables."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games import engine
from games.solver import UNKNOWN, WINNABLE, SolveResult, native
from games.winnability import runs
from games.winnability.configs import PRESET_VERSIONS, SOLVER_VERSION, solver_version
from games.winnability.models import DealResult
from games.winnability.tables import _decided_pct, markdown, table

pytestmark = pytest.mark.django_db


def winnability(*args: str) -> str:
    out = io.StringIO()
    call_command("winnability", *args, "--no-progress", stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def scripted(monkeypatch):
    """A scripted solver: seed s is unknown below budget ``hard[s]``, then decided
    (winnable for odd seeds); every call is recorded."""
    calls: list[tuple[int, float]] = []
    hard: dict[int, float] = {}

    def solve_one(preset, options, seed, budget, python, race, prover="auto"):
        calls.append((seed, budget))
        if budget < hard.get(seed, 0):
            return {"verdict": "unknown", "nodes": 99, "seconds": budget}, "test"
        verdict = "winnable" if seed % 2 else "unwinnable"
        return {"verdict": verdict, "nodes": 5, "seconds": 0.01, "first_length": 9}, "test"

    monkeypatch.setattr(runs, "solve_one", solve_one)
    return calls, hard


def test_real_solver_stores_one_row_per_deal_and_a_rerun_solves_nothing():
    out = winnability("--preset", "seahaven", "--seeds", "1-6", "--budgets", "5")
    assert "seahaven @5s: 6 deals" in out
    rows = DealResult.objects.filter(preset="seahaven", options="", budget=5.0)
    assert rows.count() == 6
    assert set(rows.values_list("solver_version", flat=True)) == {solver_version()}
    assert all(r.verdict in ("winnable", "unwinnable") for r in rows)
    again = winnability("--preset", "seahaven", "--seeds", "1-6", "--budgets", "5")
    assert "seahaven @5s: 0 deals" in again
    assert DealResult.objects.count() == 6


def test_options_are_part_of_the_key():
    winnability("--preset", "seahaven", "--options", "classic_supermove", "--seeds", "1-2")
    winnability("--configs", "seahaven", "--seeds", "1-2")
    assert sorted(DealResult.objects.values_list("options", flat=True)) == [
        "",
        "",
        "classic_supermove",
        "classic_supermove",
    ]


def test_unknown_deals_are_retried_at_the_next_budget_only(scripted):
    calls, hard = scripted
    hard.update({3: 60, 4: 600, 5: 10**6})
    winnability("--preset", "westcliff", "--seeds", "1-5", "--budgets", "600,10,60")
    assert [c for c in calls if c[1] == 10] == [(s, 10) for s in range(1, 6)]
    assert [c for c in calls if c[1] == 60] == [(3, 60), (4, 60), (5, 60)]
    assert [c for c in calls if c[1] == 600] == [(4, 600), (5, 600)]
    rows = table("westcliff", "", solver_version("westcliff"))
    assert [(r.budget, r.won, r.lost, r.unknown) for r in rows] == [
        (10, 1, 1, 3),
        (60, 2, 1, 2),
        (600, 2, 2, 1),
    ]
    # resuming with a larger seed range solves only the new seeds
    calls.clear()
    winnability("--preset", "westcliff", "--seeds", "1-6", "--budgets", "10,60,600")
    assert calls == [(6, 10)]


def test_a_tier_run_on_some_open_deals_counts_the_others_as_still_unknown(scripted):
    _, hard = scripted
    hard.update({3: 60, 4: 600, 5: 10**6})
    winnability("--preset", "westcliff", "--seeds", "1-5", "--budgets", "10")
    winnability("--preset", "westcliff", "--seeds", "3", "--budgets", "10,60")
    rows = table("westcliff", "", solver_version("westcliff"))
    # At 60 s only seed 3 ran (and won); 4 and 5, open at 10 s, are still open there.
    assert [(r.budget, r.won, r.lost, r.unknown) for r in rows] == [(10, 1, 1, 3), (60, 2, 1, 2)]
    assert rows[1].deals == 5 and len(rows[1].seconds) == 1


def test_a_chunk_skips_the_deals_already_stored(scripted):
    calls, _ = scripted
    version = solver_version()
    assert runs.solve_chunk("seahaven", "", [1, 2, 3], 10.0, version) == {
        "solved": 3,
        "skipped": 0,
    }
    calls.clear()
    assert runs.solve_chunk("seahaven", "", [2, 3, 4], 10.0, version) == {
        "solved": 1,
        "skipped": 2,
    }
    assert calls == [(4, 10.0)]


def test_csv_export_then_import_into_an_empty_database_is_the_same(scripted, tmp_path):
    _, hard = scripted
    hard[2] = 100
    winnability("--configs", "westcliff,seahaven+classic_supermove", "--seeds", "1-4")
    path = tmp_path / "data" / "results.csv"
    assert f"exported 8 rows to {path}" in winnability("--export", str(path))
    before = sorted(DealResult.objects.values_list("preset", "options", "seed", "verdict"))
    first = path.read_bytes()
    DealResult.objects.all().delete()
    assert "8 rows, 8 new" in winnability("--import", str(path))
    assert "8 rows, 0 new" in winnability("--import", str(path))
    after = sorted(DealResult.objects.values_list("preset", "options", "seed", "verdict"))
    assert after == before
    winnability("--export", str(path))
    assert path.read_bytes() == first


def test_a_bad_csv_is_refused_with_its_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("preset,seed\nseahaven,1\n")
    with pytest.raises(CommandError, match="not a results file"):
        winnability("--import", str(path))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--preset", "nope", "--seeds", "1-2"], "unknown preset"),
        (["--preset", "seahaven", "--options", "partial_runs", "--seeds", "1"], "partial_runs"),
        (["--preset", "seahaven", "--seeds", "5-1"], "backwards"),
        (["--preset", "seahaven", "--seeds", "1", "--budgets", "ten"], "--budgets"),
        (["--preset", "seahaven", "--seeds", "1", "--budgets", "0"], "--budgets"),
        (["--seeds", "1-2"], "--preset"),
        (["--preset", "seahaven"], "--seeds"),
        ([], "nothing to do"),
    ],
)
def test_bad_arguments_are_command_errors(args, message):
    with pytest.raises(CommandError, match=message):
        winnability(*args)


def test_markdown_table_has_counts_interval_and_times(scripted):
    _, hard = scripted
    hard[1] = 100
    winnability("--preset", "seahaven", "--seeds", "1-10", "--budgets", "10")
    text = winnability("--table")
    assert "| seahaven | 1–10 | 10 s | 10 | 4 | 5 | 1 | 90.0 % |" in text
    assert "44.4 % [" in text
    assert markdown() in text


@pytest.mark.parametrize(
    "decided, deals, shown",
    [(1999, 2000, "99.9 %"), (1997, 2000, "99.8 %"), (2000, 2000, "100.0 %"), (9, 10, "90.0 %")],
)
def test_the_decided_share_is_rounded_down(decided, deals, shown):
    """One deal left of 2,000 must not read as 100 % decided (it did, 2026-12-05)."""
    assert _decided_pct(decided, deals) == shown


def test_the_results_file_in_the_repository_imports_cleanly():
    """``data/winnability.csv`` carries runs across sessions: it must stay importable."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "data" / "winnability.csv"
    out = winnability("--import", str(path))
    read = int(out.split(": ")[1].split(" rows")[0])
    assert read >= 1600 and DealResult.objects.count() == read
    configs = set(DealResult.objects.values_list("preset", "options").distinct())
    assert len(configs) == 8
    assert "| easthaven | " in winnability("--table", "--solver-version", "2026-12-03")
    # The published tables are the current version's (what /api/v1/presets serves).
    assert "| westcliff-classic | 1–2000 | 60 s | 2000 |" in winnability("--table")


def test_the_admin_lists_results_read_only(admin_client, scripted):
    winnability("--preset", "seahaven", "--seeds", "1-3")
    page = admin_client.get("/admin/winnability/dealresult/?verdict=winnable")
    assert page.status_code == 200 and b"seahaven" in page.content
    assert admin_client.get("/admin/winnability/dealresult/add/").status_code == 403


@pytest.mark.native
def test_the_native_prover_decides_the_stock_games_and_python_the_others(monkeypatch):
    winnability("--configs", "easthaven,seahaven", "--seeds", "1-3", "--budgets", "5")
    rows = DealResult.objects.filter(seed__in=(1, 2, 3), budget=5.0)
    easthaven = rows.filter(preset="easthaven")
    assert set(easthaven.values_list("interpreter", flat=True)) == {"haven-prover (native)"}
    seahaven = set(rows.filter(preset="seahaven").values_list("interpreter", flat=True))
    assert "haven-prover (native)" not in seahaven
    # Easthaven seeds 1-3 are proofs of 1,766, 26,490 and 27 positions (data/winnability.csv).
    assert sorted(easthaven.values_list("nodes", flat=True)) == [27, 1766, 26490]
    assert set(rows.values_list("verdict", flat=True)) <= {"winnable", "unwinnable"}


@pytest.mark.native
def test_the_best_first_search_wins_what_the_depth_first_glance_misses(monkeypatch):
    # easthaven-open + partial_runs seed 22: best-first wins in about a thousand positions,
    # which the depth-first search misses for millions; easthaven seed 63: a proof of
    # 647,421 positions, by whichever search gets there first.
    calls = []
    solve_state = native.solve_state

    def spy(state, budget, **kwargs):
        calls.append(kwargs.get("best_first", False))
        return solve_state(state, budget, **kwargs)

    monkeypatch.setattr(native, "solve_state", spy)
    won, name = runs.solve_one("easthaven-open", "partial_runs", 22, 10, None, False)
    assert won["verdict"] == "winnable" and name == native.INTERPRETER
    assert calls == [False, True]
    lost, name = runs.solve_one("easthaven", "", 63, 10, None, False)
    assert lost["verdict"] == "unwinnable" and name == native.INTERPRETER


def _scripted_prover(monkeypatch, answers, layered=None):
    """``native.solve_state`` answering from ``answers`` (``(verdict, memory)`` by call),
    recording each call's budget, search (best-first?) and stock plays, and in
    ``layered`` (a list) whether each was the layered search."""
    calls = []

    def scripted(state, budget, **kwargs):
        verdict, memory = answers[len(calls)]
        if layered is not None:
            layered.append(kwargs.get("layered", False))
        calls.append((budget, kwargs.get("best_first", False), kwargs.get("stock_plays", True)))
        return SolveResult(verdict, [], 1000, budget, memory=memory)

    monkeypatch.setattr(native, "solve_state", scripted)
    return calls


@pytest.mark.native
def test_the_portfolio_runs_its_phases_until_one_decides(monkeypatch):
    calls = _scripted_prover(
        monkeypatch, [(UNKNOWN, False), (UNKNOWN, True), ("unwinnable", False)]
    )
    answer, name = runs.solve_one("easthaven-open", "", 5, 10, None, False)
    # A best-first search at its memory limit leaves the deal to the depth-first one,
    # which needs about half the memory a position.
    assert [best for _, best, _ in calls] == [False, True, False]
    assert sum(budget for budget, _, _ in calls) == pytest.approx(10)
    assert answer["verdict"] == "unwinnable" and name == native.INTERPRETER
    assert answer["nodes"] == 3000 and answer["seconds"] == pytest.approx(10)


@pytest.mark.native
def test_a_depth_first_search_at_its_memory_limit_ends_the_portfolio(monkeypatch):
    calls = _scripted_prover(monkeypatch, [(UNKNOWN, True)])
    answer, _ = runs.solve_one("westcliff-classic", "", 5, 10, None, False)
    assert len(calls) == 1 and answer["verdict"] == UNKNOWN and answer["memory"]


@pytest.mark.native
def test_with_a_waste_the_best_first_share_also_searches_without_stock_plays(monkeypatch):
    calls = _scripted_prover(monkeypatch, [(UNKNOWN, False)] * 3 + [(WINNABLE, False)])
    answer, _ = runs.solve_one("westcliff-classic", "", 5, 10, None, False)
    assert [best for _, best, _ in calls] == [False, True, True, False]
    assert [stock_plays for _, _, stock_plays in calls] == [True, True, False, True]
    assert calls[2][0] == pytest.approx(runs.best_first_share(10) * runs.PLAIN_PART)
    assert answer["verdict"] == WINNABLE


def test_the_final_tiers_prove_with_the_layered_search():
    """From ``LAYERED_FROM_SECONDS`` on, the depth-first rest is the layered search's."""
    for budget, rest in ((900, runs.DEPTH_FIRST), (runs.LAYERED_FROM_SECONDS, runs.LAYERED)):
        for waste in (False, True):
            phases = runs.portfolio(budget, waste=waste)
            assert sum(seconds for _, seconds in phases) == pytest.approx(budget)
            assert phases[0][0] == runs.DEPTH_FIRST and phases[-1][0] == rest
            assert runs.LAYERED not in [kind for kind, _ in phases[:-1]]


@pytest.mark.native
def test_a_layered_search_at_its_memory_limit_ends_the_portfolio(monkeypatch):
    layered = []
    calls = _scripted_prover(
        monkeypatch, [(UNKNOWN, False)] * 3 + [(UNKNOWN, True)], layered=layered
    )
    answer, _ = runs.solve_one("westcliff-classic", "", 5, 1800, None, False)
    assert layered == [False, False, False, True]
    assert [best for _, best, _ in calls] == [False, True, True, False]
    assert answer["verdict"] == UNKNOWN and answer["memory"]


def test_the_best_first_share_grows_with_the_budget():
    assert runs.best_first_share(10) == 3.0
    assert runs.best_first_share(60) == 5.5 and runs.best_first_share(300) == 17.5
    assert runs.best_first_share(5) == 1.5  # three tenths at most
    for budget in (1, 10, 60, 300):
        phases = runs.portfolio(budget)
        assert sum(seconds for _, seconds in phases) == pytest.approx(budget)
        assert [kind for kind, _ in phases] == [runs.DEPTH_FIRST, runs.BEST_FIRST, runs.DEPTH_FIRST]
        split = runs.portfolio(budget, waste=True)
        assert sum(seconds for _, seconds in split) == pytest.approx(budget)
        assert [kind for kind, _ in split][1:3] == [runs.BEST_FIRST, runs.BEST_FIRST_PLAIN]


def test_native_without_the_prover_is_a_command_error(monkeypatch, tmp_path):
    monkeypatch.setenv("SOLVER_NATIVE", str(tmp_path / "missing"))
    with pytest.raises(CommandError, match="make native"):
        winnability("--preset", "easthaven", "--seeds", "1", "--prover", "native")
    # auto falls back to the Python solver.
    winnability("--preset", "easthaven", "--seeds", "3", "--budgets", "5")
    row = DealResult.objects.get(preset="easthaven", seed=3)
    assert row.interpreter != "haven-prover (native)" and row.verdict == "unwinnable"


def test_import_if_empty_imports_only_while_some_preset_lacks_results(tmp_path, scripted):
    winnability("--configs", ",".join(engine.PRESETS), "--seeds", "1-2", "--budgets", "1")
    path = tmp_path / "results.csv"
    winnability("--export", str(path))
    DealResult.objects.all().delete()
    assert "12 rows, 12 new" in winnability("--import", str(path), "--if-empty")
    DealResult.objects.filter(seed=2).delete()
    out = winnability("--import", str(path), "--if-empty")
    assert "nothing imported" in out
    assert DealResult.objects.count() == 6
    # A preset whose solver version is new has no results of it yet: the file is read.
    DealResult.objects.filter(preset="westcliff").delete()
    assert "12 rows, 7 new" in winnability("--import", str(path), "--if-empty")


def test_each_preset_stores_its_results_under_its_own_solver_version(scripted):
    winnability("--configs", "westcliff,seahaven", "--seeds", "1", "--budgets", "1")
    stored = dict(DealResult.objects.values_list("preset", "solver_version"))
    assert stored == {"westcliff": solver_version("westcliff"), "seahaven": solver_version()}
    assert stored["westcliff"] == PRESET_VERSIONS["westcliff"] != SOLVER_VERSION
    text = winnability("--table")
    assert f"`{SOLVER_VERSION}` (seahaven)" in text
    assert f"`{PRESET_VERSIONS['westcliff']}` (westcliff)" in text
    assert "| westcliff | 1 | 1 s |" in text and "| seahaven | 1 | 1 s |" in text
