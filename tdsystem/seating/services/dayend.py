"""The end of a day of play (WSOP R125): the last hands, bag and tag, the night, the next day.

`day_end_start` draws how many more hands every table plays (the engine's
`last_hands_draw`) and gives each table in play that many; "hand finished" counts them
down (`table_hand_finish`). From then until the next day's draw late registration,
redraws and balancing wait (`selectors_dayend.last_hands_on`). A table that has played its
last hand bags: `bags_record` takes every stack at the table at once, all or none.
`day_end_close` closes the day once every player still in has a bag: the clock stops for
the night with its time left. A flight ends there (its bags go on to Day 2 of the event
it feeds); an event played over days without flights goes on with `day_next_draw`.

The counts of a bag are also recorded as chip counts by the apps above seating (results:
the chip count history is the truth of a stack), told by `signals.bags_recorded` in the
same transaction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.core.numbers import grouped
from tdsystem.core.sql import update_rows
from tdsystem.engine import clock as clockrules
from tdsystem.engine import dayend as rules
from tdsystem.engine.errors import RuleError
from tdsystem.events import services as event_services
from tdsystem.events.models import Clock, Event
from tdsystem.events.selectors import field_figures

from ..errors import SeatingError
from ..models import Bag, DayEnd, Entry, EventTable
from ..seatmap import head_counts, new_seed, seats_write
from ..signals import bags_recorded
from .draw import seats_draw

# The most chips a bag may hold and the longest bag number: the forms and the API's schema
# state them (as the chip counts' MAX_CHIPS).
BAG_CHIPS_MAX = 10**15 - 1
BAG_NUMBER_MAX = 20


def day_end_start(*, event_id: int, actor: Actor, seed: int | None = None) -> DayEnd:
    """End the day: draw the day's last hands (3 to 7 at 9-handed events, 2 to 5 at others)
    and give every table in play that many; with three tables or fewer in play the day
    runs the clock out (R125): no hands are drawn (`hands` 0) and every table bags at once.
    Refused when this day's end was started already. The seed is logged."""
    seed = new_seed(seed)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        if event.status == Event.Status.FINISHED:
            raise SeatingError(gettext("the event is finished"))
        started = DayEnd.objects.filter(event=event, day=event.day).first()
        if started is not None:
            raise SeatingError(
                (
                    gettext("the last hands of day %(day)s are drawn already")
                    if started.hands
                    else gettext("day %(day)s is ending already: every table bags")
                )
                % {"day": event.day}
            )
        playing = [table for table in head_counts(event) if table.players]
        if not playing:
            raise SeatingError(gettext("nobody is seated: there is no day to end"))
        try:
            hands = rules.day_end_hands(
                seats_per_table=event.seats_per_table,
                tables_in_play=len(playing),
                rng=random.Random(seed),
            )
        except RuleError as exc:
            raise SeatingError(str(exc)) from exc
        day_end = DayEnd.objects.create(
            event=event, day=event.day, hands=hands, actor_label=actor.label
        )
        EventTable.objects.filter(event=event, in_play=True).update(hands_left=hands)
        log_record(
            event=event,
            actor=actor,
            action="day.last_hands",
            summary=Text(
                gettext_noop("Last hands of day %(day)s: %(hands)s hands at every table (%(rule)s)")
                if hands
                else gettext_noop(
                    "Day %(day)s ends at %(tables)s tables: the clock has run out, every table "
                    "bags (%(rule)s)"
                ),
                day=event.day,
                hands=hands,
                tables=len(playing),
                rule=rules.RULE,
            ),
            data={"day": event.day, "hands": hands, "seed": seed, "tables": len(playing)},
        )
    return day_end


def hand_count_down(table: EventTable) -> None:
    """A hand finished at a table in its last hands: one fewer to play (the caller holds
    the event's lock and saves the row)."""
    if table.hands_left is not None:
        table.hands_left = rules.hand_played(table.hands_left)


