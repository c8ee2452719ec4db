"""The alternates list: read it, join it (public, rate-limited), and the floor's actions."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status

from tdsystem.core.actors import Actor
from tdsystem.players import alternates as alt
from tdsystem.players.links import player_url
from tdsystem.players.models import Alternate as AlternateRow

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_found
from .errors import NotFound
from .schemas import Out, PlayerName

router = Router(tags=["Alternates"], exclude_unset=True)
EVENT = "/events/{int:event_id}/alternates"
seating = StaffToken("seating")


class JoinIn(Schema):
    name: PlayerName


class Alternate(Out):
    id: int = Field(description="The place's id, for the floor's actions.")
    position: int = Field(description="1 for the first on the list.")
    name: str
    status: Literal["waiting", "called"]
    called_at: datetime | None = Field(description="When the player was called, or null.")
    due_at: datetime | None = Field(description="When the held seat is let go, or null.")
    missed: int = Field(description="Times called without coming in time.")


class Joined(Out):
    id: int
    position: int
    player_url: str = Field(description="The player's own page: their place, then their seat.")


class Done(Out):
    id: int
    name: str
    status: str
    entry: int | None = Field(None, description="The entry number once seated.")


def _json(position: int, row: AlternateRow) -> dict:
    return {
        "id": row.pk,
        "position": position,
        "name": row.name,
        "status": row.status,
        "called_at": row.called_at,
        "due_at": row.due_at,
        "missed": row.missed,
    }


@router.get(
    EVENT,
    response={200: list[Alternate], **READ_ERRORS},
    url_name="alternates",
    summary="List the alternates",
    description="The players waiting or called, in the list's order.",
)
def alternates(request: HttpRequest, event_id: int):
    event = event_found(event_id)
    return [_json(n, row) for n, row in enumerate(alt.queue(event.pk), start=1)]


@router.post(
    EVENT,
    auth=seating,
    response={201: Joined, **WRITE_ERRORS},
    url_name="alternates_join",
    summary="Join the alternates list",
    description="Adds a player to the end of the list (a room's kiosk or app, with a staff "
    "token as every write; players join by themselves from the seat lookup's form). 409 "
    "when the list is closed or full, the name is on it already or is playing in the "
    "event. Answers the joiner's `player_url`.",
)
def join(request: AuthedRequest, event_id: int, payload: JoinIn):
    event = event_found(event_id)
    joined = alt.alternate_join(event=event, name=payload.name, actor=Actor.of(request.auth))
    position = alt.position_of(joined.alternate) or 0
    return Status(
        201,
        {"id": joined.alternate.pk, "position": position, "player_url": player_url(joined.link)},
    )


@router.post(
    EVENT + "/call",
    auth=seating,
    response={200: Done, **WRITE_ERRORS},
    url_name="alternates_call",
    summary="Call the next alternate",
    description="The next waiting player is called: their seat is held for the list's hold "
    "time. 409 when nobody is waiting.",
)
def call(request: AuthedRequest, event_id: int):
    event = event_found(event_id)
    row = alt.alternate_call_next(event=event, actor=Actor.of(request.auth))
    return {"id": row.pk, "name": row.name, "status": row.status}


def _act(request: AuthedRequest, event_id: int, alternate_id: int, action: str) -> dict:
    event = event_found(event_id)
    row = AlternateRow.objects.filter(pk=alternate_id, event=event).first()
    if row is None:
        raise NotFound(_("no such player on the alternates list"))
    actor = Actor.of(request.auth)
    entry = None
    if action == "seat":
        entry = alt.alternate_seat(alternate=row, actor=actor).number
    elif action == "skip":
        alt.alternate_skip(alternate=row, actor=actor)
    else:
        alt.alternate_remove(alternate=row, actor=actor)
    row.refresh_from_db()
    body: dict = {"id": row.pk, "name": row.name, "status": row.status}
    if entry is not None:
        body["entry"] = entry
    return body


ONE = EVENT + "/{int:alternate_id}"


@router.post(
    ONE + "/seat",
    auth=seating,
    response={200: Done, **WRITE_ERRORS},
    url_name="alternates_seat",
    summary="Seat an alternate",
    description="Registers the player (a player out of the event re-enters): the event's "
    "entry rules apply as at the desk, and their refusal answers 409. Answers the `entry`.",
)
def seat(request: AuthedRequest, event_id: int, alternate_id: int):
    return _act(request, event_id, alternate_id, "seat")


@router.post(
    ONE + "/skip",
    auth=seating,
    response={200: Done, **WRITE_ERRORS},
    url_name="alternates_skip",
    summary="Skip an alternate",
    description="Drops the player one place; a called player waits again and the hold "
    "passes to the player now ahead.",
)
def skip(request: AuthedRequest, event_id: int, alternate_id: int):
    return _act(request, event_id, alternate_id, "skip")


@router.post(
    ONE + "/remove",
    auth=seating,
    response={200: Done, **WRITE_ERRORS},
    url_name="alternates_remove",
    summary="Remove an alternate",
    description="Takes the player off the list.",
)
def remove(request: AuthedRequest, event_id: int, alternate_id: int):
    return _act(request, event_id, alternate_id, "remove")
