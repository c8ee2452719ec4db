"""Reserved seats for players with special needs, and players who must not move.

A reserved seat (TDA 9 in the Poker TDA rules) is a seat number, at a named table when
it matters: the draws seat the player there, balancing never moves them, and when their
table breaks they get the same seat number at another table. "Do not move" keeps a
player's seat while tables are balanced; a break of their table still moves them. Both
are set and cleared here only, each change logged with its reason; clearing undoes it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from ..balancing import rebalance_plan
from ..errors import SeatingError
from ..models import HOLD_REASON_MAX, Entry, EventTable
from ..seatmap import (
    Applied,
    SeatMap,
    engine_call,
    new_seed,
    plan_apply,
)


@dataclass(frozen=True)
class Reservation:
    """What a reservation change did: the entry as it is now, and the moves it caused."""

    entry: Entry
    applied: list[Applied]

    @property
    def moves(self) -> list:
        return [move for applied in self.applied for move in applied.moves]


def _reason(reason: str) -> str:
    reason = " ".join(reason.split())
    if not reason:
        raise SeatingError(gettext("say why (e.g. “wheelchair”)"), field="reason")
    if len(reason) > HOLD_REASON_MAX:
        raise SeatingError(
            gettext("the reason is longer than %(max)s characters") % {"max": HOLD_REASON_MAX},
            field="reason",
        )
    return reason


def _active_entry(event: Event, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .select_related("player", "table")
        .filter(pk=entry_id, event=event)
        .first()
    )
    if entry is None:
        raise SeatingError(gettext("no entry %(id)s in this event") % {"id": entry_id})
    if entry.status != Entry.Status.ACTIVE:
        raise SeatingError(gettext("%(name)s is out") % {"name": entry.player.name})
    return entry


def _check_seat(event: Event, entry: Entry, seat: int, table: int | None) -> None:
    """The seat exists where it is kept, and nobody else has it reserved."""
    tables = EventTable.objects.filter(event=event, in_play=True)
    if table is not None:
        row = tables.filter(number=table).first()
        seats = row.seats if row else event.seats_per_table
    else:
        seats = max(tables.values_list("seats", flat=True), default=event.seats_per_table)
    if not 1 <= seat <= seats:
        raise SeatingError(
            gettext("seat %(seat)s: the tables have seats 1 to %(seats)s")
            % {"seat": seat, "seats": seats},
            field="seat",
        )
    if table is None:
        return
    other = (
        Entry.objects.filter(
            event=event, status=Entry.Status.ACTIVE, reserved_table=table, reserved_seat=seat
        )
        .exclude(pk=entry.pk)
        .select_related("player")
        .first()
    )
    if other is not None:
        raise SeatingError(
            gettext("table %(table)s seat %(seat)s is reserved for #%(number)s %(name)s")
            % {"table": table, "seat": seat, "number": other.number, "name": other.player.name},
            field="seat",
        )


def _where(seat: int, table: int | None) -> Text:
    if table is None:
        return Text(gettext_noop("seat %(seat)s at any table"), seat=seat)
    return Text(gettext_noop("table %(table)s seat %(seat)s"), table=table, seat=seat)


def entry_reserve(
    *,
    event_id: int,
    entry_id: int,
    seat: int,
    table: int | None = None,
    reason: str,
    actor: Actor,
    rng_seed: int | None = None,
) -> Reservation:
    """Keep seat `seat` (at table `table`, or at whichever table) for a player (TDA 9).

    A player seated elsewhere moves there now by move slip (`plan_reserved_seat`: at
    their own table, trading seats with its player unless that one is held too), and the
    tables are balanced after; an unseated one is seated there by the draw.
    """
    reason = _reason(reason)
    seed = new_seed(rng_seed)
    rng = random.Random(seed)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        entry = _active_entry(event, entry_id)
        _check_seat(event, entry, seat, table)
        before = [entry.reserved_seat, entry.reserved_table, entry.reserve_reason]
        Entry.objects.filter(pk=entry.pk).update(
            reserved_seat=seat, reserved_table=table, reserve_reason=reason
        )
        seatmap = SeatMap.read(event)
        applied = _seat_now(event, seatmap, entry.pk, rules.Reserved(seat, table), rng)
        log_record(
            event=event,
            actor=actor,
            action="entry.reserve",
            summary=Text(
                gettext_noop(
                    "Reserved seat (%(rule)s) for #%(number)s %(name)s: %(where)s (%(reason)s); "
                    "%(moves)s move slips"
                )
                if applied
                else gettext_noop(
                    "Reserved seat (%(rule)s) for #%(number)s %(name)s: %(where)s (%(reason)s)"
                ),
                rule=event.cite("reserved_seat"),
                number=entry.number,
                name=entry.player.name,
                where=_where(seat, table),
                reason=reason,
                **({"moves": sum(len(a.moves) for a in applied)} if applied else {}),
            ),
            data={
                "entry": entry.pk,
                "seat": seat,
                "table": table,
                "reason": reason,
                "before": before,
                "seed": seed,
                "moves": [row for a in applied for row in a.as_log()["moves"]],
                "broken": [n for a in applied for n in a.broken],
            },
        )
    entry.refresh_from_db()
    return Reservation(entry, applied)


def _seat_now(
    event: Event, seatmap: SeatMap, entry: int, reserved: rules.Reserved, rng: random.Random
) -> list[Applied]:
    """Move a seated player into their reserved seat, then balance what that changed."""
    if entry not in seatmap.seated:
        return []
    plan = engine_call(
        rules.plan_reserved_seat,
        seatmap.engine_tables(),
        entry,
        reserved,
        rng,
        holds=seatmap.holds,
        rule=event.button_rule,
    )
    if not plan.moves:
        return []
    applied = [plan_apply(seatmap, plan, rng)]
    plan = rebalance_plan(event, seatmap, rng)
    if plan.moves or plan.broken:
        applied.append(plan_apply(seatmap, plan, rng))
    return applied


def entry_reserve_clear(*, event_id: int, entry_id: int, actor: Actor) -> Entry:
    """Give up a player's reserved seat: they stay where they sit, free to be moved."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        entry = _active_entry(event, entry_id)
        if entry.reserved_seat is None:
            raise SeatingError(gettext("no seat is reserved for this player"))
        before = [entry.reserved_seat, entry.reserved_table, entry.reserve_reason]
        Entry.objects.filter(pk=entry.pk).update(
            reserved_seat=None, reserved_table=None, reserve_reason=""
        )
        log_record(
            event=event,
            actor=actor,
            action="entry.reserve_clear",
            summary=Text(
                gettext_noop(
                    "No reserved seat for #%(number)s %(name)s any more (was %(where)s, %(reason)s)"
                ),
                number=entry.number,
                name=entry.player.name,
                where=_where(entry.reserved_seat, entry.reserved_table),
                reason=entry.reserve_reason,
            ),
            data={"entry": entry.pk, "before": before},
        )
    entry.refresh_from_db()
    return entry