def bags_record(
    *,
    event_id: int,
    table_number: int,
    bags: Sequence[tuple[int, int, str]],
    actor: Actor,
) -> list[Bag]:
    """Bag and tag a table that has played its last hand: every player at it at once.

    `bags` is a list of `(seat, chips, number)`: the seat at this table, the chips counted
    (1 to BAG_CHIPS_MAX) and the number on the bag (1 to BAG_NUMBER_MAX characters). All
    or none: a seat missing or unknown, a count out of range, a number given twice or
    already on a bag of this event and day refuses them all, naming the seat. A table
    bagged already is corrected bag by bag (`bag_correct`). Each count is also recorded as
    the player's chip count (`signals.bags_recorded`)."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        _day_end_open(event)
        table = EventTable.objects.filter(event=event, number=table_number, in_play=True).first()
        if table is None:
            raise SeatingError(
                gettext("table %(table)s is not in play") % {"table": table_number}, field="table"
            )
        players = Entry.objects.filter(table=table, status=Entry.Status.ACTIVE)
        seated = {e.seat: e for e in players.select_related("player") if e.seat is not None}
        # A player alone at a table has no hand to play: they bag at once.
        if table.hands_left and len(seated) >= 2:
            raise SeatingError(
                ngettext(
                    "table %(table)s has %(count)s hand to play before bagging",
                    "table %(table)s has %(count)s hands to play before bagging",
                    table.hands_left,
                )
                % {"table": table_number, "count": table.hands_left}
            )
        if Bag.objects.filter(event=event, day=event.day, entry__in=seated.values()).exists():
            raise SeatingError(
                gettext("table %(table)s is bagged already: correct a bag on the console")
                % {"table": table_number}
            )
        given = _bags_checked(seated, bags)
        numbers = [number for _seat, _chips, number in given]
        taken = set(
            Bag.objects.filter(event=event, day=event.day, number__in=numbers).values_list(
                "number", flat=True
            )
        )
        for seat, _chips, number in given:
            if number in taken:
                raise SeatingError(
                    gettext("seat %(seat)s: bag %(number)s is taken in this day already")
                    % {"seat": seat, "number": number},
                    field="number",
                )
        rows = [
            Bag(
                event=event,
                day=event.day,
                entry=seated[seat],
                chips=chips,
                number=number,
                table_number=table_number,
                seat=seat,
                actor_label=actor.label,
            )
            for seat, chips, number in given
        ]
        Bag.objects.bulk_create(rows)
        if table.hands_left:  # a player alone, bagged before the hands ran out: done
            EventTable.objects.filter(pk=table.pk).update(hands_left=0)
        bags_recorded.send(sender=Bag, event=event, bags=rows, actor=actor)
        log_record(
            event=event,
            actor=actor,
            action="day.bags",
            summary=Text(
                gettext_noop("Table %(table)s bagged: %(bags)s"),
                table=table_number,
                bags=", ".join(f"#{b.entry.number} {b.chips:,} ({b.number})" for b in rows),
            ),
            data={
                "day": event.day,
                "table": table_number,
                "bags": {str(b.entry.number): [b.chips, b.number] for b in rows},
            },
        )
    return rows


def bag_correct(*, event_id: int, entry_number: int, chips: int, number: str, actor: Actor) -> Bag:
    """The console corrects a bag of the day: its count and its number (still unique in
    the event and day). Refused once the day is closed. The count is recorded again."""
    number = number.strip()
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        _day_end_open(event)
        bag = (
            Bag.objects.select_for_update(no_key=True)
            .select_related("entry__player")
            .filter(event=event, day=event.day, entry__number=entry_number)
            .first()
        )
        if bag is None:
            raise SeatingError(
                gettext("#%(number)s has no bag today") % {"number": entry_number}, field="entry"
            )
        _chips_checked(chips, bag.seat)
        _number_checked(number, bag.seat)
        if (
            Bag.objects.filter(event=event, day=event.day, number=number)
            .exclude(pk=bag.pk)
            .exists()
        ):
            raise SeatingError(
                gettext("seat %(seat)s: bag %(number)s is taken in this day already")
                % {"seat": bag.seat, "number": number},
                field="number",
            )
        before = [bag.chips, bag.number]
        bag.chips, bag.number, bag.actor_label = chips, number, actor.label
        bag.save(update_fields=["chips", "number", "actor_label"])
        bags_recorded.send(sender=Bag, event=event, bags=[bag], actor=actor)
        log_record(
            event=event,
            actor=actor,
            action="day.bag_correct",
            summary=Text(
                gettext_noop("Bag of #%(entry)s corrected: %(chips)s chips, bag %(number)s"),
                entry=entry_number,
                chips=Grouped(chips),
                number=number,
            ),
            data={
                "day": event.day,
                "entry": entry_number,
                "before": before,
                "after": [chips, number],
            },
        )
    return bag


class BagsDiffer(SeatingError):
    """The bags of the day do not add up to the chips in play: the day closes (or the
    flights combine) only once the director confirms the difference, as shown."""

    def __init__(self, message: str, *, bagged: int, in_play: int) -> None:
        super().__init__(message)
        self.bagged, self.in_play = bagged, in_play

    @property
    def difference(self) -> int:
        return self.bagged - self.in_play


def bags_difference_text(bagged: int, in_play: int) -> str:
    """ "The bags hold 20,000 chips more than the chips in play (1,020,000 against
    1,000,000)": the figures a director checks before going on."""
    figures = {
        "difference": grouped(abs(bagged - in_play)),
        "bagged": grouped(bagged),
        "in_play": grouped(in_play),
    }
    text = (
        gettext(
            "The bags hold %(difference)s chips more than the chips in play (%(bagged)s "
            "against %(in_play)s)"
        )
        if bagged > in_play
        else gettext(
            "The bags hold %(difference)s chips fewer than the chips in play (%(bagged)s "
            "against %(in_play)s)"
        )
    )
    return text % figures


