"""The "Hostile input" table of the docs, from the hostile tests' own counters.

    .venv/bin/python bench/hostile.py [--write] [--from-report FILE | pytest arguments…]

Runs ``pytest tests/hostile`` with ``HOSTILE_REPORT`` set (``tests/hostile/tally.py``
counts every hostile request per class of input: tried, answered 5xx, answered with a
status other than the expected one, writes lost) and prints the table in Markdown. With
``--write`` it also replaces the table between the ``hostile-table`` markers in
``docs/reliability/hostile-input.md``. The environment is passed through, so
``DATABASE_URL`` / ``REDIS_URL`` choose PostgreSQL and Redis as for the tests; the table
says which ran. ``--from-report FILE`` reads the counters an earlier run wrote
(``HOSTILE_REPORT=FILE pytest …``, e.g. the whole suite) instead of running the tests
again.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAGE = ROOT / "docs" / "reliability" / "hostile-input.md"
START, END = "<!-- hostile-table:start -->", "<!-- hostile-table:end -->"


def run(pytest_args: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "hostile.json"
        env = {**os.environ, "HOSTILE_REPORT": str(report)}
        command = [sys.executable, "-m", "pytest", "tests/hostile", "-q", "-p", "no:cacheprovider"]
        subprocess.run([*command, *pytest_args], cwd=ROOT, env=env, check=False)
        return json.loads(report.read_text())


def table(result: dict) -> str:
    from tests.hostile.tally import CLASSES

    database = "PostgreSQL" if "postgres" in os.environ.get("DATABASE_URL", "") else "SQLite"
    cache = "Redis" if os.environ.get("REDIS_URL") else "local memory"
    lines = [
        f"Produced by `bench/hostile.py` on {dt.date.today()} ({database}, {cache} cache; "
        f"pytest exit status {result['exitstatus']}).",
        "",
        "| class of hostile input | requests tried | 5xx seen | wrong statuses | writes lost |",
        "|---|---:|---:|---:|---:|",
    ]
    totals = [0, 0, 0, 0]
    for kind, row in result["classes"].items():
        cells = [row["tried"], row["server_errors"], row["wrong_status"], row["writes_lost"]]
        totals = [a + b for a, b in zip(totals, cells, strict=True)]
        lines.append(f"| {CLASSES[kind]} | " + " | ".join(str(c) for c in cells) + " |")
    lines.append("| **all** | " + " | ".join(f"**{c}**" for c in totals) + " |")
    return "\n".join(lines)


def update_page(text: str) -> None:
    content = PAGE.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(content):
        raise SystemExit(f"{PAGE.relative_to(ROOT)} has no {START} … {END} block")
    PAGE.write_text(pattern.sub(lambda _: f"{START}\n{text}\n{END}", content))


def main() -> None:
    args = sys.argv[1:]
    write = "--write" in args
    args = [arg for arg in args if arg != "--write"]
    if args[:1] == ["--from-report"]:
        result = json.loads(Path(args[1]).read_text())
    else:
        result = run(args)
    text = table(result)
    print(text)
    if write:
        update_page(text)


if __name__ == "__main__":
    main()
