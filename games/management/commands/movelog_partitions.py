from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import partitions


class Command(BaseCommand):
    help = (
        "The move log's monthly partitions (PostgreSQL): create this month's and --ahead more, "
        "archive (detach, export to gzip CSV, drop) months older than --retention-months; or "
        "--restore an archived month. Idempotent; docs/operations/scaling.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ahead", type=int, default=settings.MOVELOG_PARTITIONS_AHEAD)
        parser.add_argument(
            "--retention-months", type=int, default=settings.MOVELOG_RETENTION_MONTHS
        )
        parser.add_argument("--archive-dir", default=settings.MOVELOG_ARCHIVE_DIR)
        parser.add_argument("--restore", metavar="FILE", help="load an archived month back")

    def handle(self, *args: object, **options: object) -> None:
        if not partitions.is_partitioned():
            self.stdout.write("games_move is not partitioned (SQLite?): nothing to do")
            return
        if options["restore"]:
            try:
                rows = partitions.restore_month(Path(str(options["restore"])))
            except (ValueError, OSError) as error:
                raise CommandError(str(error)) from error
            self.stdout.write(f"restored {rows} move row(s) from {options['restore']}")
            return
        for name in partitions.ensure_partitions(int(options["ahead"])):  # type: ignore[call-overload]
            self.stdout.write(f"created {name}")
        archived = partitions.archive_partitions(
            int(options["retention_months"]),  # type: ignore[call-overload]
            Path(str(options["archive_dir"])),
        )
        for path in archived:
            self.stdout.write(f"archived {path}")
        self.stdout.write(f"partitions: {', '.join(sorted(partitions.attached()))}")
