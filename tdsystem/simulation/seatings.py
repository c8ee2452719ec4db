"""Seatings built to order, for tests and benchmarks: who sits where, and the blinds.

Not used by the running system. `arrange` writes rows directly (a test needs a precise
situation: a dead small blind, a short table); `field` goes through the services.
"""

from __future__ import annotations

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.seating import services
from tdsystem.seating.models import Entry, EventTable, Player, SpreadCount, TableCount

ACTOR = Actor(label="test")


def arrange(
    event: Event,
    layout: dict[int, list[int]],
    *,
    positions: dict[int, tuple[int, int, int]] | None = None,
    seats: int = 9,
) -> dict[str, Entry]:
    """Seat players named "T<table>S<seat>" at the listed seats of each table.

    `positions` gives (button, small blind, big blind) per table; tables without them
    have not dealt yet. Returns the entries by player name.
    """
    services.tables_setup(event=event, numbers=list(layout), seats=seats, actor=ACTOR)
    tables = {t.number: t for t in EventTable.objects.filter(event=event)}
    entries = {}
    number = Entry.objects.filter(event=event).count()
    for table_number, occupied in layout.items():
        for seat in occupied:
            number += 1
            name = f"T{table_number}S{seat}"
            entries[name] = Entry.objects.create(
                event=event,
                player=Player.objects.create(name=name),
                number=number,
                chips=event.starting_stack,
                paid=event.buy_in,
                table=tables[table_number],
                seat=seat,
            )
    for table_number, (button, small, big) in (positions or {}).items():
        EventTable.objects.filter(pk=tables[table_number].pk).update(
            button=button, small_blind=small, big_blind=big
        )
    return entries


def field(
    event: Event, *, players: int, tables: int, seats: int = 9, seed: int = 1, first: int = 1
) -> None:
    """Register `players` and draw them at `tables` tables numbered from `first`."""
    numbers = list(range(first, first + tables))
    services.tables_setup(event=event, numbers=numbers, seats=seats, actor=ACTOR)
    services.players_import(
        event_id=event.pk, names=[f"Player {i:05d}" for i in range(1, players + 1)], actor=ACTOR
    )
    services.seats_draw(event=event, actor=ACTOR, seed=seed)


def seating_problems(event: Event) -> list[str]:
    """The engine's invariant check over the event's rows (empty when all hold)."""
    from tdsystem.engine.seating import check_invariants
    from tdsystem.seating.seatmap import SeatMap

    seatmap = SeatMap.read(event)
    active = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).values_list(
        "pk", flat=True
    )
    return check_invariants(
        seatmap.engine_tables(), list(active), threshold=event.balance_threshold
    ) + count_problems(event)


def count_problems(event: Event) -> list[str]:
    """Each of the event's tables: its stored head count (`TableCount`, kept by triggers)
    against the seats taken there; and the event's tables by head count (`SpreadCount`,
    kept by triggers) against the tables in play counted from those seats."""
    from django.db.models import Count

    tables = EventTable.objects.filter(event=event)
    seated = dict(tables.annotate(n=Count("entries")).values_list("pk", "n"))
    stored = dict(
        TableCount.objects.filter(table_id__in=list(seated)).values_list("table_id", "players")
    )
    problems = [
        f"table {pk} counts {stored.get(pk, 0)} players stored, {n} seated"
        for pk, n in seated.items()
        if stored.get(pk, 0) != n
    ]
    spread: dict[int, list[int]] = {}
    for pk, seats in tables.filter(in_play=True).values_list("pk", "seats"):
        if seated[pk]:
            tally = spread.setdefault(seated[pk], [0, 0])
            tally[0] += 1
            tally[1] += seats
    kept = {
        players: [n, seats]
        for players, n, seats in SpreadCount.objects.filter(event_id=event.pk).values_list(
            "players", "tables", "seats"
        )
        if n or seats
    }
    if kept != spread:
        problems.append(f"tables by head count {kept} stored, {spread} seated")
    return problems
