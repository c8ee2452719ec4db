"""Printing: the room's printers, the print queue and the documents sent to it.

A document to print is a `PrintJob` row first, made in the transaction of whatever asked
for it, then a task (tasks.printer_drain) sends the printer's documents one at a time, in
the order they were made. A printer that cannot take one (off the network, out of paper)
leaves it, and every one behind it, waiting: nothing is lost, the console says which
printer waits and why, and the task tries again on the schedule of PRINT_RETRY_SECONDS
(beat's sweep starts it again if its worker went away). A job is marked printed once its
bytes were sent, so a worker killed between the two prints that document twice rather
than never.

The printer is held while its documents go (`busy_until`, taken by a compare-and-set), so
two workers never print one printer's documents out of order; `retry_at` keeps one retry
waiting per printer, however many documents wait.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event

from . import transport
from .documents import Doc, document_of, layout
from .errors import PrintingError
from .models import NAME_MAX, Document, EventPrinting, Printer, PrintJob
from .receipts import receipt_bytes

logger = logging.getLogger(__name__)
PENDING = (PrintJob.Status.QUEUED, PrintJob.Status.WAITING)


# Printers --------------------------------------------------------------------------------


def printer_add(
    *,
    name: str,
    url: str,
    paper: int = 80,
    documents: Sequence[str] = (),
    desk: str = "",
    tables: tuple[int, int] | None = None,
    language: str = "",
) -> Printer:
    """A printer of the room, named once (a name already used is refused)."""
    name = " ".join(name.split())
    if not name or len(name) > NAME_MAX:
        raise PrintingError(_("a printer needs a name of at most 40 letters"), field="name")
    try:
        url = transport.check_url(url)
    except ValueError as exc:
        raise PrintingError(str(exc), field="url") from None
    unknown = sorted(set(documents) - set(Document.values))
    if unknown:
        raise PrintingError(
            _("no such document: %(names)s (the documents: %(known)s)")
            % {"names": ", ".join(unknown), "known": ", ".join(Document.values)},
            field="documents",
        )
    if paper not in Printer.Paper.values:
        raise PrintingError(_("the paper is 80 or 58 mm wide"), field="paper")
    if tables is not None and not 1 <= tables[0] <= tables[1]:
        raise PrintingError(
            _("a section of tables runs from one table to a higher one"), field="tables"
        )
    with transaction.atomic():
        if Printer.objects.filter(name__iexact=name).exists():
            raise PrintingError(
                _("there is a printer named %(name)s already") % {"name": name}, field="name"
            )
        return Printer.objects.create(
            name=name,
            url=url,
            paper=paper,
            documents=list(dict.fromkeys(documents)),
            desk=" ".join(desk.split())[:NAME_MAX],
            tables_from=tables[0] if tables else None,
            tables_to=tables[1] if tables else None,
            language=language,
        )


def printer_remove(*, printer_id: int) -> None:
    """The printer goes; its documents still to print are cancelled (printed ones stay)."""
    with transaction.atomic():
        PrintJob.objects.filter(printer_id=printer_id, status__in=PENDING).update(
            status=PrintJob.Status.CANCELLED, error=_("the printer was removed")
        )
        Printer.objects.filter(pk=printer_id).delete()


def printer_test(*, printer: Printer, actor: Actor) -> PrintJob:
    """A test page on the printer, through the queue like any document."""
    from .documents import TestPage
    from .links import console_link

    page = TestPage(
        event="",
        at=timezone.now().isoformat(),
        printer=printer.name,
        url=printer.url,
        paper=printer.paper,
        link=console_link(),
    )
    (job,) = jobs_make(event=None, documents=[page], actor=actor, printer=printer)
    return job


# Making jobs -----------------------------------------------------------------------------


def event_printing(event: Event) -> EventPrinting:
    """The event's switches, the defaults when it has none saved."""
    found = EventPrinting.objects.filter(event=event).first()
    return found or EventPrinting(event=event)


def printer_for(document: Doc, printers: Iterable[Printer]) -> Printer | None:
    """The printer that prints this document: the first (by name) that takes it and whose
    section holds its table, else the first that takes it with no section of its own."""
    taking = [p for p in printers if p.prints(document.KIND)]
    table = document.table()
    for printer in taking:
        if printer.tables_from is not None and table is not None and printer.serves(table):
            return printer
    return next((p for p in taking if p.tables_from is None), None)


def language_of(event: Event | None, printer: Printer | None) -> str:
    """The desk's language (its printer's), else the event's screens', else the room's."""
    if printer is not None and printer.language:
        return printer.language
    if event is not None and event.screen_language:
        return event.screen_language
    return settings.LANGUAGE_CODE


