"""The floor plan: which event holds which of the room's tables, and free tables given to
an event (through seating's own table setup, as the seating console does)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.seating import services as seating
from tdsystem.seating.errors import SeatingError

from .forms_floor import FloorGiveForm
from .selectors_floor import OPEN, FloorPlan, Tile, floor_plan

PAGE = "venue/floor.html"
POLL_SECONDS = 12


def tile_rows(plan: FloorPlan) -> list[tuple[Tile, str]]:
    """Each tile with its second line ("7 / 9 seated", "9 seats"), each wording translated
    once: a room of 600 tables has a few dozen, and the page renders in a blink."""
    said: dict[tuple[bool, int, int], str] = {}
    rows = []
    for tile in plan.tiles:
        key = (tile.free, tile.players, tile.seats)
        if key not in said:
            said[key] = (
                ngettext("%(n)s seat", "%(n)s seats", tile.seats) % {"n": tile.seats}
                if tile.free
                else _("%(n)s / %(seats)s seated") % {"n": tile.players, "seats": tile.seats}
            )
        rows.append((tile, said[key]))
    return rows


def _render(request: HttpRequest, **extra) -> HttpResponse:
    plan = floor_plan()
    context = {
        "plan": plan,
        "rows": tile_rows(plan),
        "may_give": has_right(request.user, "seating"),
        "poll": POLL_SECONDS,
        **extra,
    }
    if not request.htmx:
        context["events"] = Event.objects.filter(OPEN).order_by("scheduled_start", "pk")
    return render(request, f"{PAGE}#floor" if request.htmx else PAGE, context)


@require_GET
@staff_required("console")
def floor(request: HttpRequest) -> HttpResponse:
    return _render(request)


@require_POST
@staff_required("seating")
def floor_give(request: HttpRequest) -> HttpResponse:
    form = FloorGiveForm(request.POST)
    error: str | None = None
    message: str | None = None
    if not form.is_valid():
        error = str(next(iter(form.errors.values()))[0])  # the field's own sentence
    else:
        event, numbers = form.cleaned_data["event"], form.cleaned_data["numbers"]
        try:
            seats = seating.tables_seats(event)
            seating.tables_setup(
                event=event, numbers=numbers, seats=seats, actor=Actor.of(request.user)
            )
            message = _("Tables %(numbers)s given to %(event)s") % {
                "numbers": ", ".join(map(str, numbers)),
                "event": event.name,
            }
        except SeatingError as exc:
            error = str(exc)
    if request.htmx:
        return _render(request, error=error, message=message)
    (messages.error if error else messages.success)(request, error or message)
    return redirect("console:floor")
