"""``python manage.py rebuild_leaderboards``: rebuild every Redis board from PostgreSQL.

Options: ``--rescore`` first scores finished ranked plays that have no score (a crash between
the play's commit and the receiver), ``--freeze`` stores the ranks of every past day,
``--clear`` deletes the leaderboard keys first (boards are then served from PostgreSQL until
each is rebuilt). Safe to run while the service is up: each board is built in a buffer key
and swapped in with one RENAME.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games import daily
from leaderboard import freezing, rebuilding, scores, store
from leaderboard.models import Score
from leaderboard.refs import BoardRef


class Command(BaseCommand):
    help = "Rebuild the Redis leaderboards from PostgreSQL (the source of truth)."

    def add_arguments(self, parser):
        parser.add_argument("--rescore", action="store_true", help="score unscored plays first")
        parser.add_argument("--freeze", action="store_true", help="freeze every past day")
        parser.add_argument("--clear", action="store_true", help="delete all board keys first")

    def handle(self, *args, rescore=False, freeze=False, clear=False, **options):
        if rescore:
            self.stdout.write(f"scored {scores.rescore_missing()} play(s)")
        if freeze:
            today = daily.utc_today()
            days = (
                Score.objects.filter(date__lt=today)
                .order_by()
                .values_list("board", "date")
                .distinct()
            )
            for board, day in tqdm(list(days), desc="freeze", unit="board"):
                freezing.freeze(BoardRef.daily(board, day))
        if not store.configured():
            raise CommandError("REDIS_URL is not set: there are no Redis boards to rebuild")
        try:
            if clear:
                self.stdout.write(f"deleted {store.delete_all()} key(s)")
            refs = list(rebuilding.all_boards())
            entries = 0
            for ref in tqdm(refs, desc="rebuild", unit="board"):
                entries += rebuilding.rebuild(ref)
        except store.StoreUnavailable as error:
            raise CommandError(f"Redis is unavailable: {error}") from error
        self.stdout.write(self.style.SUCCESS(f"rebuilt {len(refs)} board(s), {entries} entries"))
