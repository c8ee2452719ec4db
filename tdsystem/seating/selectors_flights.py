"""Flights and Day 2 as the console reads them (docs/festivals.md, "Flights and Day 2").

The Day 2 preview is also the plan the combination carries out: `day2_combine` reads it
again under the locks, so what the director confirmed is what is done, or it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext

from tdsystem.events.models import Clock, Event

from .models import Bag, DayEnd, Entry


@dataclass(frozen=True)
class BagRow:
    """A survivor's day-1 bag in one flight."""

    pk: int
    entry_id: int
    player_id: int
    name: str
    flight: str
    chips: int
    number: str
    table_number: int
    seat: int
    order: tuple  # the flight's and the bag's order, for the "first" rule and numbering


@dataclass(frozen=True)
class FlightRow:
    event: Event
    entries: int
    active: int
    bagged: int
    level_index: int
    status: str  # "planned", "playing", "bagging", "bagged" or "combined"
    blocker: str | None
    chips_bagged: int = 0  # the day-1 bags of its survivors
    chips_in_play: int = 0  # every chip its entries bought, less any taken out of play

    @property
    def finished(self) -> bool:
        return self.blocker is None

    @property
    def difference(self) -> int:
        """The bags less the chips in play, once the flight is bagged (0 before)."""
        if self.status not in ("bagged", "combined"):
            return 0
        return self.chips_bagged - self.chips_in_play

    @property
    def status_label(self) -> str:
        return {
            "planned": gettext("not started"),
            "playing": gettext("playing"),
            "bagging": gettext("bagging"),
            "bagged": gettext("bagged"),
            "combined": gettext("combined into Day 2"),
        }[self.status]


@dataclass(frozen=True)
class Twice:
    """A player who bagged in more than one flight: the bag kept by the event's rule."""

    name: str
    kept: BagRow
    dropped: tuple[BagRow, ...]


@dataclass(frozen=True)
class Day2Preview:
    event: Event
    flights: list[FlightRow]
    carried: list[BagRow]  # the bags Day 2 plays on with, one per player, numbering order
    twice: list[Twice]
    entries: int  # the whole event's entries, re-entries included
    level_index: int  # the highest level any flight reached: Day 2 resumes there
    level: LevelShown
    blockers: list[str] = field(default_factory=list)

    @property
    def differences(self) -> list[FlightRow]:
        """The bagged flights whose bags do not add up to their chips in play: the
        combination waits for the director to confirm them."""
        return [row for row in self.flights if row.difference]

    @property
    def combined(self) -> bool:
        return self.event.day >= 2

    @property
    def players(self) -> int:
        return len(self.carried)

    @property
    def chips(self) -> int:
        return sum(bag.chips for bag in self.carried)

    @property
    def may_combine(self) -> bool:
        return not self.combined and not self.blockers


def flights_of(event: Event) -> list[Event]:
    return list(Event.objects.filter(parent=event).select_related("clock").order_by("flight", "pk"))


def _flight_rows(flights: list[Event], combined: bool) -> list[FlightRow]:
    ids = [f.pk for f in flights]
    # A flight's survivors are carried once Day 2 is combined: still its players bagged.
    survivors = Q(status__in=(Entry.Status.ACTIVE, Entry.Status.CARRIED))
    counts = {
        row["event"]: row
        for row in Entry.objects.filter(event_id__in=ids)
        .values("event")
        .annotate(
            # Distinct: the bags' join gives an entry one row per bag.
            n=Count("id", distinct=True),
            active=Count("id", filter=survivors, distinct=True),
            bagged=Count(
                "bags",
                filter=survivors & Q(bags__day=1, bags__event_id__in=ids),
                distinct=True,
            ),
        )
    }
    closes = {
        d.event_id: d
        for d in DayEnd.objects.filter(event_id__in=ids, day=1).only("event", "closed_at")
    }
    bagged_chips = dict(
        Bag.objects.filter(event_id__in=ids, day=1, entry__status__in=SURVIVORS)
        .values("event")
        .annotate(chips=Sum("chips"))
        .values_list("event", "chips")
    )
    in_play = {
        row["event"]: (row["chips"] or 0) - (row["removed"] or 0)
        for row in Entry.objects.filter(event_id__in=ids)
        .values("event")
        .annotate(chips=Sum("chips"), removed=Sum("chips_removed"))
    }
    rows = []
    for flight in flights:
        c = counts.get(flight.pk, {"n": 0, "active": 0, "bagged": 0})
        clock_status = flight.clock.status if hasattr(flight, "clock") else Clock.Status.NOT_STARTED
        day_end = closes.get(flight.pk)
        blocker = None
        if combined:
            status = "combined"
        elif day_end is not None and day_end.closed_at is not None:
            status = "bagged"
        elif c["active"] and c["bagged"] == c["active"] and day_end is None:
            # Bagged before the end of the day was recorded on its own (or without it).
            status = "bagged"
        elif day_end is not None or c["bagged"]:
            status = "bagging"
        elif clock_status == Clock.Status.NOT_STARTED and not c["n"]:
            status = "planned"
        else:
            status = "playing"
        if status == "planned":
            blocker = gettext("flight %(flight)s has not been played") % {"flight": flight.flight}
        elif status in ("playing", "bagging"):
            blocker = gettext(
                "flight %(flight)s has not finished its day: %(bagged)s of %(active)s "
                "players bagged"
            ) % {"flight": flight.flight, "bagged": c["bagged"], "active": c["active"]}
        rows.append(
            FlightRow(
                event=flight,
                entries=c["n"],
                active=c["active"],
                bagged=c["bagged"],
                level_index=flight.clock.level_index if hasattr(flight, "clock") else 0,
                status=status,
                blocker=blocker,
                chips_bagged=bagged_chips.get(flight.pk) or 0,
                chips_in_play=in_play.get(flight.pk, 0),
            )
        )
    return rows


