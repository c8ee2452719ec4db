"""The floor plan: the room's tables and the event holding each (staff)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Field, Router

from tdsystem.venue.selectors_floor import floor_plan

from .auth import StaffToken
from .schemas import Error, Out

router = Router(tags=["Seating"], exclude_unset=True)


class FloorEvent(Out):
    id: int
    name: str
    flight: str = Field(description="The flight's name (1A), empty for an event that is none.")
    status: str = Field(description="planned, running or paused.")
    colour: str = Field(description="The floor plan's colour of its tables (#rrggbb).")
    tables: int = Field(description="The venue tables it holds.")
    players: int = Field(description="Its players still in.")


class FloorTable(Out):
    number: int
    seats: int
    event: int | None = Field(description="The id of the event holding it; null when free.")
    players: int = Field(description="Players seated at it.")


class Floor(Out):
    events: list[FloorEvent]
    tables: list[FloorTable]


@router.get(
    "/floor",
    auth=StaffToken("console"),
    response={200: Floor, 401: Error, 403: Error},
    url_name="floor",
    summary="Read the floor plan",
    description="Every venue table in number order with the event holding it (each venue "
    "table belongs to one event at a time), and the events not finished with the tables "
    "and players they have. Staff only: it needs a token, unlike the other reads.",
)
def floor(request: HttpRequest):
    plan = floor_plan()
    return {
        "events": [
            {
                "id": h.id,
                "name": h.name,
                "flight": h.flight,
                "status": h.status,
                "colour": h.colour,
                "tables": h.tables,
                "players": h.players,
            }
            for h in plan.holders
        ],
        "tables": [
            {
                "number": t.number,
                "seats": t.seats,
                "event": t.holder.id if t.holder else None,
                "players": t.players,
            }
            for t in plan.tiles
        ],
    }
