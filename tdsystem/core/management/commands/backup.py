"""Write a backup of the whole database; its path is the last word of the output."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import filesizeformat

from tdsystem.core.backup import BackupError, backup_take


class Command(BaseCommand):
    help = (
        "Write one consistent file of the whole database, while the system runs (SQLite: "
        "its online backup; PostgreSQL: pg_dump's custom format), into PATH: a directory "
        "(default BACKUP_DIR, var/backups/) or the name of a new file."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", nargs="?", help="a directory or a new file's name")

    def handle(self, *args, path: str | None, **options) -> None:
        try:
            record = backup_take(into=Path(path) if path else None)
        except BackupError as exc:
            raise CommandError(f"No backup made: {exc}") from None
        size = filesizeformat(record.size).replace("\xa0", " ")
        self.stdout.write(f"Backup of the whole database ({size}): {record.path}")
