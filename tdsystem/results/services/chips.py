"""Chip counts the floor enters, for the average and the chip leader."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.seating.models import Entry

from ..errors import ResultsError
from ..models import ChipCount, ChipCountHistory
from .locks import event_lock

# The most chips a stack, a count or a short big blind may be entered with: 15 digits, far
# above any real stack and well inside the 64-bit columns. The API's schema and the pages'
# forms both state it.
MAX_CHIPS = 10**15 - 1


def chip_count_record(*, event_id: int, entry_number: int, chips: int, actor: Actor) -> ChipCount:
    """The latest count for a player still in: it becomes the current count (the chip
    leader reads that) and is added to the entry's history, with who and when.

    `chips` is 1 to MAX_CHIPS (the form's rule)."""
    with transaction.atomic():
        event = event_lock(event_id)
        rows = Entry.objects.filter(event=event, number=entry_number).select_related("player")
        entry = rows.first()
        if entry is None:
            raise ResultsError(f"no entry #{entry_number} in this event", field="entry")
        if entry.status != Entry.Status.ACTIVE:
            raise ResultsError(f"#{entry.number} {entry.player.name} is out", field="entry")
        now = timezone.now()
        count, _ = ChipCount.objects.update_or_create(
            entry=entry,
            defaults={
                "event": event,
                "chips": chips,
                "counted_at": now,
                "actor_label": actor.label,
            },
        )
        ChipCountHistory.objects.create(
            entry=entry, event=event, chips=chips, counted_at=now, actor_label=actor.label
        )
    return count
