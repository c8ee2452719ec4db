"""Make the events of a file written by event_export (or the console's Export) here."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy
from tdsystem.venue.transfer import TransferError, event_import


class Command(BaseCommand):
    help = (
        "Import an event's JSON file (event_export, or the console's Export): new events "
        "with all of their rows, in one transaction; a file that is not right changes "
        "nothing. The new event's id is the last word of the output."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, file: str, **options) -> None:
        path = Path(file).expanduser()
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}") from None
        try:
            done = event_import(
                data=data, actor=Actor(label="manage.py event_import"), name=path.name
            )
        except (TransferError, Busy) as exc:
            raise CommandError(f"Nothing imported: {exc}") from None
        self.stdout.write(
            f"Imported {done.event.name}: {done.events} events, {done.rows} rows, "
            f"{done.players_found} players found by member id, {done.players_new} new; "
            f"event {done.event.pk}"
        )
