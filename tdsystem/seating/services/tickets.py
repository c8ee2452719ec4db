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

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Grouped, Text, log_record
from tdsystem.events.models import Event

from ..errors import SeatingError
from ..models import Entry, Player, Purchase, Ticket, name_key
from ..seatmap import new_seed
from .registration import Enrolment, _check_open, _enrol, member_id_taken

NOTE_MAX = 120


def seat_value(event: Event) -> Decimal:
    """What a ticket for the event is worth: its whole entry price, buy-in and fee."""
    return Decimal(event.buy_in) + Decimal(event.fee)


def ticket_issue(
    *,
    event_id: int,
    player_id: int | None = None,
    member_id: str = "",
    name: str = "",
    note: str = "",
    new_player: bool = False,
    actor: Actor,
) -> Ticket:
    """A director gives a player a seat in the event by hand (a qualifier from another
    room, a prize). The note says why.

    The ticket goes to an existing player when one is named: by id (picked from a
    search), or by member id. Otherwise a new player is made from the name (with the
    member id, if given); a name that is already a player's is refused, naming them, so
    the director picks that player, unless `new_player` says it is someone else.
    """
    name = " ".join(name.split())
    member_id = member_id.strip()
    note = " ".join(note.split())
    if len(note) > NOTE_MAX:
        raise SeatingError(gettext("the note is longer than 120 characters"), field="note")
    if player_id is None and not name and not member_id:
        raise SeatingError(gettext("the ticket needs a player"), field="name")
    if len(name) > 120:
        raise SeatingError(gettext("the name is longer than 120 characters"), field="name")
    if len(member_id) > 40:
        raise SeatingError(gettext("the member id is longer than 40 characters"), field="member_id")
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        player = _ticket_player(player_id, member_id, name, new_player)
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


def _ticket_player(player_id: int | None, member_id: str, name: str, new_player: bool) -> Player:
    """The ticket's holder: the player picked, the member, or a new player by name."""
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise SeatingError(gettext("no player %(id)s") % {"id": player_id}, field="player")
        return player
    if member_id:
        player = Player.objects.filter(member_id=member_id).first()
        if player is not None:
            return player
        if not name:
            raise SeatingError(
                gettext("no player has member id %(member_id)s: give the new player's name")
                % {"member_id": member_id},
                field="name",
            )
    elif not new_player:
        known = list(Player.objects.filter(name_key=name_key(name)).order_by("pk")[:4])
        if known:
            listed = "; ".join(player_described(p) for p in known[:3])
            raise SeatingError(
                gettext(
                    "a player of that name exists already (%(players)s): pick the player, "
                    "or give the ticket to a new player of that name"
                )
                % {"players": listed + ("; …" if len(known) > 3 else "")}
            )
    try:
        # A savepoint: a registration elsewhere may take the member id meanwhile.
        with transaction.atomic():
            return Player.objects.create(name=name, member_id=member_id)
    except IntegrityError as exc:
        refusal = member_id_taken(member_id=member_id) if member_id else None
        if refusal is None:
            raise
        raise refusal from exc


def player_described(player: Player) -> str:
    """A player as a refusal names them: `Ann Lee (from Lyon), member 1234`."""
    text = str(player)
    if player.member_id:
        text = gettext("%(player)s, member %(member_id)s") % {
            "player": text,
            "member_id": player.member_id,
        }
    return text


@dataclass(frozen=True)
class TicketEntry:
    """A ticket used: the entry it paid for, seated as any registration is."""

    ticket: Ticket
    enrolment: Enrolment


def ticket_register(
    *,
    ticket_id: int,
    actor: Actor,
    event_id: int | None = None,
    confirm_changes: bool = False,
    rng_seed: int | None = None,
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
        event = event_lock(
            Event.objects, event_id if event_id is not None else target_id, error=SeatingError
        )
        # Only the ticket's own row, read after its lock: a join's columns would be those
        # of the snapshot before a registration in another flight that held it.
        ticket = Ticket.objects.select_for_update(no_key=True).get(pk=ticket_id)
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
        enrolment = _enrol(
            event, player, Purchase.Kind.ENTRY, actor, new_seed(rng_seed), confirm_changes
        )
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
