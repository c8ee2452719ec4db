"""Write an event (a festival: with its flights) to one JSON file; its path is the last
word of the output."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tdsystem.events.models import Event
from tdsystem.venue.transfer import TransferError, event_export_json, export_filename


class Command(BaseCommand):
    help = (
        "Write everything of event EVENT_ID (a festival's: with every flight) to one JSON "
        "file, for event_import here or in another installation. PATH: a new file or a "
        "directory (default: event-ID-DATE.json here); '-' writes it out."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("path", nargs="?", default=".")

    def handle(self, *args, event_id: int, path: str, **options) -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"There is no event {event_id}.")
        try:
            data = event_export_json(event_id=event_id)
        except TransferError as exc:
            raise CommandError(str(exc)) from None
        if path == "-":
            self.stdout.write(data.decode())
            return
        target = Path(path).expanduser()
        if target.is_dir():
            target = target / export_filename(event)
        if target.exists():
            raise CommandError(f"{target} exists already: name a new file.")
        target.write_bytes(data)
        self.stdout.write(f"Exported {event.name} (event {event.pk}): {target.resolve()}")
