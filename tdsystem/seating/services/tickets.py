"""Tickets: seats in an event won in a satellite or given by hand, and the registration
they pay for.

A ticket pays the target's whole entry: its holder registers without paying, and the
entry's buy-in goes into the target's pool and its fee to the house as if paid at the
desk (the satellite's money moves to the target). A ticket for a festival's event is good
in any of its flights.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.events.models import Event

from ..errors import SeatingError
from ..models import Entry, Player, Purchase, Ticket
from ..seatmap import event_lock, new_seed
from .registration import Enrolment, _check_open, _enrol

NOTE_MAX = 120


def seat_value(event: Event) -> Decimal:
    """What a ticket for the event is worth: its whole entry price, buy-in and fee."""
    return Decimal(event.buy_in) + Decimal(event.fee)


def ticket_issue(
    *,
    event_id: int,
    player_id: int | None = None,
    name: str = "",
    note: str = "",
    actor: Actor,
) -> Ticket:
    """A director gives a player a seat in the event by hand (a qualifier from another
    room, a prize): an existing player by id, or a new one by name. The note says why."""
    name = " ".join(name.split())
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise SeatingError(gettext("the note is longer than 120 characters"), field="note")
    if player_id is None and not name:
        raise SeatingError(gettext("the ticket needs a player"), field="name")
    if len(name) > 120:
        raise SeatingError(gettext("the name is longer than 120 characters"), field="name")
    with transaction.atomic():
        event = event_lock(event_id)
        if player_id is not None:
            player = Player.objects.filter(pk=player_id).first()
            if player is None:
                raise SeatingError(gettext("no player %(id)s") % {"id": player_id}, field="player")
        else:
            player = Player.objects.create(name=name)
        ticket = Ticket.objects.create(
            player=player,
            target=event,
            value=seat_value(event),
            note=note,
            actor_label=actor.label,
        )
        log_record(
            event=event,
            actor=actor,
            action="ticket.issue",
            summary=Text(
                gettext_noop("Ticket given to %(name)s (%(value)s): %(note)s")
                if note
                else gettext_noop("Ticket given to %(name)s (%(value)s)"),
                name=player.name,
                value=Grouped(ticket.value),
                **({"note": note} if note else {}),
            ),
            data={"ticket": ticket.pk, "player": player.pk, "value": str(ticket.value)},
        )
    return ticket


@dataclass(frozen=True)
class TicketEntry:
    """A ticket used: the entry it paid for, seated as any registration is."""

    ticket: Ticket
    enrolment: Enrolment


def ticket_register(
    *, ticket_id: int, actor: Actor, event_id: int | None = None, rng_seed: int | None = None
) -> TicketEntry:
    """Register a ticket's holder in its event (or in a flight of it, `event_id`).

    Refused, with nothing changed: a ticket used already, a ticket for another event,
    registration closed, a holder who has entered already (a ticket pays a first entry;
    a re-entry is bought at the desk).
    """
    target_id = Ticket.objects.filter(pk=ticket_id).values_list("target_id", flat=True).first()
    if target_id is None:
        raise SeatingError(gettext("no ticket %(id)s") % {"id": ticket_id}, field="ticket")
    with transaction.atomic():
        event = event_lock(event_id if event_id is not None else target_id)
        # Only the ticket's own row, read after its lock: a join's columns would be those
        # of the snapshot before a registration in another flight that held it.
        ticket = Ticket.objects.select_for_update().get(pk=ticket_id)
        if ticket.target_id not in (event.pk, event.parent_id):
            raise SeatingError(
                gettext("this ticket is for %(target)s, not %(event)s")
                % {"target": ticket.target.name, "event": event.name}
            )
        if ticket.used_by_id is not None:
            number = Entry.objects.filter(pk=ticket.used_by_id).values_list("number", flat=True)
            raise SeatingError(
                gettext("the ticket of %(name)s is used already (entry #%(number)s)")
                % {"name": ticket.player.name, "number": number.first()}
            )
        _check_open(event)
        player = ticket.player
        if Entry.objects.filter(event=event, player=player).exists():
            raise SeatingError(gettext("%(name)s has entered already") % {"name": player.name})
        enrolment = _enrol(event, player, Purchase.Kind.ENTRY, actor, new_seed(rng_seed))
        ticket.used_by = enrolment.entry
        ticket.used_at = timezone.now()
        ticket.save(update_fields=["used_by", "used_at"])
        log_record(
            event=event,
            actor=actor,
            action="ticket.use",
            summary=Text(
                gettext_noop("Entry #%(number)s of %(name)s paid by a ticket (%(value)s)"),
                number=enrolment.entry.number,
                name=player.name,
                value=Grouped(ticket.value),
            ),
            data={"ticket": ticket.pk, "entry": enrolment.entry.pk},
        )
    return TicketEntry(ticket, enrolment)


def tickets_of(event: Event) -> list[Ticket]:
    """The tickets good in the event (its own, and its festival event's for a flight),
    unused first."""
    targets = [event.pk] + ([event.parent_id] if event.parent_id else [])
    rows = Ticket.objects.filter(target_id__in=targets).select_related(
        "player", "source", "used_by"
    )
    return sorted(rows, key=lambda t: (t.used_by_id is not None, t.created_at, t.pk))