SURVIVORS = (Entry.Status.ACTIVE, Entry.Status.CARRIED)


def _bags(flights: list[Event]) -> list[BagRow]:
    order = {f.pk: index for index, f in enumerate(flights)}
    rows = Bag.objects.filter(
        event_id__in=list(order),
        day=1,
        entry__status__in=(Entry.Status.ACTIVE, Entry.Status.CARRIED),
    ).values_list(
        "pk",
        "entry_id",
        "entry__player_id",
        "entry__player__name",
        "event_id",
        "event__flight",
        "chips",
        "number",
        "table_number",
        "seat",
        "created_at",
    )
    return [
        BagRow(
            pk,
            entry,
            player,
            name,
            flight,
            chips,
            number,
            table,
            seat,
            (order[event], table, seat, created, pk),
        )
        for pk, entry, player, name, event, flight, chips, number, table, seat, created in rows
    ]


def _kept(bags: list[BagRow], rule: str) -> BagRow:
    """The bag a player who bagged in several flights plays Day 2 with (Event.bag_rule):
    the larger stack (the earlier flight on a tie), or the first flight's."""
    if rule == Event.BagRule.FIRST:
        return min(bags, key=lambda b: b.order)
    return min(bags, key=lambda b: (-b.chips, b.order))


@dataclass(frozen=True)
class LevelShown:
    """A row of the event's levels as the page shows it: level 5 (400/800), or a break."""

    number: int  # the level's number among levels (a break: the level before it)
    small_blind: int
    big_blind: int
    is_break: bool


def level_shown(event: Event, index: int) -> LevelShown:
    rows = list(
        event.structure.levels.filter(position__lte=index)
        .order_by("position")
        .values_list("kind", "small_blind", "big_blind")
    )
    kind, small, big = rows[-1] if rows else ("level", 0, 0)
    number = sum(1 for row in rows if row[0] == "level")
    return LevelShown(number, small, big, kind != "level")


def day2_preview(event: Event) -> Day2Preview:
    """The flights of `event` with their entries, survivors and state; the Day 2 field
    the bags make (one bag per player, by the event's bag rule); what stops the
    combination. A constant number of queries, whatever the number of flights."""
    flights = flights_of(event)
    combined = event.day >= 2
    rows = _flight_rows(flights, combined)
    by_player: dict[int, list[BagRow]] = {}
    for bag in _bags(flights):
        by_player.setdefault(bag.player_id, []).append(bag)
    carried, twice = [], []
    for bags in by_player.values():
        kept = _kept(bags, event.bag_rule)
        carried.append(kept)
        if len(bags) > 1:
            dropped = tuple(sorted((b for b in bags if b is not kept), key=lambda b: b.order))
            twice.append(Twice(kept.name, kept, dropped))
    carried.sort(key=lambda b: b.order)
    twice.sort(key=lambda t: t.kept.order)
    blockers = []
    if event.is_flight:
        blockers.append(
            gettext("%(name)s is a flight: Day 2 is its event's") % {"name": event.name}
        )
    elif not flights:
        blockers.append(gettext("the event has no flights"))
    blockers += [row.blocker for row in rows if row.blocker]
    if flights and not carried and not blockers:
        blockers.append(gettext("nobody bagged: there is no Day 2 field"))
    level_index = max((row.level_index for row in rows), default=0)
    return Day2Preview(
        event=event,
        flights=rows,
        carried=carried,
        twice=twice,
        entries=sum(row.entries for row in rows),
        level_index=level_index,
        level=level_shown(event, level_index),
        blockers=blockers,
    )
