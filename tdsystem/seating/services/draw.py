"""The seat draw at the start of an event (TDA 7)."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.sql import update_rows
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from ..errors import SeatingError
from ..models import Entry, EventTable
from ..seatmap import (
    SeatMap,
    engine_call,
    has_blinds,
    new_seed,
    seats_write,
)


def seats_draw(*, event: Event, actor: Actor, seed: int | None = None) -> int:
    """Random draw of every active entry (TDA 7), even counts, a drawn button per table.

    The seed is logged: the same seed with the same entries and tables gives the same
    draw, so a draw can be reproduced in a dispute. Returns how many were seated.
    """
    seed = new_seed(seed)
    rng = random.Random(seed)
    with transaction.atomic():
        event = event_lock(Event.objects, event.pk, error=SeatingError)
        list(
            EventTable.objects.select_for_update(no_key=True)
            .filter(event=event, in_play=True)
            .values("pk")
        )
        seatmap = SeatMap.read(event)
        if seatmap.drawn:
            raise SeatingError(gettext("the seats are drawn already: use a redraw to draw again"))
        if not seatmap.tables:
            raise SeatingError(gettext("put tables into play before the draw"))
        entries = list(
            Entry.objects.select_for_update(no_key=True)
            .filter(event=event, status=Entry.Status.ACTIVE)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        if not entries:
            raise SeatingError(gettext("nobody to seat: register players first"))
        draw = engine_call(
            rules.initial_draw, seatmap.engine_tables(), entries, rng, holds=seatmap.holds
        )
        seats_write([(p.entry, seatmap.by_number[p.table].pk, p.seat) for p in draw.placements])
        update_rows(
            EventTable,
            ["button", "small_blind", "big_blind", "sitting_out"],
            [
                (seatmap.by_number[t.number].pk, t.button, t.small_blind, t.big_blind, [])
                for t in draw.tables
                if t.started and has_blinds(event)  # stud tables keep no button or blinds
            ],
        )
        opened = sorted({p.table for p in draw.placements})
        log_record(
            event=event,
            actor=actor,
            action="seats.draw",
            summary=Text(
                gettext_noop("Seat draw: %(players)s players at %(tables)s tables (seed %(seed)s)"),
                players=len(entries),
                tables=len(opened),
                seed=seed,
            ),
            data={"seed": seed, "entries": len(entries), "tables": opened},
        )
    return len(entries)
