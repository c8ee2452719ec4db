"""The floor plan: every venue table, and which event holds it.

A festival runs several events in one room at once (flights, side events, satellites);
each venue table belongs to one of them at a time (seating's constraint
venue_table_one_event_at_a_time). The plan is read in four queries whatever the size of
the room: the venue's tables, the tables in play with their events, the players seated
per table, and the events a table may be given to.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, VenueTable

# The events' colours: twelve hues apart on the dark theme, neighbours in the list far apart
# (events made one after another take neighbouring colours), no two the same family; and
# told apart by the tile's short name too (a colour alone says nothing to a colour-blind
# floor manager).
COLOURS = (
    "#58a6ff",  # blue
    "#f5c542",  # yellow
    "#f778ba",  # pink
    "#3fb950",  # green
    "#f0883e",  # orange
    "#a371f7",  # violet
    "#39c5cf",  # cyan
    "#ff5f56",  # red
    "#c6e35a",  # lime
    "#e6edf3",  # white
    "#b08968",  # brown
    "#6e7bff",  # indigo
)
# The events a table may be given to, and the legend's: all but the finished and archived.
OPEN = Q(archived_at__isnull=True) & ~Q(status=Event.Status.FINISHED)
HOLDER_FIELDS = ("pk", "name", "flight", "status", "seats_per_table", "scheduled_start")


@dataclass(frozen=True)
class Holder:
    """An event on the legend: its colour, the tables it holds, its players still in."""

    id: int
    name: str
    flight: str
    status: str
    status_label: str
    colour: str
    tables: int
    players: int
    seats: int


@dataclass(frozen=True)
class Tile:
    number: int
    seats: int
    holder: Holder | None = None
    players: int = 0

    @property
    def free(self) -> bool:
        return self.holder is None


@dataclass(frozen=True)
class FloorPlan:
    tiles: list[Tile]
    holders: list[Holder]

    @property
    def free(self) -> int:
        return sum(1 for tile in self.tiles if tile.free)


def floor_plan() -> FloorPlan:
    """The room in table-number order, each tile with the event holding it."""
    venues = list(VenueTable.objects.order_by("number").values_list("number", "seats"))
    in_play = list(
        EventTable.objects.filter(in_play=True).values_list(
            "pk", "venue_table__number", "seats", "event_id"
        )
    )
    seated: dict[int, int] = {}  # players by event table
    players: dict[int, int] = {}  # players still in by event
    counts = (
        Entry.objects.filter(status=Entry.Status.ACTIVE)
        .filter(Q(event__in=Event.objects.filter(OPEN)) | Q(table__in_play=True))
        .values("event_id", "table_id")
        .annotate(n=Count("pk"))
    )
    for row in counts:
        players[row["event_id"]] = players.get(row["event_id"], 0) + row["n"]
        if row["table_id"] is not None:
            seated[row["table_id"]] = row["n"]
    held_by = {event_id for _pk, _number, _seats, event_id in in_play}
    events = Event.objects.filter(OPEN | Q(pk__in=held_by)).order_by("scheduled_start", "pk")
    tables: dict[int, int] = {}
    for _pk, _number, _seats, event_id in in_play:
        tables[event_id] = tables.get(event_id, 0) + 1
    listed = list(events.only(*HOLDER_FIELDS))
    colours = colours_of([event.pk for event in listed])
    holders = {
        event.pk: Holder(
            id=event.pk,
            name=event.name,
            flight=event.flight,
            status=event.status,
            status_label=event.get_status_display(),
            colour=colours[event.pk],
            tables=tables.get(event.pk, 0),
            players=players.get(event.pk, 0),
            seats=event.seats_per_table,
        )
        for event in listed
    }
    tiles = {number: Tile(number=number, seats=seats) for number, seats in venues}
    for pk, number, seats, event_id in in_play:
        tiles[number] = Tile(
            number=number, seats=seats, holder=holders[event_id], players=seated.get(pk, 0)
        )
    return FloorPlan(tiles=[tiles[n] for n in sorted(tiles)], holders=list(holders.values()))


def colours_of(event_ids: list[int]) -> dict[int, str]:
    """Each event's colour: the one its id points to, or, when an older event in the room
    has that one, the next free one. Not its place on the legend, so the room's tiles do
    not all change colour when an event finishes; past twelve events at once, colours are
    shared (the names still tell them apart)."""
    taken: dict[int, str] = {}
    for event_id in sorted(event_ids):
        free = [c for c in COLOURS if c not in taken.values()] or list(COLOURS)
        start = event_id % len(COLOURS)
        ring = COLOURS[start:] + COLOURS[:start]
        taken[event_id] = next(c for c in ring if c in free)
    return taken
