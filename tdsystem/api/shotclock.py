"""A table's shot clock: read it (public, as the table page shows it), and the dealer's
buttons (staff): start, reset, an extension, the expiry. docs/shot-clock.md."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import Field, Router, Schema
from pydantic import model_validator

from tdsystem.core.actors import Actor
from tdsystem.core.numbers import SEATS_PER_TABLE, TABLE_NUMBER
from tdsystem.shotclock import selectors, services
from tdsystem.shotclock.selectors import TableState

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_found
from .errors import NotFound
from .schemas import Out, field_error

router = Router(tags=["Shot clock"], exclude_unset=True)
TABLE = "/events/{int:event_id}/tables/{int:number}/shot-clock"


class ShotClockIn(Schema):
    action: Literal["start", "reset", "extend", "expire"] = Field(
        description=gettext_noop("one of start, reset, extend, expire")
    )
    seat: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=SEATS_PER_TABLE.high,
        description=gettext_noop("the seat of the player to act, 1 to 10; start and extend"),
    )
    street: Literal["preflop", "flop", "turn", "river"] = Field(
        "preflop", description=gettext_noop("one of preflop, flop, turn, river")
    )
    facing: Literal["none", "bet", "raise"] = Field(
        "bet", description=gettext_noop("what the player faces: none, bet or raise")
    )
    floor: bool = Field(
        False,
        strict=True,
        description=gettext_noop("true or false: the floor's call (TDA 29, 25 + 5 seconds)"),
    )

    @model_validator(mode="after")
    def _seat_named(self) -> ShotClockIn:
        if self.action in ("start", "extend") and self.seat is None:
            raise field_error("seat", _("seat: %(action)s names a seat") % {"action": self.action})
        return self


class SeatOut(Out):
    seat: int
    entry: int | None = Field(description="The entry number seated there; null: empty.")
    player: str
    extensions: int | None = Field(description="The player's extensions left.")


class ShotClockOut(Out):
    table: int
    on: bool = Field(description="Whether the event's action clock runs now.")
    status: str = Field(description="idle, running or expired.")
    kind: str | None = Field(description="action, or floor (the floor's call, 25 + 5 s).")
    seat: int | None
    entry: int | None
    player: str
    street: str | None
    facing: str | None
    seconds: int | None = Field(description="The time allowed, extensions included.")
    started_at: datetime | None
    ends_at: datetime | None
    remaining: float | None = Field(description="Seconds left now.")
    warning: int | None = Field(description="The last warning point passed.")
    outcome: str | None = Field(description="At zero: dead or checked.")
    seats: list[SeatOut]


def _json(state: TableState) -> dict:
    clock, run, read = state.clock, state.run, state.reading
    entry = state.player
    return {
        "table": state.table.number,
        "on": state.on,
        "status": state.status,
        "kind": clock.kind if run and clock else None,
        "seat": clock.seat if run and clock else None,
        "entry": entry.number if run and entry else None,
        "player": entry.player.name if run and entry else "",
        "street": clock.street if run and clock else None,
        "facing": clock.facing if run and clock else None,
        "seconds": run.total if run else None,
        "started_at": run.started_at if run else None,
        "ends_at": run.ends_at if run else None,
        "remaining": round(read.remaining, 1) if read else None,
        "warning": read.warning if read else None,
        "outcome": state.outcome or None,
        "seats": [
            {
                "seat": row.seat,
                "entry": row.entry.number if row.entry else None,
                "player": row.entry.player.name if row.entry else "",
                "extensions": row.extensions,
            }
            for row in state.seats
        ],
    }


def _state(event_id: int, number: int) -> TableState:
    if not TABLE_NUMBER.low <= number <= TABLE_NUMBER.high:
        raise NotFound(_("no table %(n)s") % {"n": number})
    state = selectors.table_state(event_found(event_id), number)
    if state is None:
        raise NotFound(_("no table %(n)s") % {"n": number})
    return state


@router.get(
    TABLE,
    response={200: ShotClockOut, **READ_ERRORS},
    url_name="shot_clock",
    summary="Read a table's shot clock",
    description="The clock at table `number`: idle, running (with the seconds left and the "
    "warning point passed) or expired (with the outcome), and each seat's player with the "
    "extensions left. `on` says whether the event's action clock runs now; the floor's "
    "clock may be called at any time.",
)
def shot_clock_read(request, event_id: int, number: int):
    return _json(_state(event_id, number))


@router.post(
    TABLE,
    auth=StaffToken("seating"),
    response={200: ShotClockOut, **WRITE_ERRORS},
    url_name="shot_clock_act",
    summary="Start, reset, extend or expire a table's shot clock",
    description="The dealer's buttons. `start` puts the clock on `seat` (the policy's time for "
    "`street` and `facing`, or with `floor` the floor's 25 + 5 seconds; a clock still "
    "running stops first); `reset`: the player acted; `extend`: the player on the clock in "
    "`seat` uses an extension; `expire`: the clock ran out, its outcome recorded (409 while "
    "time is left; a second report changes nothing). 409 when the rules or the clock's "
    "state refuse it: the action clock not on yet, no extension left, no clock running.",
)
def shot_clock_act(request: AuthedRequest, event_id: int, number: int, payload: ShotClockIn):
    event_found(event_id)
    actor = Actor.of(request.auth)
    if payload.action == "reset":
        services.shot_clock_reset(event_id=event_id, table_number=number, actor=actor)
    elif payload.action == "expire":
        services.shot_clock_expire(event_id=event_id, table_number=number, actor=actor)
    else:
        seat = payload.seat or 0  # the schema names a seat for these two
        if payload.action == "extend":
            services.shot_clock_extend(
                event_id=event_id, table_number=number, seat=seat, actor=actor
            )
        else:
            services.shot_clock_start(
                event_id=event_id,
                table_number=number,
                seat=seat,
                street=payload.street,
                facing=payload.facing,
                floor=payload.floor,
                actor=actor,
            )
    return _json(_state(event_id, number))
