"""Compile the gettext catalogues (``.po`` → ``.mo``) with Babel, in pure Python.

Django's own ``compilemessages`` needs GNU gettext's ``msgfmt``, which a fresh machine may
lack; ``make install`` (and so ``make run`` and ``make test``) and the Docker image run this
instead. Only catalogues whose ``.mo`` is missing or older than the ``.po`` are written.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def compile_catalogues(force: bool = False) -> list[Path]:
    """Compile every stale ``LC_MESSAGES/*.po`` under ``LOCALE_PATHS``; the paths written."""
    written = []
    for root in settings.LOCALE_PATHS:
        for po in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
            mo = po.with_suffix(".mo")
            if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                continue
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            errors = [(message.id, error) for message, errs in catalog.check() for error in errs]
            if errors:
                raise CommandError(f"{po}: {errors[0][1]} in {errors[0][0]!r}")
            tmp = mo.with_suffix(".mo.tmp")
            with tmp.open("wb") as target:
                write_mo(target, catalog)
            tmp.replace(mo)
            written.append(mo)
    return written


class Command(BaseCommand):
    help = "Compile the .po translation catalogues to .mo with Babel (no GNU gettext needed)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="recompile up-to-date ones")

    def handle(self, *args: object, force: bool = False, **options: object) -> None:
        for mo in compile_catalogues(force=force):
            self.stdout.write(f"compiled {mo}")
