"""manage.py printer add|list|test|remove: the room's receipt printers from set-up scripts."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tdsystem.core.actors import Actor
from tdsystem.printing import services
from tdsystem.printing.errors import PrintingError
from tdsystem.printing.models import Document, Printer


def _tables(value: str) -> tuple[int, int]:
    low, _, high = value.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise CommandError(f"--tables {value!r}: expected FIRST-LAST, e.g. 1-10") from None


class Command(BaseCommand):
    help = "Add, list, test or remove the room's receipt printers."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="add a printer: NAME URL")
        add.add_argument("name")
        add.add_argument("url", help="tcp://HOST:9100, or file:///dev/usb/lp0")
        add.add_argument(
            "--documents",
            default="",
            help="what it prints, by commas (default: everything): " + ",".join(Document.values),
        )
        add.add_argument("--paper", type=int, default=80, choices=[80, 58])
        add.add_argument("--desk", default="")
        add.add_argument("--tables", default="", help="the section it serves: FIRST-LAST")
        add.add_argument("--language", default="")
        actions.add_parser("list", help="the printers, one a line")
        test = actions.add_parser("test", help="a test page on NAME")
        test.add_argument("name")
        remove = actions.add_parser("remove", help="remove NAME")
        remove.add_argument("name")
        samples = actions.add_parser("samples", help="every document as a PNG, into DIR")
        samples.add_argument("folder")
        samples.add_argument("--language", default="en")
        samples.add_argument("--paper", type=int, default=80, choices=[80, 58])

    def handle(self, *args, action: str, **options) -> None:
        getattr(self, f"_{action}")(**options)

    def _add(self, *, name, url, documents, paper, desk, tables, language, **_options) -> None:
        try:
            printer = services.printer_add(
                name=name,
                url=url,
                paper=paper,
                documents=[d.strip() for d in documents.split(",") if d.strip()],
                desk=desk,
                tables=_tables(tables) if tables else None,
                language=language,
            )
        except PrintingError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"added {printer.name}: {printer.url}")

    def _list(self, **_options) -> None:
        for p in Printer.objects.all():
            prints = ",".join(p.documents) or "everything"
            section = f" tables {p.tables_from}-{p.tables_to}" if p.tables_from else ""
            desk = f" desk {p.desk}" if p.desk else ""
            self.stdout.write(f"{p.name}\t{p.url}\t{p.paper} mm\t{prints}{desk}{section}")

    def _test(self, *, name, **_options) -> None:
        printer = self._find(name)
        job = services.printer_test(printer=printer, actor=Actor(label="manage.py printer"))
        # Sent here and now, so a set-up script sees at once whether the printer answers.
        drained = services.printer_drain(printer_id=printer.pk)
        if drained.waiting is not None:
            raise CommandError(f"{printer.name}: {drained.waiting.error} (job {job.pk} waits)")
        self.stdout.write(f"test page printed on {printer.name}")

    def _remove(self, *, name, **_options) -> None:
        services.printer_remove(printer_id=self._find(name).pk)
        self.stdout.write(f"removed {name}")

    def _samples(self, *, folder, language, paper, **_options) -> None:
        from pathlib import Path

        from tdsystem.printing.samples import write

        for path in write(Path(folder), language, paper):
            self.stdout.write(str(path))

    def _find(self, name: str) -> Printer:
        printer = Printer.objects.filter(name__iexact=name).first()
        if printer is None:
            raise CommandError(f"no printer named {name!r}")
        return printer
