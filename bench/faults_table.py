"""Render the fault tests' report as the table of docs/reliability/faults.md.

    HAVEN_FAULTS_REPORT=/tmp/faults.jsonl DATABASE_URL=postgres://… REDIS_URL=redis://… \\
        python -m pytest tests/faults
    python bench/faults_table.py /tmp/faults.jsonl

Each test of tests/faults appends one JSON line per fault (tests/faults/players.py,
``Tally.report``); this prints one Markdown row per line.
"""

from __future__ import annotations

import json
import sys

EXTRA = {
    "backends_terminated": "{} backends terminated",
    "workers_killed": "{} workers killed",
    "ranked_finished": "{} ranked plays finished, each scored once and on the Redis board",
    "let_through": "{} let through",
}


def notes(row: dict) -> str:
    parts = [EXTRA[key].format(row[key]) for key in EXTRA if key in row]
    if "limit" in row:
        parts[-1] += f" (limit {row['limit']})"
    if row.get("dropped"):
        parts.append(f"{row['dropped']} refused or dropped connections, retried")
    return "; ".join(parts)


def main(path: str) -> None:
    print(
        "| fault | requests tried | 5xx seen (besides the 503) | documented 503 "
        "| wrong statuses | writes lost | notes |"
    )
    print("|---|---:|---:|---:|---:|---:|---|")
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            print(
                f"| {row['fault']} | {row['requests']} | {row['server_errors']} | "
                f"{row['documented_503']} | {row['wrong']} | {row['writes_lost']} | {notes(row)} |"
            )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "faults.jsonl")
