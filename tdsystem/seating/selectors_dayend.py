"""Read models of the end of a day (WSOP R125): the last hands, the bags, the report.

Each costs a fixed number of queries whatever the size of the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.utils.translation import gettext, ngettext

from tdsystem.engine import dayend as rules
from tdsystem.events.models import Clock, Event
from tdsystem.events.selectors import field_figures, schedule

from .models import Bag, DayEnd, Entry, EventTable


def last_hands_on(event: Event) -> bool:
    """True from the start of the day's last hands until the next day's draw: no late
    registration, no redraw, no balancing (R125). One query."""
    return DayEnd.objects.filter(event_id=event.pk, day=event.day).exists()


def day_end_of(event: Event) -> DayEnd | None:
    """This day's end (its last hands drawn), or None while the day plays on."""
    return DayEnd.objects.filter(event_id=event.pk, day=event.day).first()


def last_hands_panel(event: Event) -> dict | None:
    """The clock JSON's `last_hands` from the start of the last hands until the day closes:
    {"day", "hands", "tables_playing", "text"} (the words in the reader's language); None
    otherwise (the screen shows nothing)."""
    return last_hands_screen(event)[0]


def last_hands_screen(event: Event) -> tuple[dict | None, bool]:
    """`last_hands_panel`, and whether the day's end has started (`last_hands_on`): one
    query, kept in the screens' short cache with the rest of the panel."""
    # Tables with hands to play and players (a player alone bags at once, then it is done).
    tables = Q(
        event__tables__in_play=True,
        event__tables__hands_left__gt=0,
        event__tables__entries__status=Entry.Status.ACTIVE,
    )
    day_end = (
        DayEnd.objects.filter(event_id=event.pk, day=event.day)
        .annotate(playing=Count("event__tables", filter=tables, distinct=True))
        .first()
    )
    if day_end is None:
        return None, False
    if day_end.closed_at is not None:
        return None, True
    playing = day_end.playing
    text = (
        ngettext("Last %(count)s hand of the day", "Last %(count)s hands of the day", day_end.hands)
        % {"count": day_end.hands}
        if playing
        else gettext("The day is over: bag and tag")
    )
    panel = {"day": day_end.day, "hands": day_end.hands, "tables_playing": playing, "text": text}
    return panel, True


@dataclass(frozen=True)
class TableEnd:
    """A table in the last hands: its countdown, its players and how many are bagged."""

    number: int
    hands_left: int | None
    players: int
    bagged: int

    @property
    def state(self) -> str:
        """playing, last, bag (its hands played, bags to take) or bagged."""
        if self.players and self.bagged >= self.players:
            return "bagged"
        if self.players < 2:  # no hand to deal: bag at once
            return rules.BAG
        return rules.countdown(self.hands_left or 0).state


@dataclass(frozen=True)
class DayEndState:
    """What the console shows of the end of the day."""

    day: int
    day_end: DayEnd | None
    tables: list[TableEnd]
    players: int
    bagged: int
    runs_clock_out: bool  # three tables or fewer: no last hands (R125)

    @property
    def all_bagged(self) -> bool:
        return self.players > 0 and self.bagged >= self.players


def day_end_state(event: Event) -> DayEndState:
    """The day's end for the console: three queries."""
    day_end = day_end_of(event)
    rows = (
        EventTable.objects.filter(event=event, in_play=True)
        .annotate(
            n=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE), distinct=True),
            b=Count(
                "entries__bags",
                filter=Q(entries__status=Entry.Status.ACTIVE, entries__bags__day=event.day),
                distinct=True,
            ),
        )
        .order_by("number")
        .values_list("number", "hands_left", "n", "b")
    )
    tables = [TableEnd(*row) for row in rows]
    playing = [t for t in tables if t.players]
    players = sum(t.players for t in tables)
    bagged = Bag.objects.filter(event=event, day=event.day, entry__status=Entry.Status.ACTIVE)
    return DayEndState(
        day=event.day,
        day_end=day_end,
        tables=playing,
        players=players,
        bagged=bagged.count(),
        runs_clock_out=len(playing) <= rules.CLOCK_OUT_TABLES,
    )


@dataclass(frozen=True)
class BagRow:
    """A player at the table and their bag of today (None until bagged)."""

    entry: Entry
    bag: Bag | None


def bag_rows(event: Event, number: int) -> list[BagRow]:
    """The players still in at a table, by seat, with their bags of today: two queries."""
    entries = (
        Entry.objects.filter(event=event, table__number=number, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("seat")
    )
    bags = Bag.objects.filter(event=event, day=event.day, table_number=number)
    by_entry = {bag.entry_id: bag for bag in bags}
    return [BagRow(entry, by_entry.get(entry.pk)) for entry in entries]


@dataclass
class ReportTable:
    number: int
    bags: list[Bag] = field(default_factory=list)

    @property
    def chips(self) -> int:
        return sum(bag.chips for bag in self.bags)


@dataclass(frozen=True)
class DayReport:
    """The printable end-of-day report: every bag by chips, then by table, and the check
    of the bags' total against the chips in play."""

    event: Event
    day: int
    day_end: DayEnd | None
    level: str | None
    bags: list[Bag]
    tables: list[ReportTable]
    chips_bagged: int
    chips_in_play: int
    players_left: int

    @property
    def difference(self) -> int:
        return self.chips_bagged - self.chips_in_play

    @property
    def complete(self) -> bool:
        """Every player still in is bagged: the check of the chips means something."""
        return bool(self.bags) and len(self.bags) >= self.players_left


def day_report(event: Event, day: int | None = None) -> DayReport:
    """The report of a day (today by default): five queries."""
    day = day or event.day
    bags = list(
        Bag.objects.filter(event=event, day=day)
        .select_related("entry__player")
        .order_by("-chips", "table_number", "seat")
    )
    tables: dict[int, ReportTable] = {}
    for bag in sorted(bags, key=lambda b: (b.table_number, b.seat)):
        tables.setdefault(bag.table_number, ReportTable(bag.table_number)).bags.append(bag)
    figures = field_figures(event)
    return DayReport(
        event=event,
        day=day,
        day_end=DayEnd.objects.filter(event=event, day=day).first(),
        level=_level_reached(event),
        bags=bags,
        tables=list(tables.values()),
        chips_bagged=sum(bag.chips for bag in bags),
        chips_in_play=figures["chips_in_play"] or 0,
        players_left=figures["players_left"],
    )


def _level_reached(event: Event) -> str | None:
    """The level the clock stands at ("7"), or None before it starts."""
    clock = Clock.objects.filter(event=event).first()
    if clock is None or clock.status == Clock.Status.NOT_STARTED:
        return None
    rows = schedule(event)
    if not rows:
        return None
    # On a break: the level played before it.
    passed = [row.number for row in rows[: clock.level_index + 1] if row.number is not None]
    return str(passed[-1]) if passed else None
