"""Solver worker processes on another interpreter (``games.solver.worker`` / ``.external``).

The worker protocol is tested in-process and through a CPython child; the same deals under
PyPy (``@pytest.mark.pypy``: skipped without a ``pypy3``, a failure under ``CI=true``,
where ``.ci/run`` installs it) must give the same answers, position counts included: the
search is deterministic, so any difference would be an interpreter-dependent bug.
"""

from __future__ import annotations

import io
import json
import os
import stat
import sys

import pytest

from games.engine import deck_from_seed, format_deck, get_rules
from games.solver import WINNABLE, SolveResult
from games.solver import external as external_module
from games.solver.cli import CliError, run, solve_task
from games.solver.external import WorkerError, Workers, same_interpreter, solve_with
from games.solver.worker import handle, serve

PYPY = "pypy3"

#: (preset, options, seed): a win and a proof or two of every rule family, small enough for
#: a few thousand positions.
SAMPLE = [
    ("seahaven", {"classic_supermove": True}, 1),
    ("seahaven", {}, 2),
    ("easthaven", {}, 1),
    ("easthaven-open", {"partial_runs": True}, 3),
    ("easthaven-suit", {}, 4),
    ("westcliff", {}, 5),
    ("westcliff-classic", {}, 6),
]


def settings_for(preset, options, nodes=3000, workers=1):
    return {
        "preset": preset,
        "options": options,
        "budget": None,
        "nodes": nodes,
        "shorten": False,
        "workers": workers,
    }


def test_worker_serves_lines_in_process():
    deck = deck_from_seed(1)
    request = {"deck": list(deck), "settings": settings_for("seahaven", {})}
    stdin = io.StringIO(json.dumps(request) + "\n\nnot json\n" + json.dumps({"deck": 3}) + "\n")
    stdout = io.StringIO()
    serve(stdin, stdout)
    lines = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert lines[0]["ready"] == 1 and lines[0]["python"].startswith("CPython")
    answer = lines[1]
    assert answer["deck"] == format_deck(deck) and answer["verdict"] == WINNABLE
    expected = solve_task(("seed", 1), settings_for("seahaven", {}))
    assert answer["nodes"] == expected["nodes"] and answer["moves"] == expected["moves"]
    # The blank line is skipped; a bad line is an error answer and the worker carries on.
    assert len(lines) == 4
    assert "error" in lines[2] and "error" in lines[3]


def test_handle_reports_bad_settings_as_an_error():
    answer = handle(json.dumps({"deck": list(deck_from_seed(1)), "settings": {"preset": "x"}}))
    assert set(answer) == {"error"}


def answers(python, items, count=2):
    with Workers(python, count) as pool:
        return list(pool.imap(items))


def test_workers_keep_the_order_and_match_in_process_answers():
    items = [(deck_from_seed(seed), settings_for(p, o)) for p, o, seed in SAMPLE]
    got = answers(sys.executable, items)
    for (preset, options, seed), answer in zip(SAMPLE, got):
        expected = solve_task(("seed", seed), settings_for(preset, options))
        assert answer["deck"] == expected["deck"]
        assert (answer["verdict"], answer["nodes"]) == (expected["verdict"], expected["nodes"])


def test_a_pool_serves_several_runs_and_the_race():
    with Workers(sys.executable, 1) as pool:
        first = list(pool.imap([(deck_from_seed(1), settings_for("seahaven", {}))]))
        second = list(pool.imap([(deck_from_seed(1), settings_for("easthaven", {}, workers=2))]))
    assert first[0]["verdict"] == WINNABLE
    assert second[0]["verdict"] in ("winnable", "unwinnable", "unknown")
    assert pool.workers == []  # closed by the context manager


def test_unknown_interpreter_is_an_error():
    with pytest.raises(WorkerError, match="no Python interpreter"):
        Workers("no-such-python-here")
    with pytest.raises(CliError, match="--python"):
        run(["--preset", "seahaven", "--seeds", "1", "--python", "no-such-python-here"])


HELLO = """echo '{"ready": 1, "python": "fake"}'\n"""


def fake_interpreter(tmp_path, body: str) -> str:
    script = tmp_path / "fakepython"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_an_interpreter_that_is_no_worker_is_an_error(tmp_path):
    python = fake_interpreter(tmp_path, 'echo "Python 2.7"\n')
    with pytest.raises(WorkerError, match="did not start a solver worker"):
        Workers(python)


def test_a_worker_that_dies_mid_run_is_an_error_and_nothing_is_left(tmp_path):
    python = fake_interpreter(tmp_path, HELLO + "read x\nexit 3\n")
    pool = Workers(python, 1)
    proc = pool.workers[0].proc
    with pytest.raises(WorkerError, match="died"):
        list(pool.imap([(deck_from_seed(1), settings_for("seahaven", {}))]))
    assert pool.workers == [] and proc.poll() is not None


def test_a_hung_worker_trips_the_watchdog(tmp_path, monkeypatch):
    monkeypatch.setattr(external_module, "WATCHDOG_SLACK", 0.3)
    python = fake_interpreter(tmp_path, HELLO + "sleep 30\n")
    pool = Workers(python, 1)
    proc = pool.workers[0].proc
    settings = {**settings_for("seahaven", {}), "budget": 0.1}
    with pytest.raises(WorkerError, match="in time"):
        list(pool.imap([(deck_from_seed(1), settings)]))
    assert proc.poll() is not None  # killed, not left sleeping