def day_end_close(*, event_id: int, actor: Actor, confirm_difference: int | None = None) -> DayEnd:
    """Close the day once every player still in has a bag: the clock stops for the night
    (paused, with its time left) and the day's end is dated. A flight ends here.

    Bags that do not add up to the chips in play raise BagsDiffer, unless the director
    confirms that very difference (`confirm_difference`, the bags' total less the chips in
    play, as the panel showed it); the log keeps it."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        day_end = _day_end_open(event)
        missing = list(
            Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
            .exclude(bags__event=event, bags__day=event.day)
            .select_related("table")
            .order_by("table__number", "seat")
        )
        if missing:
            shown = ", ".join(
                gettext("table %(table)s seat %(seat)s")
                % {"table": e.table.number if e.table else "-", "seat": e.seat or "-"}
                for e in missing[:8]
            )
            raise SeatingError(
                ngettext(
                    "%(count)s player is not bagged yet (%(seats)s)",
                    "%(count)s players are not bagged yet (%(seats)s)",
                    len(missing),
                )
                % {"count": len(missing), "seats": shown + (", …" if len(missing) > 8 else "")}
            )
        chips = sum(Bag.objects.filter(event=event, day=event.day).values_list("chips", flat=True))
        in_play = field_figures(event)["chips_in_play"] or 0
        if chips != in_play and confirm_difference != chips - in_play:
            raise BagsDiffer(
                gettext("%(figures)s. Count them again, or close the day with the difference.")
                % {"figures": bags_difference_text(chips, in_play)},
                bagged=chips,
                in_play=in_play,
            )
        clock = Clock.objects.filter(event=event).first()
        if clock is not None and clock.status == Clock.Status.RUNNING:
            try:
                event_services.clock_action(event_id=event.pk, action="pause", actor=actor)
            except clockrules.ClockError as exc:
                raise SeatingError(str(exc)) from exc
        day_end.closed_at = timezone.now()
        day_end.save(update_fields=["closed_at"])
        bagged = Bag.objects.filter(event=event, day=event.day).count()
        log_record(
            event=event,
            actor=actor,
            action="day.close",
            summary=Text(
                gettext_noop("Day %(day)s closed: %(players)s players bagged, %(chips)s chips")
                if chips == in_play
                else gettext_noop(
                    "Day %(day)s closed: %(players)s players bagged, %(chips)s chips against "
                    "%(in_play)s in play (the difference confirmed)"
                ),
                day=event.day,
                players=bagged,
                chips=Grouped(chips),
                in_play=Grouped(in_play),
            ),
            data={
                "day": event.day,
                "players": bagged,
                "chips": chips,
                "in_play": in_play,
                "difference": chips - in_play,
                "flight": event.flight,
            },
        )
    return day_end


def day_next_draw(*, event_id: int, actor: Actor, seed: int | None = None) -> int:
    """The next day of an event played over days without flights: the day moves on and
    the bagged players are drawn at random onto the event's tables in play (the seat draw,
    `seats_draw`, with its logged seed), which the draw screen and seat lookup show.
    Returns how many were seated. A flight ends with its day: it has no next day."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        if event.is_flight:
            raise SeatingError(
                gettext("a flight ends with its day: its players go on in Day 2 of the event")
            )
        day_end = DayEnd.objects.filter(event=event, day=event.day).first()
        if day_end is None or day_end.closed_at is None:
            raise SeatingError(
                gettext("close day %(day)s first: every stack bagged") % {"day": event.day}
            )
        seated = list(
            Entry.objects.select_for_update(no_key=True)
            .filter(event=event, status=Entry.Status.ACTIVE)
            .values_list("pk", flat=True)
        )
        seats_write([(pk, None, None) for pk in seated])
        tables = list(
            EventTable.objects.filter(event=event, in_play=True).values_list("pk", flat=True)
        )
        update_rows(
            EventTable,
            ["button", "small_blind", "big_blind", "sitting_out", "hands_left"],
            [(pk, None, None, None, [], None) for pk in tables],
        )
        event.day += 1
        event.save(update_fields=["day"])
        log_record(
            event=event,
            actor=actor,
            action="day.next",
            summary=Text(gettext_noop("Day %(day)s: the bagged players are drawn"), day=event.day),
            data={"day": event.day, "players": len(seated)},
        )
        return seats_draw(event=event, actor=actor, seed=seed)


