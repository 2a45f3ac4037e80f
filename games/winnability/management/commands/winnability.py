"""``python manage.py winnability``: winnability tables through Celery, resumable, in CSV.

    python manage.py winnability --preset easthaven --options partial_runs \\
        --seeds 1-2000 --budgets 10,60,600
    python manage.py winnability --configs all --seeds 1-200 --budgets 10 --python pypy3
    python manage.py winnability --import data/winnability.csv --export data/winnability.csv
    python manage.py winnability --table            # Markdown, for docs/solver/tables.md

Steps, in this order, each optional: ``--import`` CSV files, run the deals, ``--export``
the CSV, print the ``--table``.  The logic lives in :mod:`games.winnability.fanout`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.solver import native
from games.solver.cli import CliError, parse_ranges

from ...configs import CONFIGS, current_versions, options_key, parse_config, solver_version
from ...csvfile import CsvError, export, import_
from ...fanout import Run, RunStalled, execute
from ...models import DealResult
from ...runs import AUTO, NATIVE, PROVERS
from ...tables import markdown


def _budgets(text: str) -> list[float]:
    try:
        budgets = sorted({float(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise CommandError(
            f"--budgets: {text!r} is not a list of seconds such as 10,60,600"
        ) from None
    if not budgets or any(not 0 < b <= 86400 for b in budgets):
        raise CommandError("--budgets: give seconds between 0 and 86400, such as 10,60,600")
    return budgets


def _all_stored(version: str | None) -> bool:
    """Has every preset results of its solver version (or of ``version``)?"""
    return all(
        DealResult.objects.filter(preset=preset, solver_version=version or own).exists()
        for preset, own in current_versions().items()
    )


def _configs(options: dict[str, Any]) -> list[tuple[str, str]]:
    try:
        if options["configs"]:
            names = CONFIGS if options["configs"] == "all" else options["configs"].split(",")
            return [parse_config(name.strip()) for name in names if name.strip()]
        if options["preset"]:
            key = options_key({n.strip(): True for n in options["options"].split(",")})
            return [parse_config("+".join([options["preset"], *filter(None, key.split(","))]))]
    except engine.RulesError as error:
        raise CommandError(error.detail) from None
    return []


class Command(BaseCommand):
    help = (
        "Solve seeds of a preset at increasing budgets through Celery (in-process without a "
        "broker), store one result per deal and budget, export/import them as CSV, and "
        "print the winnability tables."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--preset", help="easthaven, westcliff, seahaven, ...")
        parser.add_argument("--options", default="", help="comma list: partial_runs, ...")
        parser.add_argument(
            "--configs", help="instead of --preset: preset+option names, comma-separated, or all"
        )
        parser.add_argument("--seeds", help="seeds to solve, e.g. 1-2000 or 1,5,7-9")
        parser.add_argument(
            "--budgets", default="10", help="seconds per deal, increasing, e.g. 10,60,600"
        )
        parser.add_argument("--chunk", type=int, default=20, help="deals per task (default 20)")
        parser.add_argument(
            "--python",
            default=settings.SOLVER_PYTHON or None,
            help="solver interpreter, e.g. pypy3 (default SOLVER_PYTHON; workers use "
            "their own SOLVER_PYTHON when this is not given)",
        )
        parser.add_argument(
            "--race", action="store_true", help="two processes per deal (games.solver.race)"
        )
        parser.add_argument(
            "--prover",
            choices=PROVERS,
            default=AUTO,
            help="native: the compiled prover (make native) for the presets it plays "
            "(Easthaven, Westcliff), the Python solver for the others; auto (default): "
            "native where it is built; python: the Python solver only",
        )
        parser.add_argument("--queue", help="Celery queue to send the chunks to")
        parser.add_argument(
            "--timeout",
            type=float,
            help="give up when workers store nothing for this many seconds (default: wait)",
        )
        parser.add_argument(
            "--solver-version",
            default=None,
            help="results label (default: each preset's current version)",
        )
        parser.add_argument(
            "--import", dest="imports", action="append", default=[], help="CSV to import first"
        )
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="import only when some preset has no result of its solver version yet "
            "(a fresh database, a new version: make migrate and compose's migrate service "
            "use it)",
        )
        parser.add_argument("--export", help="write every stored result to this CSV at the end")
        parser.add_argument("--table", action="store_true", help="print the Markdown tables")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        version = options["solver_version"]  # else each preset's own
        configs = _configs(options)
        if options["seeds"] and not configs:
            raise CommandError("--seeds needs --preset (and --options) or --configs")
        if configs and not options["seeds"]:
            raise CommandError("give --seeds to solve, e.g. --seeds 1-2000")
        if options["chunk"] < 1:
            raise CommandError("--chunk must be at least 1")
        budgets = _budgets(options["budgets"])
        if options["prover"] == NATIVE and not native.available():
            raise CommandError("--prover native: the native prover is not built (make native)")
        if not (options["seeds"] or options["imports"] or options["export"] or options["table"]):
            raise CommandError(
                "nothing to do: give --seeds (with --preset or --configs), --import, "
                "--export or --table"
            )
        if options["if_empty"] and _all_stored(version):
            self.stdout.write("results of every preset's solver version stored: nothing imported")
            options["imports"] = []
        for path in options["imports"]:
            try:
                read, inserted = import_(path)
            except (OSError, CsvError) as error:
                raise CommandError(f"--import {path}: {error}") from None
            self.stdout.write(f"imported {path}: {read} rows, {inserted} new")
        if options["seeds"]:
            try:
                seeds = parse_ranges(options["seeds"], "seeds", 0, engine.MAX_SEED)
            except CliError as error:
                raise CommandError(str(error)) from None
            for preset, key in configs:
                run = Run(
                    preset, key, seeds, budgets, version or solver_version(preset),
                    chunk=options["chunk"], python=options["python"], race=options["race"],
                    prover=options["prover"],
                    queue=options["queue"], timeout=options["timeout"],
                )  # fmt: skip
                try:
                    report = execute(run, self.stderr, progress=not options["no_progress"])
                except RunStalled as error:
                    raise CommandError(str(error)) from None
                for line in report:
                    rate = line["deals_per_second"]
                    self.stdout.write(
                        f"{line['config']} @{line['budget']:g}s: {line['deals']} deals in "
                        f"{line['seconds']} s" + (f" ({rate} deals/s)" if rate else "")
                    )
        if options["export"]:
            count = export(options["export"])
            self.stdout.write(f"exported {count} rows to {options['export']}")
        if options["table"]:
            shown = configs or None
            self.stdout.write(markdown(version, shown))
