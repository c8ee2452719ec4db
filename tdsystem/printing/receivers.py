"""What prints by itself: the seat card (and the entry receipt) of a registration, the slips
of a balancing move, a break or a redraw, and the payout slip of a player out in the money,
each as the event's switches say (EventPrinting) and only on a printer that takes it.

Seating and results tell what happened (a purchase saved, seating's `moves_applied`,
results' `players_out`) inside their transactions; the documents are made after the
commit, in a transaction of their own, so a change rolled back prints nothing and a
printing problem never fails the change that was made.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.results.signals import players_out
from tdsystem.seating.models import Move, Purchase
from tdsystem.seating.signals import moves_applied

from . import selectors, services
from .models import Document, EventPrinting, Printer

ACTOR = Actor(label="printing")
logger = logging.getLogger(__name__)


def _after_commit(work: Callable[[], object]) -> None:
    def run() -> None:
        try:
            work()
        except Exception:  # the change is made; a printing fault is logged, not raised
            logger.exception("automatic printing failed")

    transaction.on_commit(run)


def _wanted(event_id: int, *documents: str) -> tuple[Event, EventPrinting] | None:
    """The event and its switches when a printer takes one of these documents."""
    if not any(p.prints(d) for p in Printer.objects.all() for d in documents):
        return None
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return None
    return event, services.event_printing(event)


def purchase_printed(purchase_id: int) -> None:
    purchase = (
        Purchase.objects.select_related("event", "entry__player", "entry__table", "entry__event")
        .filter(pk=purchase_id)
        .first()
    )
    if purchase is None:
        return
    found = _wanted(purchase.event_id, Document.ENTRY_RECEIPT, Document.SEAT_CARD)
    if found is None:
        return
    event, switches = found
    if switches.entry_receipts:
        services.jobs_make(
            event=event,
            documents=[selectors.entry_receipt(purchase)],
            actor=ACTOR,
            copies=switches.receipt_copies,
            automatic=True,
        )
    new_seat = purchase.kind in (Purchase.Kind.ENTRY, Purchase.Kind.REENTRY)
    card = selectors.seat_card(purchase.entry) if new_seat and switches.seat_cards else None
    if card is not None:
        services.jobs_make(event=event, documents=[card], actor=ACTOR, automatic=True)


def moves_printed(event_id: int, move_ids: list[int]) -> None:
    found = _wanted(event_id, Document.MOVE_SLIP, Document.TABLE_BREAK, Document.REDRAW_RECEIPT)
    if found is None:
        return
    event, switches = found
    if not switches.move_slips:
        return
    per_table = switches.break_slips == EventPrinting.MoveSlips.TABLE
    documents = selectors.move_documents(event, move_ids, per_table=per_table)
    services.jobs_make(event=event, documents=documents, actor=ACTOR, automatic=True)


def finishes_printed(event_id: int, finish_ids: list[int]) -> None:
    found = _wanted(event_id, Document.PAYOUT_SLIP)
    if found is None:
        return
    event, switches = found
    if not switches.payout_slips:
        return
    documents = [selectors.payout_slip(f) for f in selectors.finishes_paid(event, finish_ids)]
    services.jobs_make(event=event, documents=documents, actor=ACTOR, automatic=True)


@receiver(post_save, sender=Purchase, dispatch_uid="printing-purchase")
def purchase_saved(sender, instance: Purchase, created: bool, **kwargs) -> None:
    if created and instance.kind != Purchase.Kind.CARRY:
        purchase_id = instance.pk
        _after_commit(lambda: purchase_printed(purchase_id))


@receiver(moves_applied, sender=Move, dispatch_uid="printing-moves")
def moves_made(sender, event_id: int, move_ids: list[int], **kwargs) -> None:
    _after_commit(lambda: moves_printed(event_id, list(move_ids)))


@receiver(players_out, dispatch_uid="printing-players-out")
def players_busted(sender, event_id: int, finish_ids: list[int], **kwargs) -> None:
    _after_commit(lambda: finishes_printed(event_id, list(finish_ids)))