def _day_end_open(event: Event) -> DayEnd:
    day_end = DayEnd.objects.filter(event=event, day=event.day).first()
    if day_end is None:
        raise SeatingError(gettext("the last hands of the day have not started"))
    if day_end.closed_at is not None:
        raise SeatingError(gettext("day %(day)s is closed") % {"day": event.day})
    return day_end


def _bags_checked(
    seated: dict[int, Entry], bags: Sequence[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    given: dict[int, tuple[int, int, str]] = {}
    numbers: dict[str, int] = {}
    for seat, chips, raw in bags:
        number = str(raw).strip()
        if seat not in seated:
            raise SeatingError(
                gettext("nobody still in sits in seat %(seat)s: read the page again")
                % {"seat": seat},
                field="seat",
            )
        if seat in given:
            raise SeatingError(
                gettext("seat %(seat)s is given twice") % {"seat": seat}, field="seat"
            )
        _chips_checked(chips, seat)
        _number_checked(number, seat)
        if number in numbers:
            raise SeatingError(
                gettext("seats %(first)s and %(seat)s: bag %(number)s is given twice")
                % {"first": numbers[number], "seat": seat, "number": number},
                field="number",
            )
        numbers[number] = seat
        given[seat] = (seat, chips, number)
    for seat in sorted(seated):
        if seat not in given:
            raise SeatingError(
                gettext("seat %(seat)s, %(name)s: no bag given (bag the whole table at once)")
                % {"seat": seat, "name": seated[seat].player.name},
                field="seat",
            )
    return [given[seat] for seat in sorted(given)]


def _chips_checked(chips: int, seat: int | None) -> None:
    if not 1 <= chips <= BAG_CHIPS_MAX:
        raise SeatingError(
            gettext("seat %(seat)s: give a count from 1 to 999,999,999,999,999") % {"seat": seat},
            field="chips",
        )


def _number_checked(number: str, seat: int | None) -> None:
    if not 1 <= len(number) <= BAG_NUMBER_MAX:
        raise SeatingError(
            gettext("seat %(seat)s: give a bag number of 1 to %(max)s characters")
            % {"seat": seat, "max": BAG_NUMBER_MAX},
            field="number",
        )


__all__ = [
    "BAG_CHIPS_MAX",
    "BAG_NUMBER_MAX",
    "BagsDiffer",
    "bag_correct",
    "bags_difference_text",
    "bags_record",
    "day_end_close",
    "day_end_start",
    "day_next_draw",
    "hand_count_down",
]
