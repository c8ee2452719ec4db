"""Tickets: the seats an event's satellites awarded or a director gave, one given by hand,
and a ticket's registration in its event."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import Field, Router, Schema, Status

from tdsystem.core.actors import Actor
from tdsystem.seating.models import Ticket as TicketRow
from tdsystem.seating.services.tickets import ticket_issue, ticket_register, tickets_of

from .auth import AuthedRequest, StaffToken, require_right
from .common import READ_ERRORS, WRITE_ERRORS, event_exists, event_found
from .errors import NotFound
from .schemas import CONFIRM_CHANGES, INT64, MemberId, Out, PlainText, Registered
from .seating import registered_json

router = Router(tags=["Seating"], exclude_unset=True)
seating = StaffToken("seating")


class Ticket(Out):
    id: int
    player: str
    target: int = Field(description="The event the ticket is a seat in.")
    source: int | None = Field(description="The satellite that awarded it; null: given by hand.")
    value: str = Field(description="The seat's worth, the target's buy-in and fee; two decimals.")
    note: str
    used_by: int | None = Field(description="The entry number it paid for; null: not used.")


class TicketIn(Schema):
    player: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=INT64,
        description=gettext_noop("the id of an existing player to give the ticket to"),
    )
    member_id: MemberId = Field(
        "",
        description=gettext_noop(
            "a member id: the ticket goes to that member, or to a new player of the name with it"
        ),
    )
    name: PlainText = Field(
        "",
        strict=True,
        max_length=120,
        description=gettext_noop(
            "a new player's name, at most 120 characters (without player or member id)"
        ),
    )
    new_player: bool = Field(
        False,
        strict=True,
        description=gettext_noop(
            "true or false: a new player although a player of that name exists"
        ),
    )
    note: PlainText = Field(
        "",
        strict=True,
        max_length=120,
        description=gettext_noop("why the ticket is given, at most 120 characters"),
    )


class TicketUseIn(Schema):
    event: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=INT64,
        description=gettext_noop("the flight to register in, when not the ticket's own event"),
    )
    confirm_changes: bool = CONFIRM_CHANGES


class TicketUsed(Out):
    ticket: Ticket
    entry: Registered


def ticket_json(ticket: TicketRow) -> dict:
    return {
        "id": ticket.pk,
        "player": ticket.player.name,
        "target": ticket.target_id,
        "source": ticket.source_id,
        "value": f"{ticket.value:.2f}",
        "note": ticket.note,
        "used_by": ticket.used_by.number if ticket.used_by else None,
    }


@router.get(
    "/events/{int:event_id}/tickets",
    response={200: list[Ticket], **READ_ERRORS},
    url_name="tickets",
    summary="List the tickets",
    description="The seats in the event (a flight: in its festival event too), won in its "
    "satellites or given by hand, the unused first.",
)
def tickets(request: HttpRequest, event_id: int):
    return [ticket_json(t) for t in tickets_of(event_found(event_id))]


@router.post(
    "/events/{int:event_id}/tickets",
    auth=seating,
    response={201: Ticket, **WRITE_ERRORS},
    url_name="tickets",
    summary="Give a ticket",
    description="A seat in the event given by hand (a qualifier from another room), worth "
    "the event's buy-in and fee: to the player `player`, or the member `member_id`, or else "
    "a new player `name`. 409 when the name is a player's already (naming them), unless "
    "`new_player`.",
)
def give(request: AuthedRequest, event_id: int, payload: TicketIn):
    event_exists(event_id)
    ticket = ticket_issue(
        event_id=event_id,
        player_id=payload.player,
        member_id=payload.member_id,
        name=payload.name,
        note=payload.note,
        new_player=payload.new_player,
        actor=Actor.of(request.auth),
    )
    return Status(201, ticket_json(ticket))


@router.post(
    "/tickets/{int:ticket_id}/register",
    auth=seating,
    response={201: TicketUsed, **WRITE_ERRORS},
    url_name="ticket_register",
    summary="Register with a ticket",
    description="Registers the holder without payment: the entry's buy-in goes into the "
    "pool as if paid. 409 when the ticket is used, is for another event, or registration "
    "is closed; when the entry would change the places or prizes of players in the money, "
    "409 until `confirm_changes` (never a prize already paid).",
)
def register(request: AuthedRequest, ticket_id: int, payload: TicketUseIn | None = None):
    target = TicketRow.objects.filter(pk=ticket_id).values_list("target_id", flat=True).first()
    if target is None:
        raise NotFound(_("no ticket %(id)s") % {"id": ticket_id})
    if payload and payload.event is not None:
        event_exists(payload.event)
    # The path names a ticket: the event registered in is the staff's to act on.
    require_right(request, "seating", payload.event if payload and payload.event else target)
    used = ticket_register(
        ticket_id=ticket_id,
        event_id=payload.event if payload else None,
        confirm_changes=payload.confirm_changes if payload else False,
        actor=Actor.of(request.auth),
    )
    entry = registered_json(used.enrolment)
    return Status(201, {"ticket": ticket_json(used.ticket), "entry": entry})
