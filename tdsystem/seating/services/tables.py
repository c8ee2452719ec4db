"""The event's tables: venue tables put into play, released, and the break order."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import SEATS_PER_TABLE, TABLE_NUMBER, grouped
from tdsystem.events.models import Event

from ..errors import SeatingError
from ..models import Entry, EventTable, VenueTable
from ..signals import tables_changed

MIN_TABLE_SEATS, MAX_TABLE_SEATS = SEATS_PER_TABLE.low, SEATS_PER_TABLE.high


def tables_setup(*, event: Event, numbers: list[int], seats: int, actor: Actor) -> list[EventTable]:
    """Put venue tables into play for the event; the break order becomes highest first."""
    if not MIN_TABLE_SEATS <= seats <= MAX_TABLE_SEATS:
        raise SeatingError(
            gettext("a table has %(low)s to %(high)s seats")
            % {"low": MIN_TABLE_SEATS, "high": MAX_TABLE_SEATS},
            field="seats",
        )
    if not numbers or any(number not in TABLE_NUMBER for number in numbers):
        raise SeatingError(
            gettext("give table numbers from %(low)s to %(high)s")
            % {"low": TABLE_NUMBER.low, "high": grouped(TABLE_NUMBER.high)},
            field="numbers",
        )
    wanted = sorted(set(numbers))
    with transaction.atomic():
        event = event_lock(Event.objects, event.pk, error=SeatingError, venue_tables=wanted)
        seated = set(
            Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
            .values_list("table__number", flat=True)
            .distinct()
        )
        venues = venue_tables_lock(numbers=wanted, seats=seats)
        created = []
        for number, venue in venues.items():
            busy = EventTable.objects.filter(venue_table=venue, in_play=True).exclude(event=event)
            holder = busy.select_related("event").first()
            if holder is not None:
                raise SeatingError(_table_taken(number, holder.event), field="numbers")
            old = EventTable.objects.filter(event=event, number=number).first()
            if old and number in seated and old.seats != seats:
                raise SeatingError(
                    gettext("players sit at table %(number)s: its seats cannot change")
                    % {"number": number}
                )
            table, _ = EventTable.objects.update_or_create(
                event=event,
                number=number,
                defaults={"venue_table": venue, "seats": seats, "in_play": True, "broken_at": None},
            )
            created.append(table)
        _rank_tables(event, [])
        log_record(
            event=event,
            actor=actor,
            action="tables.setup",
            summary=Text(
                gettext_noop("Tables in play: %(numbers)s (%(seats)s seats)"),
                numbers=_numbers(numbers),
                seats=seats,
            ),
            data={"numbers": sorted(set(numbers)), "seats": seats},
        )
        tables_changed.send(
            sender=EventTable, event_id=event.pk, opened=sorted(set(numbers)), released=[]
        )
    return created


def tables_seats(event: Event) -> int:
    """The seats the event's tables were set up with: the most common count among them
    (fewer first on a tie), so a final table that seats more (ten at a 9-handed WSOP
    event) does not count; the event's seats per table when it has no tables."""
    counts = Counter(EventTable.objects.filter(event=event).values_list("seats", flat=True))
    if not counts:
        return event.seats_per_table
    return min(counts, key=lambda seats: (-counts[seats], seats))


def venue_tables_lock(*, numbers: list[int], seats: int) -> dict[int, VenueTable]:
    """The venue's tables of these numbers (new ones created), read under their locks.

    The event's own lock does not stop another event taking the same table, so the setup
    names the venue's tables too (`event_lock(..., venue_tables=numbers)`, taken before the
    event's): two staff setting up one table for two events take turns there, and the
    second sees the first's table in play and is told who holds it, rather than meeting
    the database constraint.
    """
    for number in numbers:
        VenueTable.objects.get_or_create(number=number, defaults={"seats": seats})
    return {venue.number: venue for venue in VenueTable.objects.filter(number__in=numbers)}


def _table_taken(number: int, holder: Event) -> str:
    free = tables_free_label()
    return gettext(
        "table %(number)s is in use by %(event)s (%(status)s); free numbers: %(free)s"
    ) % {
        "number": number,
        "event": holder.name,
        "status": holder.get_status_display().lower(),
        "free": free,
    }


def tables_taken(*, exclude_event_id: int | None = None) -> dict[int, Event]:
    """The venue's table numbers some event has in play, with that event."""
    rows = EventTable.objects.filter(in_play=True).select_related("event")
    if exclude_event_id is not None:
        rows = rows.exclude(event_id=exclude_event_id)
    return {row.number: row.event for row in rows}


def tables_free(*, count: int, exclude_event_id: int | None = None) -> list[int]:
    """The `count` lowest table numbers from 1 that no (other) event has in play."""
    taken = tables_taken(exclude_event_id=exclude_event_id)
    free: list[int] = []
    number = 1
    while len(free) < count:
        if number not in taken:
            free.append(number)
        number += 1
    return free