def jobs_make(
    *,
    event: Event | None,
    documents: Sequence[Doc],
    actor: Actor,
    printer: Printer | None = None,
    copies: int = 1,
    automatic: bool = False,
) -> list[PrintJob]:
    """Queue the documents, each on `printer` or the one that prints it. Without a printer
    a document is kept for the print page (`automatic` ones are dropped instead: a room
    without a printer for them does not want them). The printers start after the commit."""
    printers = list(Printer.objects.all()) if printer is None else [printer]
    jobs = []
    for doc in documents:
        target = printer or printer_for(doc, printers)
        if target is None and automatic:
            continue
        jobs.append(
            PrintJob(
                event=event,
                printer=target,
                document=doc.KIND,
                data=doc.as_data(),
                language=language_of(event, target),
                copies=copies,
                status=PrintJob.Status.QUEUED if target else PrintJob.Status.BROWSER,
                actor_label=actor.label,
            )
        )
    with transaction.atomic():
        for job in jobs:
            job.save()  # one by one: their ids are the printing order
    for printer_id in sorted({job.printer_id for job in jobs if job.printer_id}):
        transaction.on_commit(functools.partial(drain_later, printer_id))
    return jobs


def job_reprint(*, job_id: int, actor: Actor, printer: Printer | None = None) -> PrintJob:
    """The same document again (its content as it was), on its printer or another."""
    job = PrintJob.objects.select_related("event", "printer").filter(pk=job_id).first()
    if job is None:
        raise PrintingError(_("no print job %(id)s") % {"id": job_id})
    doc = document_of(job.document, job.data)
    target = printer or job.printer
    (again,) = jobs_make(
        event=job.event, documents=[doc], actor=actor, printer=target, copies=job.copies
    )
    return again


def job_cancel(*, job_id: int) -> bool:
    """A document still waiting is not printed; False when it had been already."""
    return bool(
        PrintJob.objects.filter(pk=job_id, status__in=PENDING).update(
            status=PrintJob.Status.CANCELLED, error=""
        )
    )


def drain_later(printer_id: int) -> None:
    """Ask a worker to print the printer's queue; without a broker, beat's sweep will."""
    from . import tasks

    try:
        tasks.printer_drain.delay(printer_id)
    except Exception:
        logger.exception("printer %s: the print task could not be sent", printer_id)


# Printing --------------------------------------------------------------------------------


def job_bytes(job: PrintJob, paper: int) -> bytes:
    """The job's document in the printer's commands, laid out in the job's language."""
    doc = document_of(job.document, job.data)
    with translation.override(job.language):
        return receipt_bytes(layout(doc, job.copies), paper=paper, language=job.language)


@dataclass(frozen=True)
class Drained:
    printed: int
    waiting: PrintJob | None  # the document the printer could not take, if any
    busy: bool = False  # another worker holds the printer


def printer_drain(*, printer_id: int) -> Drained:
    """Print the printer's waiting documents, oldest first, until none is left or the
    printer cannot take one."""
    lease = timedelta(seconds=settings.PRINT_TIMEOUT_SECONDS * 3 + 30)
    if not _hold(printer_id, lease):
        return Drained(0, None, busy=True)
    printed = 0
    try:
        while True:
            printer = Printer.objects.filter(pk=printer_id).first()
            pending = PrintJob.objects.filter(printer_id=printer_id, status__in=PENDING)
            job = pending.order_by("id").first()
            if printer is None or job is None:
                return Drained(printed, None)
            try:
                data = job_bytes(job, printer.paper)
            except Exception as exc:  # a document that cannot be laid out must not block
                logger.exception("print job %s could not be laid out", job.pk)
                _mark(job, PrintJob.Status.FAILED, str(exc))
                continue
            try:
                transport.send(
                    printer.url,
                    data,
                    timeout=settings.PRINT_TIMEOUT_SECONDS,
                    status_timeout=settings.PRINT_STATUS_SECONDS,
                )
            except transport.Unavailable as exc:
                PrintJob.objects.filter(pk=job.pk).update(
                    status=PrintJob.Status.WAITING, attempts=job.attempts + 1, error=str(exc)[:200]
                )
                job.refresh_from_db()
                return Drained(printed, job)
            _mark(job, PrintJob.Status.PRINTED, "")
            printed += 1
            _hold(printer_id, lease, renew=True)
    finally:
        Printer.objects.filter(pk=printer_id).update(busy_until=None)


def _hold(printer_id: int, lease: timedelta, *, renew: bool = False) -> bool:
    now = timezone.now()
    rows = Printer.objects.filter(pk=printer_id)
    if not renew:
        rows = rows.filter(Q(busy_until__isnull=True) | Q(busy_until__lt=now))
    return bool(rows.update(busy_until=now + lease))


