"""``python manage.py solve``: solve many deals and summarise (a thin wrapper).

    python manage.py solve --preset easthaven --options partial_runs --seeds 1-1000 \\
        --budget 10 --jobs 2 --out results.jsonl
    python manage.py solve --preset seahaven --pysol-deals 1-100
    python manage.py solve --preset westcliff --deck AS,2H,...

The logic lives in :mod:`games.solver.cli` (pure Python); bad arguments are a CommandError.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.solver import cli


class Command(BaseCommand):
    help = (
        "Solve deals (seeds, PySolFC numbers or one deck) with the solver: one JSON line per "
        "deal, then counts, the winnable share with its 95% Wilson interval and timings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        cli.add_arguments(parser, settings.SOLVER_PYTHON or None)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            cli.execute(options, stdout=self.stdout, stderr=self.stderr)
        except cli.CliError as error:
            raise CommandError(str(error)) from None
