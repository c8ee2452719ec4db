"""Flights and Day 2 of a festival event (docs/festivals.md, "Flights and Day 2").

A flight is an event of its own (`Event.parent` is the event it feeds): its own clock,
tables, entries and late registration. When every flight has bagged, `day2_combine` makes
the event's Day 2: one entry per surviving player with the bagged stack, tables, a random
seat draw, and the clock at the level the flights ended.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock, locks_take
from tdsystem.core.log import Text, log_record
from tdsystem.engine.clock import ClockError
from tdsystem.events.copying import copied_settings
from tdsystem.events.models import Event
from tdsystem.events.services import clock_action, clock_day_start, event_create

from ..errors import SeatingError
from ..models import Entry, EventTable, Purchase
from ..seatmap import new_seed
from ..selectors_flights import Day2Preview, day2_preview
from .dayend import bags_difference_text
from .draw import seats_draw
from .tables import tables_release_all, tables_seats, tables_setup, tables_taken

FLIGHT_NAME_MAX = 8  # Event.flight


def flight_add(
    *,
    event_id: int,
    name: str,
    actor: Actor,
    scheduled_start: datetime | None = None,
) -> Event:
    """A new Day 1 flight of the event: its settings and a copy of its structure, its own
    clock; no tables yet (they are set up as for any event)."""
    name = " ".join(name.split())
    if not name:
        raise SeatingError(gettext("the flight needs a name, e.g. 1A"), field="name")
    if len(name) > FLIGHT_NAME_MAX:
        raise SeatingError(
            gettext("a flight's name has at most %(count)s characters")
            % {"count": FLIGHT_NAME_MAX},
            field="name",
        )
    with transaction.atomic():
        main = event_lock(Event.objects, event_id, error=SeatingError)
        if main.is_flight:
            raise SeatingError(
                gettext("%(name)s is a flight: add the flight to the event it is a flight of")
                % {"name": main.name}
            )
        if main.day >= 2:
            raise SeatingError(
                gettext("%(name)s is on Day %(day)s: its flights are over")
                % {"name": main.name, "day": main.day}
            )
        same = Event.objects.filter(parent=main, flight__iexact=name).first()
        if same is not None:
            raise SeatingError(
                gettext("%(name)s has a flight %(flight)s already")
                % {"name": main.name, "flight": same.flight},
                field="name",
            )
        flight = event_create(
            name=f"{main.name} · {name}"[:120],
            template=main.structure,
            actor=actor,
            scheduled_start=scheduled_start,
            parent=main,
            flight=name,
            **copied_settings(main),
        )
        log_record(
            event=main,
            actor=actor,
            action="flight.add",
            summary=Text(gettext_noop("Flight %(flight)s added"), flight=name),
            data={"flight": flight.pk, "name": name},
        )
        log_record(
            event=flight,
            actor=actor,
            action="flight.add",
            summary=Text(
                gettext_noop("Flight %(flight)s of %(event)s"), flight=name, event=main.name
            ),
            data={"parent": main.pk},
        )
    return flight


@dataclass(frozen=True)
class Combined:
    """What the combination did: the Day 2 field, its tables and draw, the clock's level."""

    event: Event
    players: int
    chips: int
    dropped: int
    tables: list[int]
    level_index: int
    seed: int


