"""Seating services: registration, the event's tables and the seat draw.

Seating decisions are the engine's (tdsystem.engine.seating); these functions turn rows
into engine values, call it, and write the plan back inside one transaction.
"""

from __future__ import annotations

import random
import secrets
from decimal import Decimal

from django.db import transaction
from django.db.models import Max

from tdsystem.events.models import Event
from tdsystem.events.services import Actor, log_record

from .models import Entry, EventTable, Player, VenueTable


class SeatingError(ValueError):
    """A seating request that cannot be carried out; nothing was changed."""


def tables_setup(*, event: Event, numbers: list[int], seats: int, actor: Actor) -> list[EventTable]:
    """Put venue tables into play for the event; they break highest number first."""
    if not 2 <= seats <= 10:
        raise SeatingError("a table has 2 to 10 seats")
    created = []
    with transaction.atomic():
        for number in numbers:
            venue, _ = VenueTable.objects.get_or_create(number=number, defaults={"seats": seats})
            busy = EventTable.objects.filter(venue_table=venue, in_play=True).exclude(event=event)
            if busy.exists():
                raise SeatingError(f"table {number} is in use by another event")
            table, _ = EventTable.objects.update_or_create(
                event=event,
                number=number,
                defaults={"venue_table": venue, "seats": seats, "in_play": True},
            )
            created.append(table)
        ranked = sorted(event.tables.filter(in_play=True), key=lambda t: -t.number)
        for rank, table in enumerate(ranked):
            EventTable.objects.filter(pk=table.pk).update(break_rank=rank)
        log_record(
            event=event,
            actor=actor,
            action="tables.setup",
            summary=f"Tables in play: {', '.join(str(n) for n in numbers)} ({seats} seats)",
        )
    return created


def player_register(
    *, event: Event, name: str, actor: Actor, member_id: str = "", reentry: bool = False
) -> Entry:
    name = " ".join(name.split())
    if not name:
        raise SeatingError("the player needs a name")
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        player = None
        if member_id:
            player = Player.objects.filter(member_id=member_id).first()
        if player is None:
            player = Player.objects.create(name=name[:120], member_id=member_id[:40])
        if Entry.objects.filter(event=locked, player=player, status=Entry.Status.ACTIVE).exists():
            raise SeatingError(f"{player.name} already has an active entry")
        number = (Entry.objects.filter(event=locked).aggregate(n=Max("number"))["n"] or 0) + 1
        entry = Entry.objects.create(
            event=locked,
            player=player,
            number=number,
            is_reentry=reentry,
            chips=locked.starting_stack,
            paid=Decimal(locked.buy_in),
        )
        log_record(
            event=locked,
            actor=actor,
            action="entry.register",
            summary=f"{'Re-entry' if reentry else 'Entry'} #{number}: {player.name}",
            data={"entry": entry.pk},
        )
    return entry


def seats_draw(*, event: Event, actor: Actor, seed: int | None = None) -> int:
    """Random draw of every unseated active entry, filling the tables evenly.

    The seed is logged so the draw can be reproduced in a dispute.
    """
    seed = secrets.randbits(48) if seed is None else seed
    rng = random.Random(seed)
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        tables = list(event.tables.filter(in_play=True).order_by("number"))
        if not tables:
            raise SeatingError("put tables into play before the draw")
        entries = list(
            Entry.objects.filter(
                event=event, status=Entry.Status.ACTIVE, table__isnull=True
            ).order_by("number")
        )
        taken = {
            (e.table_id, e.seat) for e in Entry.objects.filter(event=event, table__isnull=False)
        }
        free = [(t, s) for t in tables for s in range(1, t.seats + 1) if (t.pk, s) not in taken]
        if len(entries) > len(free):
            raise SeatingError(f"{len(entries)} players but only {len(free)} free seats")
        counts = {t.pk: sum(1 for tid, _ in taken if tid == t.pk) for t in tables}
        rng.shuffle(entries)
        by_table = {t.pk: [s for (tt, s) in free if tt.pk == t.pk] for t in tables}
        for seats in by_table.values():
            rng.shuffle(seats)
        for entry in entries:
            table = min(tables, key=lambda t: (counts[t.pk], rng.random()))
            entry.table, entry.seat = table, by_table[table.pk].pop()
            counts[table.pk] += 1
        Entry.objects.bulk_update(entries, ["table", "seat"])
        for table in tables:
            seated = sorted(e.seat for e in entries if e.table_id == table.pk)
            if table.button is None and seated:
                table.button = rng.choice(seated)
                table.save(update_fields=["button"])
        log_record(
            event=event,
            actor=actor,
            action="seats.draw",
            summary=f"Seat draw: {len(entries)} players at {len(tables)} tables",
            data={"seed": seed, "entries": len(entries)},
        )
    return len(entries)