def test_solve_with_replays_and_returns_a_result():
    rules = get_rules("seahaven", {})
    result = solve_with(sys.executable, rules, deck_from_seed(1), None, 3000, shorten=True)
    assert isinstance(result, SolveResult) and result.verdict == WINNABLE
    assert result.length <= result.first_length and len(result.moves) == result.length


def test_same_interpreter():
    assert same_interpreter(sys.executable)
    assert not same_interpreter("/bin/sh")


def without_seconds(record):
    return {k: v for k, v in record.items() if k != "seconds"}


def test_cli_through_workers_writes_the_same_records(tmp_path):
    # A wrapper is another interpreter path, so the command takes the worker route.
    python = fake_interpreter(tmp_path, f'exec "{sys.executable}" "$@"\n')
    assert not same_interpreter(python)
    args = ["--preset", "easthaven", "--seeds", "1-4", "--nodes", "2000", "--no-progress"]
    there, here = tmp_path / "there.jsonl", tmp_path / "here.jsonl"
    run([*args, "--jobs", "2", "--python", python, "--out", str(there)], stdout=io.StringIO())
    run([*args, "--out", str(here)], stdout=io.StringIO())
    read = [[json.loads(line) for line in path.read_text().splitlines()] for path in (there, here)]
    assert [without_seconds(r) for r in read[0]] == [without_seconds(r) for r in read[1]]
    assert [r["seed"] for r in read[0]] == [1, 2, 3, 4]


def test_a_symlink_to_this_interpreter_is_this_interpreter(tmp_path):
    link = tmp_path / "python-again"
    os.symlink(sys.executable, link)
    assert same_interpreter(str(link))


@pytest.mark.pypy
def test_pypy_workers_give_the_same_answers_as_cpython():
    items = [(deck_from_seed(seed), settings_for(p, o)) for p, o, seed in SAMPLE]
    with Workers(PYPY, 2) as pool:
        assert pool.name.startswith("PyPy")
        got = list(pool.imap(items))
    for (preset, options, seed), answer in zip(SAMPLE, got):
        expected = solve_task(("seed", seed), settings_for(preset, options))
        solved = {k: v for k, v in expected.items() if k in answer}
        assert without_seconds(answer) == without_seconds(solved), (preset, options, seed)


@pytest.mark.pypy
def test_cli_on_pypy(tmp_path):
    out = tmp_path / "out.jsonl"
    stdout = io.StringIO()
    summary = run(
        ["--preset", "seahaven", "--seeds", "1-3", "--budget", "20", "--jobs", "2"]
        + ["--python", PYPY, "--no-progress", "--out", str(out)],
        stdout=stdout,
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in records] == [1, 2, 3]
    assert summary["deals"] == 3 and summary["unknown"] == 0
    rules = get_rules("seahaven", {})
    from games.engine import replay, status

    for record in records:
        if record["verdict"] == WINNABLE:
            state, _, error = replay(rules, deck_from_seed(record["seed"]), record["moves"])
            assert error is None and status(state) == "won"


@pytest.mark.pypy
def test_engine_and_solver_parse_and_import_on_pypy():
    """The worker's interpreter is Python 3.9: no module of either package may need more."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    packages = ("games/engine", "games/solver")
    files = sorted(str(p) for d in packages for p in (root / d).glob("*.py"))
    modules = [f"games.{Path(f).parent.name}.{Path(f).stem}" for f in files]
    code = (
        "import ast, importlib, sys\n"
        "files, modules = sys.argv[1].split(','), sys.argv[2].split(',')\n"
        "for f in files:\n"
        "    ast.parse(open(f, encoding='utf-8').read(), f)\n"
        "for m in modules:\n"
        "    importlib.import_module(m.replace('.__init__', ''))\n"
        "print(len(files))\n"
    )
    done = subprocess.run(
        [PYPY, "-c", code, ",".join(files), ",".join(modules)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(files) > 10


def test_a_memory_limited_worker_gets_a_pypy_heap_cap_below_it(monkeypatch):
    monkeypatch.setenv("SOLVER_MEMORY_MB", "7000")
    monkeypatch.delenv("PYPY_GC_MAX", raising=False)
    env = external_module.worker_env()
    assert env["PYPY_GC_MAX"] == "5600MB"
    assert "PYTHONHOME" not in env and env["PYTHONPATH"].split(os.pathsep)[0]
    monkeypatch.setenv("PYPY_GC_MAX", "1GB")  # an operator's own setting stands
    assert external_module.worker_env()["PYPY_GC_MAX"] == "1GB"
    monkeypatch.delenv("PYPY_GC_MAX")
    monkeypatch.delenv("SOLVER_MEMORY_MB")
    assert "PYPY_GC_MAX" not in external_module.worker_env()


@pytest.mark.pypy
def test_a_pypy_worker_does_not_keep_each_searchs_garbage():
    """Search after search, a worker stays near one search's size (it kept about 200 MB
    a 5 s search before it collected between them)."""

    def resident_mb(pool: Workers) -> int:
        pid = pool.workers[0].proc.pid
        return int(open(f"/proc/{pid}/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") >> 20

    settings = {**settings_for("westcliff-classic", {}, nodes=None), "budget": 2.0}
    hard = [16, 54, 93, 109, 114, 177, 242, 259]  # undecided after 2 s: full searches
    with Workers(PYPY) as pool:
        list(pool.imap([(deck_from_seed(hard[0]), settings)]))
        after_one = resident_mb(pool)
        list(pool.imap([(deck_from_seed(seed), settings) for seed in hard[1:]]))
        after_all = resident_mb(pool)
    assert after_all < after_one + 250, (after_one, after_all)
