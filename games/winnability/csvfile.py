"""The results as CSV (``data/winnability.csv`` in the repository), so that a long run can
span machines and sessions: export after a run, commit, import on the next machine.

One row per deal, budget and solver version, sorted, so that the file diffs well and two
exports of the same rows are the same bytes.  Import inserts what is missing and leaves
existing rows alone (the key is unique), so importing twice, or importing a file that
overlaps the database, changes nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import TextIO

from django.utils import timezone

from .models import DealResult

COLUMNS = [
    "preset", "options", "seed", "budget", "solver_version", "verdict",
    "nodes", "seconds", "length", "interpreter", "host", "solved_at",
]  # fmt: skip
BATCH = 1000


class CsvError(ValueError):
    """A file that is not a results CSV: the message names the line."""


def export(path: Path | str) -> int:
    """Write every stored result to ``path`` (replacing it); the number of rows."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = DealResult.objects.order_by(
        "preset", "options", "solver_version", "budget", "seed"
    ).values_list(*COLUMNS)
    count = 0
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for row in rows.iterator(chunk_size=BATCH):
            record = dict(zip(COLUMNS, row))
            record["budget"] = f"{record['budget']:g}"
            record["seconds"] = f"{record['seconds']:.4f}"
            record["length"] = "" if record["length"] is None else record["length"]
            record["solved_at"] = (
                record["solved_at"].astimezone(dt.UTC).isoformat(timespec="seconds")
            )
            writer.writerow([record[c] for c in COLUMNS])
            count += 1
    return count


def import_(path: Path | str) -> tuple[int, int]:
    """Insert the rows of ``path`` that are not stored yet: (rows read, rows inserted)."""
    with Path(path).open(newline="", encoding="utf-8") as handle:
        return _import(handle)


def _parse(line: int, record: dict[str, str]) -> DealResult:
    try:
        solved_at = dt.datetime.fromisoformat(record["solved_at"])
        if timezone.is_naive(solved_at):
            solved_at = solved_at.replace(tzinfo=dt.UTC)
        if record["verdict"] not in ("winnable", "unwinnable", "unknown"):
            raise ValueError(f"verdict {record['verdict']!r}")
        return DealResult(
            preset=record["preset"],
            options=record["options"],
            seed=int(record["seed"]),
            budget=float(record["budget"]),
            solver_version=record["solver_version"],
            verdict=record["verdict"],
            nodes=int(record["nodes"] or 0),
            seconds=float(record["seconds"] or 0.0),
            length=int(record["length"]) if record["length"] else None,
            interpreter=record["interpreter"],
            host=record["host"],
            solved_at=solved_at,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise CsvError(f"line {line}: {error}") from None


def _import(handle: TextIO) -> tuple[int, int]:
    reader = csv.DictReader(handle)
    missing = set(COLUMNS) - set(reader.fieldnames or [])
    if missing:
        raise CsvError(f"not a results file: no column {', '.join(sorted(missing))}")
    before = DealResult.objects.count()
    read = 0
    batch: list[DealResult] = []
    for line, record in enumerate(reader, start=2):
        batch.append(_parse(line, record))
        read += 1
        if len(batch) >= BATCH:
            DealResult.objects.bulk_create(batch, ignore_conflicts=True)
            batch = []
    if batch:
        DealResult.objects.bulk_create(batch, ignore_conflicts=True)
    return read, DealResult.objects.count() - before