def entry_do_not_move(
    *, event_id: int, entry_id: int, do_not_move: bool, actor: Actor, reason: str = ""
) -> Entry:
    """Set or clear "do not move": balancing then picks another player (a break of the
    player's table still moves them). Setting it needs a reason, which is logged."""
    reason = _reason(reason) if do_not_move else ""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        entry = _active_entry(event, entry_id)
        if entry.do_not_move == do_not_move and entry.do_not_move_reason == reason:
            return entry
        before = [entry.do_not_move, entry.do_not_move_reason]
        Entry.objects.filter(pk=entry.pk).update(do_not_move=do_not_move, do_not_move_reason=reason)
        summary = (
            Text(
                gettext_noop("Do not move #%(number)s %(name)s when balancing (%(reason)s)"),
                number=entry.number,
                name=entry.player.name,
                reason=reason,
            )
            if do_not_move
            else Text(
                gettext_noop(
                    "#%(number)s %(name)s may be moved to balance again (was: %(reason)s)"
                ),
                number=entry.number,
                name=entry.player.name,
                reason=before[1],
            )
        )
        log_record(
            event=event,
            actor=actor,
            action="entry.do_not_move" if do_not_move else "entry.do_not_move_clear",
            summary=summary,
            data={
                "entry": entry.pk,
                "do_not_move": do_not_move,
                "reason": reason,
                "before": before,
            },
        )
    entry.refresh_from_db()
    return entry