def _mark(job: PrintJob, status: str, error: str) -> None:
    PrintJob.objects.filter(pk=job.pk, status__in=PENDING).update(
        status=status,
        error=error[:200],
        printed_at=timezone.now() if status == PrintJob.Status.PRINTED else None,
    )


def retry_delay(attempts: int) -> float:
    """Seconds before the next try of a document tried `attempts` times."""
    schedule = settings.PRINT_RETRY_SECONDS
    return schedule[min(max(attempts, 1), len(schedule)) - 1]


def retry_claim(printer_id: int, delay: float) -> bool:
    """Whether this caller sends the printer's one retry (none is due yet), claiming it."""
    now = timezone.now()
    rows = Printer.objects.filter(pk=printer_id).filter(
        Q(retry_at__isnull=True) | Q(retry_at__lte=now)
    )
    return bool(rows.update(retry_at=now + timedelta(seconds=delay)))


def retry_done(printer_id: int) -> None:
    Printer.objects.filter(pk=printer_id).update(retry_at=None)


def printers_waiting() -> list[int]:
    """The printers with documents to print and no retry due later: the sweep's."""
    now = timezone.now()
    pending = PrintJob.objects.filter(status__in=PENDING, printer__isnull=False)
    ids = set(pending.values_list("printer_id", flat=True))
    due = Printer.objects.filter(pk__in=ids).filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    return list(due.values_list("pk", flat=True))


# Printing on demand ----------------------------------------------------------------------


def documents_print(
    *,
    event: Event,
    document: str,
    actor: Actor,
    entry: int | None = None,
    table: int | None = None,
    day: int | None = None,
    printer: Printer | None = None,
    copies: int = 1,
) -> list[PrintJob]:
    """The console's "print": an entry's seat card, entry receipt or payout slip, every
    seat card (of one table), a day's chip vouchers, or every seat as a redraw receipt."""
    from tdsystem.seating.models import Entry

    from . import selectors

    docs: list[Doc] = []
    if document in (Document.SEAT_CARD, Document.ENTRY_RECEIPT, Document.PAYOUT_SLIP):
        if entry is None:
            raise PrintingError(_("which entry? give its number"), field="entry")
        row = (
            Entry.objects.filter(event=event, number=entry)
            .select_related("event", "player", "table")
            .first()
        )
        if row is None:
            raise PrintingError(
                _("no entry #%(number)s in this event") % {"number": entry}, field="entry"
            )
        if document == Document.SEAT_CARD:
            card = selectors.seat_card(row)
            if card is None:
                raise PrintingError(_("#%(number)s has no seat") % {"number": entry}, field="entry")
            docs = [card]
        elif document == Document.ENTRY_RECEIPT:
            receipt = selectors.entry_receipt_last(row)
            docs = [receipt] if receipt else []
        else:
            finish = selectors.finish_of(event, entry)
            if finish is None:
                raise PrintingError(_("#%(number)s is not out") % {"number": entry}, field="entry")
            docs = [selectors.payout_slip(finish, paid_by=actor)]
    elif document == "seat-cards":
        docs = list(selectors.seat_cards(event, table))
    elif document == Document.CHIP_VOUCHER:
        docs = list(selectors.chip_vouchers(event, day))
    elif document == Document.REDRAW_RECEIPT:
        seated = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
        tables = seated.values("table").distinct().count()
        docs = [selectors.redraw_receipt(event, tables=tables)]
    else:
        raise PrintingError(_("no such document: %(name)s") % {"name": document}, field="document")
    if not docs:
        raise PrintingError(_("nothing to print"))
    return jobs_make(event=event, documents=docs, actor=actor, printer=printer, copies=copies)


def event_printing_save(*, event: Event, values: dict) -> EventPrinting:
    """The event's switches, saved (made the first time)."""
    with transaction.atomic():
        found, _created = EventPrinting.objects.update_or_create(event=event, defaults=values)
    return found


@dataclass(frozen=True)
class Queue:
    """A printer with documents still to print, and why the first one waits if it does."""

    printer: Printer
    pending: int
    first: PrintJob

    @property
    def waiting(self) -> bool:
        return self.first.status == PrintJob.Status.WAITING


def queue_state() -> list[Queue]:
    """Every printer's queue that is not empty, by printer name."""
    out = []
    for printer in Printer.objects.all():
        pending = PrintJob.objects.filter(printer=printer, status__in=PENDING).order_by("id")
        first = pending.select_related("event").first()
        if first is not None:
            out.append(Queue(printer, pending.count(), first))
    return out