def day2_combine(
    *,
    event_id: int,
    actor: Actor,
    seed: int | None = None,
    confirm_differences: bool = False,
) -> Combined:
    """Combine the flights into the event's Day 2.

    Refused (nothing changes) while a flight has not finished its day, or once combined;
    and while a flight's bags do not add up to its chips in play, unless the director
    confirms the differences the preview shows (`confirm_differences`; the log keeps them).
    Under the locks (the venue's tables, then the event, then its flights by id, then
    the event's clock) the preview is read again and carried out: one entry per player
    from the bag the event's rule keeps (each dropped bag logged), numbered in flight
    order; the flights' tables given back; the event's tables set up; the seats drawn at
    random (the seed logged); the clock at the highest level a flight reached.
    """
    seed = new_seed(seed)
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise SeatingError(gettext("no event %(id)s") % {"id": event_id}, field="event")
    # The venue's tables are the first lock: they are chosen before the locks, from the
    # preview, and checked again under them (as the flights are).
    flight_ids = _flight_ids(event_id)
    numbers, released = _tables_for(event, day2_preview(event).players)
    with transaction.atomic():
        locks_take(venue_tables=numbers + released)
        for pk in sorted([event_id, *flight_ids]):
            locks_take(event=pk)
        # Every clock at once, in order: the flights' are finished, the event's set for Day 2.
        for pk in sorted([event_id, *flight_ids]):
            locks_take(clock=pk)
        main = event_lock(Event.objects, event_id, error=SeatingError)
        list(Event.objects.select_for_update(no_key=True).filter(pk__in=flight_ids).values("pk"))
        if _flight_ids(event_id) != flight_ids:
            raise SeatingError(gettext("the flights changed meanwhile: try again"))
        if main.day >= 2:
            raise SeatingError(
                gettext("%(name)s is combined already: it plays Day %(day)s")
                % {"name": main.name, "day": main.day}
            )
        preview = day2_preview(main)
        if preview.blockers:
            raise SeatingError(
                gettext("Day 2 cannot start yet: %(reasons)s")
                % {"reasons": "; ".join(preview.blockers)}
            )
        if preview.differences and not confirm_differences:
            raise SeatingError(
                gettext("%(flights)s. Confirm the differences to combine.")
                % {"flights": differences_text(preview)}
            )
        if _tables_for(main, preview.players) != (numbers, released):
            raise SeatingError(gettext("the tables changed meanwhile: try again"))
        if Entry.objects.filter(event=main).exists():
            raise SeatingError(
                gettext("%(name)s has entries of its own: Day 2 needs an empty field")
                % {"name": main.name}
            )
        _release_flight_tables(preview, actor)
        _carry(main, preview, actor)
        _finish_flights(preview, actor)
        if numbers:
            tables_setup(event=main, numbers=numbers, seats=tables_seats(main), actor=actor)
        Event.objects.filter(pk=main.pk).update(day=2)
        main.day = 2
        level = min(preview.level_index, main.structure.levels.count() - 1)
        try:
            clock_day_start(event_id=main.pk, level_index=max(level, 0), actor=actor)
        except ClockError as exc:
            raise SeatingError(str(exc)) from exc
        seats_draw(event=main, actor=actor, seed=seed)
        tables = sorted(
            EventTable.objects.filter(event=main, in_play=True, entries__isnull=False)
            .distinct()
            .values_list("number", flat=True)
        )
        log_record(
            event=main,
            actor=actor,
            action="day2.combine",
            summary=Text(
                gettext_noop(
                    "Day 2: %(players)s players from %(flights)s flights, %(chips)s chips, "
                    "at %(tables)s tables"
                ),
                players=preview.players,
                flights=len(preview.flights),
                chips=preview.chips,
                tables=len(tables),
            ),
            data={
                "players": preview.players,
                "chips": preview.chips,
                "flights": [row.event.pk for row in preview.flights],
                "dropped": [bag.pk for t in preview.twice for bag in t.dropped],
                "level": level,
                "seed": seed,
                "differences": {row.event.flight: row.difference for row in preview.differences},
            },
        )
    return Combined(
        event=main,
        players=preview.players,
        chips=preview.chips,
        dropped=sum(len(t.dropped) for t in preview.twice),
        tables=tables,
        level_index=level,
        seed=seed,
    )


def differences_text(preview: Day2Preview) -> str:
    """ "Flight 1A: the bags hold 20,000 chips more than the chips in play (…)", one
    flight after the other."""
    return "; ".join(
        gettext("Flight %(flight)s: %(figures)s")
        % {
            "flight": row.event.flight,
            "figures": bags_difference_text(row.chips_bagged, row.chips_in_play),
        }
        for row in preview.differences
    )


def _flight_ids(event_id: int) -> list[int]:
    return sorted(Event.objects.filter(parent_id=event_id).values_list("pk", flat=True))


