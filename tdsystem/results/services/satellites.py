"""Satellites: the seats a satellite awards in its target, and the tickets it issues.

The pool buys whole seats, each worth the target's entry (buy-in and fee); the rest is
paid in cash to the next place (`engine.satellites`, the prizes in `standings`). The
satellite is decided once the players left are no more than the seats: as live rooms
do, the players still in all win a seat and play stops. Played on to a winner instead,
the places with a seat's prize win one. Players out on one hand who share places across
the last seat share its value and the cash as money (a share of a seat is no ticket);
the director may give one of them a ticket by hand if they agree so.

Callers hold no lock: each service takes the event's.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.engine import clock as clockrules
from tdsystem.engine import satellites as rules
from tdsystem.events import hooks
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, Ticket
from tdsystem.seating.services.tickets import seat_value
from tdsystem.seating.texts import text_list

from ..errors import ResultsError
from ..models import Finish
from . import standings


@dataclass(frozen=True)
class Satellite:
    """A satellite as it stands: its seats, who wins them, the cash place."""

    target: Event
    seat_value: Decimal
    seats: int
    remainder: Decimal
    players_left: int
    finished: bool
    winners: tuple[Entry, ...]  # the seat winners so far (all of them once decided)
    shared: tuple[Finish, ...]  # out on one hand across the last seat: paid as money
    cash: Finish | None  # the place paid the remainder, once someone holds it
    tickets: tuple[Ticket, ...]  # issued by the satellite

    @property
    def decided(self) -> bool:
        return 0 < self.players_left <= self.seats

    @property
    def cash_place(self) -> int | None:
        return self.seats + 1 if self.seats and self.remainder else None

    @property
    def seat_numbers(self) -> frozenset[int]:
        """The entry numbers that win (or won) a seat."""
        return frozenset(e.number for e in self.winners)

    @property
    def ticket_players(self) -> frozenset[int]:
        return frozenset(t.player_id for t in self.tickets)

    @property
    def waiting(self) -> bool:
        """Decided, with a seat winner still without a ticket or play not yet stopped."""
        if not self.decided:
            return False
        return not self.finished or any(
            e.player_id not in self.ticket_players for e in self.winners
        )

    @property
    def label(self) -> str:
        return gettext("Seat in %(event)s") % {"event": self.target.name}

    def ticket_of(self, player_id: int) -> Ticket | None:
        return next((t for t in self.tickets if t.player_id == player_id), None)


def satellite_read(event: Event) -> Satellite | None:
    """The satellite's seats and winners (None for an event that is no satellite)."""
    target = event.satellite_target
    if target is None:
        return None
    value = seat_value(target)
    fld = standings.field_read(event)
    seats, remainder = rules.seats_and_remainder(fld.pool, value) if value > 0 else (0, fld.pool)
    finishes = list(
        Finish.objects.filter(event=event, undone_at__isnull=True, place__lte=seats + 1)
        .select_related("entry__player")
        .order_by("place", "slot", "entry_id")
    )
    winners = [f.entry for f in finishes if f.place_to <= seats]
    shared = [f for f in finishes if f.place <= seats < f.place_to]
    finished = event.status == Event.Status.FINISHED
    active = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("number")
    )
    if len(active) <= seats:
        winners = [e for e in active if e.pk not in {w.pk for w in winners}] + winners
    cash = next((f for f in finishes if f.place == f.place_to == seats + 1), None)
    tickets = Ticket.objects.filter(source=event).select_related("player", "used_by")
    return Satellite(
        target,
        value,
        seats,
        remainder,
        len(active),
        finished,
        tuple(winners),
        tuple(shared),
        cash if remainder else None,
        tuple(tickets),
    )


def satellite_json(event: Event, payload: dict) -> dict:
    """The results' answer with a satellite's seats: each seat winner's row says so."""
    state = satellite_read(event)
    assert state is not None
    won = state.seat_numbers if state.decided else frozenset()
    for row in payload["results"]:
        if row["entry"] in won:
            row["seat"] = state.label
    payload["satellite"] = {
        "target": state.target.pk,
        "seat_value": f"{state.seat_value:.2f}",
        "seats": state.seats,
        "remainder": f"{state.remainder:.2f}",
        "decided": state.decided,
        "winners": sorted(won),
    }
    return payload


def satellite_tickets_issue(*, event_id: int, actor: Actor) -> list[Ticket]:
    """Issue a ticket to each seat winner of a decided satellite, and end it.

    Idempotent: a winner holding the satellite's ticket gets no second one; a satellite
    decided with players still in is finished (the clock stopped, the tables given back).
    Returns the tickets issued now.
    """
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        state = satellite_read(event)
        if state is None:
            raise ResultsError(gettext("this event is no satellite"))
        if state.seats == 0:
            raise ResultsError(
                gettext(
                    "the pool of %(pool)s buys no seat in %(target)s (a seat is %(value)s): "
                    "the event is paid in cash by its payout plan"
                )
                % {
                    "pool": state.remainder,
                    "target": state.target.name,
                    "value": state.seat_value,
                }
            )
        if not state.decided:
            raise ResultsError(
                gettext("%(left)s players are left for %(seats)s seats: play on")
                % {"left": state.players_left, "seats": state.seats}
            )
        issued = [
            Ticket.objects.create(
                player=entry.player,
                target=state.target,
                source=event,
                value=state.seat_value,
                actor_label=actor.label,
            )
            for entry in state.winners
            if state.ticket_of(entry.player_id) is None
        ]
        ends = not state.finished
        if ends:
            _seats_place(event, state)
            Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        if issued:
            log_record(
                event=event,
                actor=actor,
                action="satellite.tickets",
                summary=Text(
                    gettext_noop("Seats in %(target)s (%(value)s each): %(names)s"),
                    target=state.target.name,
                    value=Grouped(state.seat_value),
                    names=text_list([t.player.name for t in issued]),
                ),
                data={"target": state.target.pk, "tickets": [t.pk for t in issued]},
            )
    if ends:
        transaction.on_commit(lambda: _finish(event_id, actor))
    return issued


def _seats_place(event: Event, state: Satellite) -> list[Finish]:
    """Play stops with the seat winners still in: they share the top places (1 to the
    players left), each with a seat's value, so the results list them as finishers. No
    bust-out took them, so the finishes have no group: the standings keep them as awarded.
    """
    placed = set(
        Finish.objects.filter(event=event, undone_at__isnull=True).values_list(
            "entry_id", flat=True
        )
    )
    left = sorted((e for e in state.winners if e.pk not in placed), key=lambda e: e.number)
    if not left:
        return []
    finishes = Finish.objects.bulk_create(
        Finish(
            event=event,
            entry=entry,
            place=1,
            place_to=len(left),
            slot=slot,
            prize=state.seat_value,
            from_table=entry.table,
            from_seat=entry.seat,
        )
        for slot, entry in enumerate(left, start=1)
    )
    return finishes


def _finish(event_id: int, actor: Actor) -> None:
    """Stop the clock for good; a clock never started only lets the finish hooks run."""
    from tdsystem.events.services import clock_action

    try:
        clock_action(event_id=event_id, action="finish", actor=actor)
    except clockrules.ClockError:
        hooks.event_finished(event_id=event_id, actor=actor)


def satellite_finished(*, event_id: int, actor: Actor) -> None:
    """After a satellite's clock finished (played on to a winner): its tickets."""
    event = Event.objects.filter(pk=event_id, satellite_target__isnull=False).first()
    if event is None:
        return
    with contextlib.suppress(ResultsError):
        satellite_tickets_issue(event_id=event_id, actor=actor)
