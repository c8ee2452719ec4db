"""Reads for an event's life that reach into seating: what a deletion would take and
which tables a copy would get."""

from __future__ import annotations

from dataclasses import dataclass

from tdsystem.events.models import Event
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable

from .life import event_delete_refusal


@dataclass(frozen=True)
class DeletionPreview:
    entries: int
    tables: list[int]
    refusal: str | None


def deletion_preview(event: Event) -> DeletionPreview:
    return DeletionPreview(
        entries=Entry.objects.filter(event=event).count(),
        tables=sorted(EventTable.objects.filter(event=event).values_list("number", flat=True)),
        refusal=event_delete_refusal(event),
    )


@dataclass(frozen=True)
class TableChoice:
    numbers: list[int]
    seats: int
    # The source's numbers other events hold: (numbers, holder's name, its status).
    taken: list[tuple[str, str, str]]
    free_label: str


def copy_tables(source: Event) -> TableChoice:
    """The copy form's tables: the source's numbers when free, else as many free ones."""
    rows = list(EventTable.objects.filter(event=source).values_list("number", "seats"))
    wanted = sorted({number for number, _seats in rows})
    seats = seating.tables_seats(source)
    holders = seating.tables_taken(exclude_event_id=None)
    by_holder: dict[int, list[int]] = {}
    for n in wanted:
        if n in holders:
            by_holder.setdefault(holders[n].pk, []).append(n)
    taken = [
        (
            ", ".join(map(str, held)),
            holders[held[0]].name,
            holders[held[0]].get_status_display().lower(),
        )
        for held in by_holder.values()
    ]
    numbers = [n for n in wanted if n not in holders]
    missing = len(wanted) - len(numbers)
    if missing:
        spare = seating.tables_free(count=len(wanted) + missing)
        numbers += [n for n in spare if n not in numbers][:missing]
    numbers.sort()
    return TableChoice(numbers, seats, taken, seating.tables_free_label())
