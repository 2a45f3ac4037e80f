"""The ``solve`` command: argument parsing, JSON lines, the summary and its Wilson math."""

from __future__ import annotations

import io
import json

import pytest

from games.engine import deck_from_seed, format_deck
from games.solver.cli import CliError, parse_ranges, run, summarize, wilson


def test_parse_ranges():
    assert parse_ranges("1-3,7", "seeds", 0, 100) == [1, 2, 3, 7]
    assert parse_ranges(" 5 ", "seeds", 0, 100) == [5]
    for bad in ("", "x", "3-1", "1-", "-1", "1-200", "1,,2"):
        with pytest.raises(CliError):
            parse_ranges(bad, "seeds", 0, 100)


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    # Narrows with n, and always contains the observed share.
    lo, hi = wilson(893, 1000)
    assert lo < 0.893 < hi and hi - lo < 0.04


def test_summary():
    records = [
        {"verdict": "winnable", "seconds": 1.0},
        {"verdict": "winnable", "seconds": 3.0},
        {"verdict": "unwinnable", "seconds": 2.0},
        {"verdict": "unknown", "seconds": 10.0},
    ]
    s = summarize(records)
    assert (s["winnable"], s["unwinnable"], s["unknown"], s["deals"]) == (2, 1, 1, 4)
    assert s["winnable_share"] == pytest.approx(2 / 3)
    assert s["winnable_ci95"] == list(wilson(2, 3))
    assert s["mean_seconds"] == 4.0 and s["median_seconds"] == 2.5
    assert summarize([])["winnable_share"] is None


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    summary = run(["--no-progress", *argv], stdout=out, stderr=err)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return summary, lines, err.getvalue()


def test_seeds_write_one_line_per_deal_and_a_summary():
    summary, lines, err = _run("--preset", "westcliff", "--seeds", "1-2", "--no-shorten")
    assert [r["seed"] for r in lines] == [1, 2]
    for r in lines:
        assert {"preset", "options", "seed", "deck", "verdict", "moves", "nodes", "seconds"} <= set(
            r
        )
        assert r["first_length"] == r["length"] == len(r["moves"])
        assert r["deck"] == format_deck(deck_from_seed(r["seed"]))
    assert summary["winnable"] == 2
    assert "winnable 2" in err and "Wilson" in err and "median" in err


def test_one_deck_and_options(tmp_path):
    deck = ",".join(format_deck(deck_from_seed(1)))
    target = tmp_path / "out.jsonl"
    out, err = io.StringIO(), io.StringIO()
    run(
        ["--preset", "seahaven", "--options", "classic_supermove", "--deck", deck,
         "--out", str(target), "--budget", "3", "--no-progress"],
        stdout=out,
        stderr=err,
    )  # fmt: skip
    (record,) = [json.loads(line) for line in target.read_text().splitlines()]
    assert record["options"] == {"classic_supermove": True}
    assert record["seed"] is None and record["verdict"] == "winnable"
    assert "deals 1" in out.getvalue()  # the summary goes to stdout when lines go to a file


def test_jobs_run_in_spawned_workers():
    summary, lines, _ = _run(
        "--preset", "westcliff", "--seeds", "3,4", "--jobs", "2", "--no-shorten"
    )
    assert [r["seed"] for r in lines] == [3, 4]
    assert summary["deals"] == 2


def test_workers_race_a_second_process_inside_spawned_jobs():
    # Jobs are daemonic pool processes: the rival is forked with os.fork, which they allow.
    summary, lines, _ = _run(
        "--preset", "easthaven", "--seeds", "1,2", "--jobs", "2", "--workers", "2",
        "--no-shorten",
    )  # fmt: skip
    assert [r["verdict"] for r in lines] == ["unwinnable", "unwinnable"]
    assert summary["deals"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--preset", "nope", "--seeds", "1"],
        ["--preset", "seahaven", "--options", "partial_runs", "--seeds", "1"],
        ["--preset", "seahaven", "--seeds", "1", "--deck", "AS"],
        ["--preset", "seahaven"],
        ["--preset", "seahaven", "--seeds", "9-1"],
        ["--preset", "seahaven", "--deck", "AS,2H"],
        ["--preset", "seahaven", "--pysol-deals", "0"],
        ["--preset", "seahaven", "--seeds", "1", "--budget", "0"],
        ["--preset", "seahaven", "--seeds", "1", "--budget", "soon"],
        ["--preset", "seahaven", "--seeds", "1", "--jobs", "0"],
        ["--preset", "seahaven", "--seeds", "1", "--workers", "0"],
        ["--preset", "seahaven", "--seeds", "1", "--workers", "3"],
        ["--preset", "seahaven", "--seeds", "1", "--nodes", "-5"],
        ["--preset", "seahaven", "--seeds", "1", "--out", "/nonexistent/dir/x.jsonl"],
        ["--preset", "seahaven", "--seeds", "1", "--bogus"],
    ],
)
def test_bad_arguments_are_clear_errors(argv):
    with pytest.raises(CliError) as info:
        run(argv, stdout=io.StringIO(), stderr=io.StringIO())
    assert str(info.value)


def test_django_command_wraps_the_cli():
    pytest.importorskip("django")
    from django.core.management import CommandError, call_command

    out, err = io.StringIO(), io.StringIO()
    call_command(
        "solve", "--preset", "westcliff", "--seeds", "1", "--no-progress", "--no-shorten",
        stdout=out, stderr=err,
    )  # fmt: skip
    (line,) = out.getvalue().splitlines()
    assert json.loads(line)["verdict"] == "winnable"
    with pytest.raises(CommandError, match="unknown preset"):
        call_command("solve", "--preset", "nope", "--seeds", "1", stdout=out, stderr=err)