def tables_free_label(*, exclude_event_id: int | None = None) -> str:
    """The free numbers as ranges, e.g. "4–12, 16 and up" (the venue's tables, then on)."""
    taken = tables_taken(exclude_event_id=exclude_event_id)
    known = set(VenueTable.objects.values_list("number", flat=True)) | set(taken)
    top = max(known, default=0)
    free = [n for n in range(1, top + 1) if n not in taken]
    ranges: list[list[int]] = []
    for n in free:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    # The last range reaches past the venue's tables: any new number is free too.
    start = ranges.pop()[0] if ranges and ranges[-1][1] == top else top + 1
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in ranges]
    parts.append(gettext("%(number)s and up") % {"number": start})
    return ", ".join(parts)


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in sorted(set(numbers)))


def _rank_tables(event: Event, first: list[int]) -> list[int]:
    """Rank the tables in play: `first` in that order, then highest number first."""
    tables = list(EventTable.objects.filter(event=event, in_play=True))
    position = {number: index for index, number in enumerate(dict.fromkeys(first))}
    tables.sort(key=lambda t: (position.get(t.number, len(position)), -t.number))
    for rank, table in enumerate(tables):
        table.break_rank = rank
    EventTable.objects.bulk_update(tables, ["break_rank"])
    return [table.number for table in tables]


def tables_reorder(*, event_id: int, numbers: list[int], actor: Actor) -> list[int]:
    """Set the break order: `numbers` break first, in that order; the rest highest first."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        in_play = set(
            EventTable.objects.filter(event=event, in_play=True).values_list("number", flat=True)
        )
        unknown = [n for n in numbers if n not in in_play]
        if unknown:
            raise SeatingError(
                gettext("not in play: table %(numbers)s") % {"numbers": _numbers(unknown)},
                field="numbers",
            )
        order = _rank_tables(event, numbers)
        log_record(
            event=event,
            actor=actor,
            action="tables.order",
            summary=Text(
                gettext_noop("Break order: %(order)s"), order=", ".join(str(n) for n in order)
            ),
            data={"order": order},
        )
    return order


def tables_release(*, event_id: int, numbers: list[int], actor: Actor) -> None:
    """Take empty tables out of the event (they go back to the venue)."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        tables = list(
            EventTable.objects.select_for_update(no_key=True).filter(
                event=event, number__in=numbers, in_play=True
            )
        )
        if len(tables) != len(set(numbers)):
            raise SeatingError(gettext("only tables in play can be released"), field="numbers")
        occupied = Entry.objects.filter(table__in=tables, status=Entry.Status.ACTIVE)
        if occupied.exists():
            raise SeatingError(gettext("players sit at that table: break or balance it first"))
        EventTable.objects.filter(pk__in=[t.pk for t in tables]).update(
            in_play=False, button=None, small_blind=None, big_blind=None
        )
        _rank_tables(event, [])
        log_record(
            event=event,
            actor=actor,
            action="tables.release",
            summary=Text(gettext_noop("Tables released: %(numbers)s"), numbers=_numbers(numbers)),
            data={"numbers": sorted(set(numbers))},
        )
        tables_changed.send(
            sender=EventTable, event_id=event.pk, opened=[], released=sorted(set(numbers))
        )


# Why an event gives all its tables back (the log's `reason`), and what its log says.
RELEASE_SUMMARIES = {
    "day2": gettext_noop("Tables given back for Day 2: %(numbers)s"),
    Event.Status.FINISHED: gettext_noop("Tables given back to the venue: %(numbers)s"),
}


def tables_release_all(*, event: Event, reason: str, actor: Actor) -> list[int]:
    """Every table the event has in play goes back to the venue: a finished event's
    (`reason` "finished"), a flight's once Day 2 is combined ("day2"). The caller holds the
    event's lock. Whoever still sits leaves the seat, since nobody sits at a table out of
    play (a finish keeps the table and seat it was won at; a flight's survivors are
    carried to Day 2 first). The rows stay: results name the tables players left from.
    Returns the numbers given back."""
    tables = EventTable.objects.filter(event=event, in_play=True)
    numbers = sorted(tables.values_list("number", flat=True))
    if not numbers:
        return []
    Entry.objects.filter(event=event, table__isnull=False).update(table=None, seat=None)
    tables.update(in_play=False, button=None, small_blind=None, big_blind=None)
    log_record(
        event=event,
        actor=actor,
        action="tables.release",
        summary=Text(RELEASE_SUMMARIES[reason], numbers=", ".join(map(str, numbers))),
        data={"numbers": numbers, "reason": reason},
    )
    return numbers