def _tables_for(event: Event, players: int) -> tuple[list[int], list[int]]:
    """The table numbers Day 2 adds for `players` (after the event's own tables in play:
    the lowest numbers free once the flights give theirs back), and the flights' table
    numbers given back."""
    released = sorted(
        EventTable.objects.filter(event__parent=event, in_play=True).values_list(
            "number", flat=True
        )
    )
    own = dict(EventTable.objects.filter(event=event, in_play=True).values_list("number", "seats"))
    missing = players - sum(own.values())
    if missing <= 0:
        return [], released
    busy = set(tables_taken(exclude_event_id=event.pk)) - set(released)
    wanted = math.ceil(missing / tables_seats(event))
    numbers: list[int] = []
    number = 1
    while len(numbers) < wanted:
        if number not in busy and number not in own:
            numbers.append(number)
        number += 1
    return numbers, released


def _release_flight_tables(preview: Day2Preview, actor: Actor) -> None:
    """The flights' survivors leave their Day 1 seats (their bags go to Day 2); the
    flights' tables go back to the venue for Day 2 to use."""
    for row in preview.flights:
        flight = row.event
        # Through to Day 2: no longer playing the flight (its field reads no players left).
        Entry.objects.filter(event=flight, status=Entry.Status.ACTIVE).update(
            status=Entry.Status.CARRIED, table=None, seat=None
        )
        tables_release_all(event=flight, reason="day2", actor=actor)


def _finish_flights(preview: Day2Preview, actor: Actor) -> None:
    """A flight combined into Day 2 is over: its clock stops for good (its log says so),
    so it reads as finished and never offers to resume. Under the clocks' locks, held."""
    for row in preview.flights:
        try:
            clock_action(event_id=row.event.pk, action="finish", actor=actor)
        except ClockError:
            # A clock that never ran (everyone bagged without it) has nothing to stop.
            Event.objects.filter(pk=row.event.pk).update(status=Event.Status.FINISHED)
        log_record(
            event=row.event,
            actor=actor,
            action="day2.flight_combined",
            summary=Text(
                gettext_noop("Flight %(flight)s combined into Day 2 of %(event)s"),
                flight=row.event.flight,
                event=preview.event.name,
            ),
            data={"parent": preview.event.pk, "carried": row.active},
        )


def _carry(main: Event, preview: Day2Preview, actor: Actor) -> list[Entry]:
    """One Day 2 entry per player, from the bag kept; the bags dropped are logged."""
    flights = {row.event.flight: row.event for row in preview.flights}
    sources = Entry.objects.in_bulk([bag.entry_id for bag in preview.carried])
    entries = Entry.objects.bulk_create(
        Entry(
            event=main,
            player_id=bag.player_id,
            number=index,
            chips=bag.chips,
            paid=Decimal(0),
            carried_from_id=bag.entry_id,
            reserved_seat=sources[bag.entry_id].reserved_seat,
            reserve_reason=sources[bag.entry_id].reserve_reason,
        )
        for index, bag in enumerate(preview.carried, start=1)
    )
    Purchase.objects.bulk_create(
        Purchase(
            event=main,
            entry=entry,
            kind=Purchase.Kind.CARRY,
            amount=Decimal(0),
            fee=Decimal(0),
            chips=entry.chips,
            actor_label=actor.label,
        )
        for entry in entries
    )
    rule = main.get_bag_rule_display()
    for twice in preview.twice:
        for bag in twice.dropped:
            log_record(
                event=main,
                actor=actor,
                action="day2.bag_dropped",
                summary=Text(
                    gettext_noop(
                        "%(name)s bagged in two flights: bag %(number)s of flight %(flight)s "
                        "(%(chips)s chips) dropped, bag %(kept)s of flight %(kept_flight)s "
                        "(%(kept_chips)s chips) kept"
                    ),
                    name=twice.name,
                    number=bag.number,
                    flight=bag.flight,
                    chips=bag.chips,
                    kept=twice.kept.number,
                    kept_flight=twice.kept.flight,
                    kept_chips=twice.kept.chips,
                ),
                data={
                    "dropped": bag.pk,
                    "kept": twice.kept.pk,
                    "rule": main.bag_rule,
                    "rule_label": str(rule),
                    "flight": flights[bag.flight].pk,
                },
            )
    return entries
