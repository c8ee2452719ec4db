"""Flights and Day 2 (docs/festivals.md): an event's flights and its Day 2 preview, a
flight added, the flights combined into Day 2."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest
from django.utils.translation import gettext_noop
from ninja import Field, Router, Schema, Status

from tdsystem.core.actors import Actor
from tdsystem.core.moments import Moment
from tdsystem.seating import services
from tdsystem.seating.selectors_flights import Day2Preview, day2_preview
from tdsystem.seating.services.flights import FLIGHT_NAME_MAX

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_found
from .schemas import INT64, Out, PlainText

router = Router(tags=["Events and clock"], exclude_unset=True)
EVENT = "/events/{int:event_id}"
events = StaffToken("events")


class Flight(Out):
    id: int
    flight: str = Field(description="The flight's name, e.g. 1A.")
    name: str
    scheduled_start: datetime | None
    status: str = Field(description="planned, playing, bagging, bagged or combined.")
    entries: int = Field(description="Its entries, re-entries included.")
    players_left: int
    bagged: int = Field(description="Players left with a day-1 bag.")
    level: int = Field(description="The clock's level index (0: the first row).")
    blocker: str | None = Field(description="Why it stops the combination; null: it does not.")
    chips_bagged: int = Field(description="The chips in its players' day-1 bags.")
    chips_in_play: int = Field(description="The chips its entries bought, less any removed.")
    difference: int = Field(
        description="Once bagged, the bags less the chips in play (0: they add up); the "
        "combination then needs `confirm_differences`."
    )


class BaggedTwice(Out):
    player: str
    kept_flight: str
    kept_chips: int
    dropped: list[str] = Field(description="The flights whose bags were dropped.")


class Flights(Out):
    event: int
    day: int = Field(description="1 until the flights are combined, then 2.")
    bag_rule: str = Field(description="larger or first: the stack a player in two flights keeps.")
    flights: list[Flight]
    entries: int = Field(description="The whole event's entries over its flights.")
    day2_players: int
    day2_chips: int
    level: int = Field(description="The level index Day 2 resumes at.")
    bagged_twice: list[BaggedTwice]
    blockers: list[str] = Field(description="What stops the combination; empty: it may go.")
    combined: bool


class FlightIn(Schema):
    name: PlainText = Field(
        strict=True,
        min_length=1,
        max_length=FLIGHT_NAME_MAX,
        description=gettext_noop("the flight's name, e.g. 1A, at most 8 characters"),
    )
    scheduled_start: Moment | None = Field(
        None,
        description=gettext_noop(
            "when the flight starts: ISO 8601 text from 2000-01-01 00:00 to 2100-12-31 23:59, "
            "in the installation's time zone unless it carries an offset (2026-06-01T18:00:00Z)"
        ),
    )


class Day2In(Schema):
    seed: int | None = Field(
        None,
        strict=True,
        ge=0,
        le=INT64,
        description=gettext_noop("the seed of the seat draw (a draw can be replayed)"),
    )
    confirm_differences: bool = Field(
        False,
        strict=True,
        description=gettext_noop(
            "true or false: combine although a flight's bags do not add up to its chips in play"
        ),
    )


class Day2(Out):
    event: int
    players: int
    chips: int
    dropped: int = Field(description="Bags dropped: players who bagged in two flights.")
    tables: list[int]
    level: int = Field(description="The level index the clock waits at, not started.")
    seed: int


def flights_json(preview: Day2Preview) -> dict:
    event = preview.event
    return {
        "event": event.pk,
        "day": event.day,
        "bag_rule": event.bag_rule,
        "flights": [
            {
                "id": row.event.pk,
                "flight": row.event.flight,
                "name": row.event.name,
                "scheduled_start": row.event.scheduled_start,
                "status": row.status,
                "entries": row.entries,
                "players_left": row.active,
                "bagged": row.bagged,
                "level": row.level_index,
                "blocker": row.blocker,
                "chips_bagged": row.chips_bagged,
                "chips_in_play": row.chips_in_play,
                "difference": row.difference,
            }
            for row in preview.flights
        ],
        "entries": preview.entries,
        "day2_players": preview.players,
        "day2_chips": preview.chips,
        "level": preview.level_index,
        "bagged_twice": [
            {
                "player": t.name,
                "kept_flight": t.kept.flight,
                "kept_chips": t.kept.chips,
                "dropped": [bag.flight for bag in t.dropped],
            }
            for t in preview.twice
        ],
        "blockers": preview.blockers,
        "combined": preview.combined,
    }


@router.get(
    EVENT + "/flights",
    response={200: Flights, **READ_ERRORS},
    url_name="flights",
    summary="List the flights and the Day 2 preview",
    description="The event's Day 1 flights with their entries, players left and bags; the "
    "Day 2 field they make (one stack per player by the bag rule) and what stops it.",
)
def flights(request: HttpRequest, event_id: int):
    return flights_json(day2_preview(event_found(event_id)))


@router.post(
    EVENT + "/flights",
    auth=events,
    response={201: Flight, **WRITE_ERRORS},
    url_name="flight_add",
    summary="Add a flight",
    description="A new Day 1 flight with the event's settings and a copy of its structure. "
    "409 for a flight of a flight, a name taken, or an event on Day 2 already.",
)
def flight_add(request: AuthedRequest, event_id: int, payload: FlightIn):
    event = event_found(event_id)
    flight = services.flight_add(
        event_id=event.pk,
        name=payload.name,
        scheduled_start=payload.scheduled_start,
        actor=Actor.of(request.auth),
    )
    listed = flights_json(day2_preview(event))["flights"]
    return Status(201, next(row for row in listed if row["id"] == flight.pk))


@router.post(
    EVENT + "/day2",
    auth=events,
    response={200: Day2, **WRITE_ERRORS},
    url_name="day2",
    summary="Combine the flights into Day 2",
    description="One entry per surviving player with the stack kept by the bag rule, the "
    "tables set up, the seats drawn at random, the clock at the level the flights reached "
    "(not started). 409 while a flight has not bagged, or once combined; 409 while a "
    "flight's bags do not add up to its chips in play (each flight's `difference` in the "
    "list) unless `confirm_differences`.",
)
def day2(request: AuthedRequest, event_id: int, payload: Day2In | None = None):
    event_found(event_id)
    done = services.day2_combine(
        event_id=event_id,
        seed=payload.seed if payload else None,
        confirm_differences=payload.confirm_differences if payload else False,
        actor=Actor.of(request.auth),
    )
    return {
        "event": done.event.pk,
        "players": done.players,
        "chips": done.chips,
        "dropped": done.dropped,
        "tables": done.tables,
        "level": done.level_index,
        "seed": done.seed,
    }
