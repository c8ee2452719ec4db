"""The shot clock's pages: the panel on each table's page (the clock face and the dealer's
buttons), the floor's list of tables whose clock ran out, and an event's log.

The panel is rendered into the table page (results' hook) and answers its own buttons with
itself (HTMX); without scripts a button posts and comes back to the table page.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text
from tdsystem.events.models import Event
from tdsystem.seating.table_access import table_access

from . import selectors, services
from .errors import ShotClockRefused
from .forms import SeatForm, StartForm
from .models import Facing, Street

PANEL = "shotclock/panel.html"
LOG_ROWS = 200


def _context(request: HttpRequest, state: selectors.TableState, error=None, message=None):
    clock = state.clock
    return {
        "state": state,
        "error": error,
        "message": message,
        "streets": Street.choices,
        "facings": Facing.choices,
        # The last start's street and facing, offered again for the next player.
        "street": clock.street if clock else Street.PREFLOP,
        "facing": clock.facing if clock else Facing.BET,
        "can_log": has_right(request.user, "console", event=state.event.pk),
    }


def _panel(request: HttpRequest, event: Event, number: int, error=None, message=None):
    state = selectors.table_state(event, number)
    if state is None:
        raise Http404
    part = "face" if request.GET.get("part") == "face" else "panel"
    # A refusal answers 200 with its message in the panel: htmx swaps no 4xx, and the
    # service changed nothing.
    return render(request, f"{PANEL}#{part}", _context(request, state, error, message))


def table_panel(event: Event, number: int, request: HttpRequest) -> str:
    """Results' table page hook: the clock's panel on every table's page, rendered into it."""
    state = selectors.table_state(event, number)
    if state is None:
        return ""
    return render_to_string(f"{PANEL}#panel", _context(request, state), request)


@require_GET
@table_access
def panel(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _panel(request, event, number)


def _start(request, event, number, actor):
    form = StartForm(request.POST)
    if not form.is_valid():
        raise ShotClockRefused(form_errors_text(form))
    data = form.cleaned_data
    services.shot_clock_start(
        event_id=event.pk,
        table_number=number,
        seat=data["seat"],
        street=data["street"],
        facing=data["facing"],
        floor=data["floor"],
        actor=actor,
    )
    return _("Clock on seat %(seat)s.") % {"seat": data["seat"]}


def _extend(request, event, number, actor):
    form = SeatForm(request.POST)
    if not form.is_valid():
        raise ShotClockRefused(form_errors_text(form))
    seat = form.cleaned_data["seat"]
    services.shot_clock_extend(event_id=event.pk, table_number=number, seat=seat, actor=actor)
    return _("Extension for seat %(seat)s.") % {"seat": seat}


def _reset(request, event, number, actor):
    services.shot_clock_reset(event_id=event.pk, table_number=number, actor=actor)
    return None


def _expire(request, event, number, actor):
    services.shot_clock_expire(event_id=event.pk, table_number=number, actor=actor)
    return None


ACTIONS = {"start": _start, "extend": _extend, "reset": _reset, "expire": _expire}


@require_POST
@table_access
def act(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    """One of the dealer's buttons, through its service; the panel again."""
    if action not in ACTIONS:
        raise Http404
    error = message = None
    try:
        message = ACTIONS[action](request, event, number, Actor.of(request.user))
    except ShotClockRefused as exc:
        error = str(exc)
    if not request.htmx:
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("results:table", event.pk, number)
    return _panel(request, event, number, error, message)


@require_GET
@staff_required("console")
def floor_list(request: HttpRequest) -> HttpResponse:
    """The tables whose clock ran out, every event's (the floor plan loads it)."""
    return render(request, "shotclock/floor.html", {"rows": selectors.run_out()})


@require_GET
@staff_required("console")
def event_log(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event's shot clock: the tables run out now, and every call, start, reset,
    extension and expiry (a table's alone with ?table=N)."""
    event = get_object_or_404(Event, pk=event_id)
    table = request.GET.get("table", "")
    number = int(table) if table.isascii() and table.isdigit() and len(table) <= 5 else None
    rows = selectors.calls(event, table=number).select_related("entry")[:LOG_ROWS]
    context = {
        "event": event,
        "rows": rows,
        "table": number,
        "run_out": selectors.run_out(event=event),
        "policy": selectors.policy_text(selectors.policy_of(event)),
    }
    return render(request, "shotclock/log.html", context)
