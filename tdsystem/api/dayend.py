"""The end of a day (WSOP R125, docs/festivals.md): the last hands started, a table's bags,
the day closed, the next day's draw."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext_noop
from ninja import Field, Router, Schema, Status

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.seating.models import DayEnd as DayEndRow
from tdsystem.seating.services import dayend
from tdsystem.seating.services.tables import MAX_TABLE_SEATS

from .auth import AuthedRequest, StaffToken
from .common import WRITE_ERRORS, event_exists
from .schemas import INT64, Out, PlainText

router = Router(tags=["Seating"], exclude_unset=True)
EVENT = "/events/{int:event_id}"
seating = StaffToken("seating")


class SeedIn(Schema):
    seed: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=INT64,
        description=gettext_noop("the draw's seed, a whole number from 0 (to replay a draw)"),
    )


class BagIn(Schema):
    seat: int = Field(
        strict=True,
        ge=1,
        le=MAX_TABLE_SEATS,
        description=gettext_noop("the player's seat at the table, 1 to 10"),
    )
    chips: int = Field(
        strict=True,
        ge=1,
        le=dayend.BAG_CHIPS_MAX,
        description=gettext_noop("the chips in the bag, 1 to 999,999,999,999,999"),
    )
    number: PlainText = Field(
        strict=True,
        min_length=1,
        max_length=dayend.BAG_NUMBER_MAX,
        description=gettext_noop("the number on the bag, 1 to 20 characters"),
    )


class BagsIn(Schema):
    bags: list[BagIn] = Field(
        min_length=1,
        max_length=MAX_TABLE_SEATS,
        description=gettext_noop("every player at the table, one bag each"),
    )


class CloseIn(Schema):
    confirm_difference: int | None = Field(
        None,
        strict=True,
        ge=-INT64,
        le=INT64,
        description=gettext_noop(
            "the bags' total less the chips in play, as the 409 gave it: close the day with "
            "that difference"
        ),
    )


class DayEnd(Out):
    day: int
    hands: int = Field(
        description="The last hands every table plays; 0: the day ran the clock out and "
        "every table bags."
    )
    started_at: datetime
    closed_at: datetime | None = Field(description="Set once every stack is bagged.")


class BagsDiffer(Out):
    error: str = Field(description="Why the day does not close, for people.")
    difference: int | None = Field(
        None, description="The bags' total less the chips in play, when they differ."
    )
    bagged: int | None = Field(None, description="The bags' total.")
    in_play: int | None = Field(None, description="The chips in play.")


class Bag(Out):
    entry: int = Field(description="Entry number in the event.")
    player: str
    seat: int
    chips: int
    number: str


class NextDay(Out):
    day: int
    seated: int


def _day_end(row: DayEndRow) -> dict:
    return {
        "day": row.day,
        "hands": row.hands,
        "started_at": row.started_at,
        "closed_at": row.closed_at,
    }


@router.post(
    EVENT + "/day-end",
    auth=seating,
    response={200: DayEnd, **WRITE_ERRORS},
    url_name="day_end_start",
    summary="End the day: its last hands, or bag at once",
    description="Draws how many more hands every table plays (3 to 7 at 9-handed events, "
    "2 to 5 at others; WSOP R125). With three tables or fewer in play the day runs the "
    "clock out: no hands are drawn (`hands` 0) and every table bags at once. Until the next "
    "day's draw, registration, redraws and balancing wait. 409 when this day's end is "
    "started already.",
)
def day_end_start(request: AuthedRequest, event_id: int, payload: SeedIn | None = None):
    event_exists(event_id)
    seed = payload.seed if payload else None
    row = dayend.day_end_start(event_id=event_id, actor=Actor.of(request.auth), seed=seed)
    return _day_end(row)


@router.post(
    EVENT + "/tables/{int:number}/bags",
    auth=seating,
    response={200: list[Bag], **WRITE_ERRORS},
    url_name="bags",
    summary="Bag a table's stacks",
    description="Every player at a table that has played its last hand, all or none. A bag "
    "number is unique in the event and day; 409 names the seat at fault. Each count is also "
    "the player's chip count.",
)
def bags(request: AuthedRequest, event_id: int, number: int, payload: BagsIn):
    event_exists(event_id)
    rows = dayend.bags_record(
        event_id=event_id,
        table_number=number,
        bags=[(b.seat, b.chips, b.number) for b in payload.bags],
        actor=Actor.of(request.auth),
    )
    return [
        {
            "entry": b.entry.number,
            "player": b.entry.player.name,
            "seat": b.seat,
            "chips": b.chips,
            "number": b.number,
        }
        for b in rows
    ]


@router.post(
    EVENT + "/day-end/close",
    auth=seating,
    response={200: DayEnd, **WRITE_ERRORS, 409: BagsDiffer},
    url_name="day_end_close",
    summary="Close the day",
    description="Once every player still in has a bag: the clock stops for the night "
    "(paused, with its time left). 409 names who is not bagged yet; 409 with `difference` "
    "(the bags' total less the chips in play) when the bags do not add up: send that "
    "number as `confirm_difference` to close the day with it.",
)
def day_end_close(request: AuthedRequest, event_id: int, payload: CloseIn | None = None):
    event_exists(event_id)
    try:
        row = dayend.day_end_close(
            event_id=event_id,
            actor=Actor.of(request.auth),
            confirm_difference=payload.confirm_difference if payload else None,
        )
    except dayend.BagsDiffer as exc:
        body = {"error": str(exc), "difference": exc.difference, "bagged": exc.bagged}
        return Status(409, body | {"in_play": exc.in_play})
    return _day_end(row)


@router.post(
    EVENT + "/day-end/next",
    auth=seating,
    response={200: NextDay, **WRITE_ERRORS},
    url_name="day_next_draw",
    summary="Draw the next day",
    description="An event played over days without flights: the day moves on and the "
    "bagged players are drawn at random onto the tables in play. 409 for a flight (its "
    "players go on in Day 2 of its event) or before the day is closed.",
)
def day_next(request: AuthedRequest, event_id: int, payload: SeedIn | None = None):
    event_exists(event_id)
    seed = payload.seed if payload else None
    seated = dayend.day_next_draw(event_id=event_id, actor=Actor.of(request.auth), seed=seed)
    day = Event.objects.values_list("day", flat=True).get(pk=event_id)
    return {"day": day, "seated": seated}
