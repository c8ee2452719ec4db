"""Put a backup of the whole database back (another laptop, or this one with --force)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tdsystem.core.backup import BackupError
from tdsystem.core.restore import backup_restore, counted, restore_target


class Command(BaseCommand):
    help = (
        "Replace this installation's database with a backup made by `manage.py backup` or "
        "the run's periodic backups, then migrate it. Refused when the database holds "
        "events or accounts already, or the system runs on it, unless --force."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the backup (tdsystem-...Z.sqlite3 or .dump)")
        parser.add_argument(
            "--force",
            action="store_true",
            help="replace a database that holds events or accounts (it is backed up first)",
        )

    def handle(self, *args, file: str, force: bool, **options) -> None:
        self.stdout.write(f"Restoring {file} into {restore_target()}...")
        try:
            done = backup_restore(path=Path(file), force=force)
        except BackupError as exc:
            raise CommandError(f"Nothing restored: {exc}") from None
        held = f"{counted(done.events, 'event')}, {counted(done.users, 'staff account')}"
        lines = [f"Restored {done.path.name}: {held}."]
        if done.newest_change:
            at = timezone.localtime(done.newest_change)
            lines.append(
                f"Its newest change was logged at {at:%a %d %b %H:%M:%S}: enter what happened "
                "after it from the paper notes."
            )
        if done.replaced:
            lines.append(f"The database it replaced was backed up first: {done.replaced}")
        lines.append(
            "Start the system (make run). Staff log in with the passwords they had on the "
            "machine the backup came from (manage.py changepassword NAME sets a new one)."
        )
        self.stdout.write("\n".join(lines))
