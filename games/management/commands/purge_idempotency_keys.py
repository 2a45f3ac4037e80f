from django.core.management.base import BaseCommand, CommandParser

from games.maintenance import purge_expired_idempotency_keys


class Command(BaseCommand):
    help = "Delete stored Idempotency-Key answers older than IDEMPOTENCY_KEY_TTL_HOURS (24)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=int, default=None, help="override the TTL")

    def handle(self, *args: object, **options: object) -> None:
        deleted = purge_expired_idempotency_keys(options["hours"])
        self.stdout.write(f"deleted {deleted} idempotency key(s)")
