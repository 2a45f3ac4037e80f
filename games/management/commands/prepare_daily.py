"""``python manage.py prepare_daily``: prepare daily deals from the command line.

Same service as the Celery workers (``games.daily.prepare``, same lock, same rows), run in
this process, one (day, preset) after another, with a progress bar on stderr::

    python manage.py prepare_daily                 # today (UTC)
    python manage.py prepare_daily --days 7        # today and the next 6 days
    python manage.py prepare_daily --date 2026-12-01 --days 2 --preset seahaven
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games import engine
from games.daily import DealLocked, prepare, utc_today


class Command(BaseCommand):
    help = (
        "Solve and store the daily deals of one or more UTC days (all presets, or --preset); "
        "days already prepared are left alone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--date", help="first UTC day, YYYY-MM-DD (default: today)", default=None
        )
        parser.add_argument(
            "--days", type=int, default=1, help="how many days from --date (default 1)"
        )
        parser.add_argument(
            "--preset",
            action="append",
            dest="presets",
            metavar="PRESET",
            help=f"only this preset (repeatable); one of {', '.join(engine.PRESETS)}",
        )
        parser.add_argument(
            "--lock-timeout",
            type=float,
            default=None,
            help="seconds to wait for a worker preparing the same deal (default: no limit)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        first = self._first_day(options["date"])
        days = options["days"]
        if days is None or days < 1 or days > 366:
            raise CommandError("--days must be between 1 and 366")
        presets = options["presets"] or list(engine.PRESETS)
        unknown = [p for p in presets if p not in engine.PRESETS]
        if unknown:
            raise CommandError(
                f"unknown preset {unknown[0]!r}; presets: {', '.join(engine.PRESETS)}"
            )
        presets = list(dict.fromkeys(presets))
        jobs = [
            (first + dt.timedelta(days=offset), preset)
            for offset in range(days)
            for preset in presets
        ]
        created = kept = busy = 0
        not_winnable = []
        bar = tqdm(jobs, desc="daily deals", unit="deal", file=self.stderr._out, leave=True)
        for day, preset in bar:
            bar.set_postfix_str(f"{day} {preset}")
            try:
                deal, new = prepare(day, preset, lock_timeout=options["lock_timeout"])
            except DealLocked:
                busy += 1
                continue
            if new:
                created += 1
            else:
                kept += 1
            if deal.verdict != "winnable":
                not_winnable.append(f"{day} {preset}: {deal.verdict}")
        bar.close()
        for line in not_winnable:
            self.stderr.write(self.style.WARNING(f"no winnable candidate found: {line}"))
        summary = f"{created} prepared, {kept} already there"
        if busy:
            summary += f", {busy} still being prepared by a worker"
        self.stdout.write(self.style.SUCCESS(summary))

    @staticmethod
    def _first_day(text: str | None) -> dt.date:
        if text is None:
            return utc_today()
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            raise CommandError(f"--date must be YYYY-MM-DD, not {text!r}") from None
