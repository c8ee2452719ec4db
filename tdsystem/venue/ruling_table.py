"""The hand at an event's table, for the ruling page (`tdsystem.rulings.hooks`).

The seating app keeps each table's positions for the hand being played (the button, small
blind and big blind seats that "hand finished" moved by the event's rule, D11); an empty
button or small blind seat there is the dead button or the dead small blind. The chips are
the floor's last count when there is one (results), else what the entry bought.
"""

from __future__ import annotations

from tdsystem.events.models import Event
from tdsystem.results.models import ChipCount
from tdsystem.rulings import hooks
from tdsystem.seating.models import Entry, EventTable


def table_hand(event: Event, number: int) -> hooks.TableHand | None:
    table = EventTable.objects.filter(event=event, number=number, in_play=True).first()
    if table is None:
        return None
    waiting = {seat for seat in table.sitting_out if isinstance(seat, int)}
    seated = [
        entry
        for entry in Entry.objects.filter(table=table, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("seat")
        if entry.seat not in waiting
    ]
    counts = dict(ChipCount.objects.filter(entry__in=seated).values_list("entry_id", "chips"))
    occupied = {entry.seat for entry in seated}
    button, small_blind = table.button, table.small_blind
    start = button if button is not None else 1
    # Clockwise from the button seat (seats are numbered 1..seats).
    seated.sort(key=lambda entry: ((entry.seat or 0) - start) % table.seats)
    heads_up = len(seated) == 2
    return hooks.TableHand(
        number=table.number,
        players=tuple((entry.player.name, counts.get(entry.pk, entry.chips)) for entry in seated),
        dead_small_blind=not heads_up and small_blind is not None and small_blind not in occupied,
        dead_button=not heads_up and button is not None and button not in occupied,
    )


def register() -> None:
    hooks.register(table_reader=table_hand)
