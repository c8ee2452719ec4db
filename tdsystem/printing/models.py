"""The room's receipt printers, what each event prints by itself, and the print queue.

A `PrintJob` holds a document's content as plain values (documents.py), not its bytes: it
is laid out and turned into the printer's commands when it prints, in the language it
was made in, so a reprint is the same document and the print page shows it too.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tdsystem.events.models import Event

NAME_MAX = 40
URL_MAX = 200


class Document(models.TextChoices):
    """The documents the floor hands out."""

    ENTRY_RECEIPT = "entry-receipt", _("Entry receipt")
    SEAT_CARD = "seat-card", _("Seat card")
    MOVE_SLIP = "move-slip", _("Move slip")
    TABLE_BREAK = "table-break", _("Table break card")
    PAYOUT_SLIP = "payout-slip", _("Payout slip")
    CHIP_VOUCHER = "chip-voucher", _("Chip voucher")
    REDRAW_RECEIPT = "redraw-receipt", _("Redraw receipt")
    TEST_PAGE = "test-page", _("Test page")


class Printer(models.Model):
    """A receipt printer of the room: where it is (`tcp://host:9100`, a device file such as
    `file:///dev/usb/lp0`), its paper, the documents it prints, and the desk or the
    tables it serves (the first printer of a section prints that section's slips)."""

    class Paper(models.IntegerChoices):
        MM80 = 80, _("80 mm")
        MM58 = 58, _("58 mm")

    name = models.CharField(max_length=NAME_MAX, unique=True)
    url = models.CharField(max_length=URL_MAX)
    paper = models.PositiveSmallIntegerField(choices=Paper.choices, default=Paper.MM80)
    # The documents it prints; empty: every document.
    documents = models.JSONField(default=list, blank=True)
    desk = models.CharField(
        max_length=NAME_MAX, blank=True, help_text=_("Where it stands, e.g. “cage”.")
    )
    tables_from = models.PositiveIntegerField(null=True, blank=True)
    tables_to = models.PositiveIntegerField(null=True, blank=True)
    # Blank: each document in its event's screen language (or the installation's).
    language = models.CharField(max_length=8, blank=True, choices=settings.LANGUAGES)
    # Held by the one worker printing on it now (services.printer_drain), so the printer's
    # documents come out one at a time and in order.
    busy_until = models.DateTimeField(null=True, blank=True)
    # When the one retry of its waiting documents is due (one per printer, however many wait).
    retry_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(tables_from__isnull=True, tables_to__isnull=True)
                | Q(
                    tables_from__isnull=False,
                    tables_to__isnull=False,
                    tables_to__gte=models.F("tables_from"),
                ),
                name="printer_tables_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def prints(self, document: str) -> bool:
        return not self.documents or document in self.documents

    def serves(self, table: int | None) -> bool:
        """Whether its section holds the table (a printer without a section serves all)."""
        if self.tables_from is None or self.tables_to is None:
            return True
        return table is not None and self.tables_from <= table <= self.tables_to


class EventPrinting(models.Model):
    """What an event prints by itself, on the printers that take each document."""

    class MoveSlips(models.TextChoices):
        EACH = "each", _("One slip per move")
        TABLE = "table", _("One card per breaking table")

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, primary_key=True, related_name="printing"
    )
    seat_cards = models.BooleanField(
        default=True, help_text=_("Print the seat card when a player registers.")
    )
    entry_receipts = models.BooleanField(
        default=False, help_text=_("Print the entry receipt of every buy.")
    )
    receipt_copies = models.PositiveSmallIntegerField(default=1)
    move_slips = models.BooleanField(
        default=True, help_text=_("Print the move slips of a balancing move, a break or a redraw.")
    )
    break_slips = models.CharField(max_length=8, choices=MoveSlips.choices, default=MoveSlips.TABLE)
    payout_slips = models.BooleanField(
        default=True, help_text=_("Print the payout slip when a player is out in the money.")
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(receipt_copies__gte=1) & Q(receipt_copies__lte=2),
                name="event_printing_copies_range",
            )
        ]

    def __str__(self) -> str:
        return f"Printing of event {self.event_id}"


class PrintJob(models.Model):
    """One document to print, in the order made (its id) on its printer."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        WAITING = "waiting", _("Waiting for the printer")
        PRINTED = "printed", _("Printed")
        FAILED = "failed", _("Could not be laid out")
        BROWSER = "browser", _("No printer: print the page")
        CANCELLED = "cancelled", _("Cancelled")

    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="print_jobs"
    )
    printer = models.ForeignKey(
        Printer, null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs"
    )
    document = models.CharField(max_length=16, choices=Document.choices)
    data = models.JSONField(default=dict)
    language = models.CharField(max_length=8)
    copies = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    printed_at = models.DateTimeField(null=True, blank=True)
    actor_label = models.CharField(max_length=150)

    class Meta:
        ordering = ["-id"]
        indexes = [
            # A printer's documents still to print, oldest first (the drain's one read).
            models.Index(
                fields=["printer", "id"],
                condition=Q(status__in=["queued", "waiting"]),
                name="print_job_pending",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(copies__gte=1) & Q(copies__lte=5), name="print_job_copies_range"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_document_display()} #{self.pk}"
