"""The flights page of a festival event: its flights, a flight added, the Day 2 preview
and the combination (docs/festivals.md). The event's console loads its panel."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.forms import TextField
from tdsystem.core.moments import MomentField
from tdsystem.events.models import Event

from . import services
from .selectors_flights import day2_preview
from .services.flights import FLIGHT_NAME_MAX
from .views_console import CHANGED, attempt, event_or_404

PAGE = "seating/flights.html"
PARTS = ("panel", "flights", "day2")


class FlightForm(forms.Form):
    name = TextField(
        label=gettext_lazy("Flight"),
        max_length=FLIGHT_NAME_MAX,
        widget=forms.TextInput(attrs={"placeholder": "1A", "size": 6}),
    )
    scheduled_start = MomentField(label=gettext_lazy("Start"), required=False)


class CombineForm(forms.Form):
    confirm = forms.BooleanField(
        label=gettext_lazy("The bags are counted and checked: draw the Day 2 seats now")
    )
    # Ticked beside the flights whose bags do not add up to their chips in play.
    confirm_differences = forms.BooleanField(required=False)


def _context(request, event, **extra) -> dict:
    return {
        "event": event,
        "preview": day2_preview(event),
        "flight_form": extra.pop("flight_form", None) or FlightForm(),
        "may_manage": has_right(request.user, "events", event=event.pk),
        **extra,
    }


def _render(request, event, part: str | None, status: int = 200, **extra) -> HttpResponse:
    template = f"{PAGE}#{part}" if request.htmx and part in PARTS else PAGE
    return render(request, template, _context(request, event, **extra), status=status)


def console_panel(event: Event, request: HttpRequest) -> str:
    """The flights' summary on their main event's console (events' hook), rendered in."""
    if event.parent_id or not event.flights.exists():
        return ""
    return render_to_string(f"{PAGE}#panel", _context(request, event), request)


@require_GET
@staff_required("console")
def flights_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    if event.is_flight:
        return redirect("seating:flights", event.parent_id)
    return _render(request, event, request.GET.get("part"))


def _answer(request, event, part: str, error: str | None, message: str | None, **extra):
    if not request.htmx:
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("seating:flights", event.pk)
    response = _render(request, event, part, error=error, message=message, **extra)
    return response if error else trigger_client_event(response, CHANGED)


@require_POST
@staff_required("events")
def flight_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = FlightForm(request.POST)
    if not form.is_valid():
        # The form again, each message beside its field and what was typed kept.
        return _render(request, event, "flights", status=400, flight_form=form)
    error, message = attempt(
        lambda: services.flight_add(
            event_id=event.pk, actor=Actor.of(request.user), **form.cleaned_data
        ),
        lambda flight: _("Flight %(flight)s added") % {"flight": flight.flight},
    )
    return _answer(request, event, "flights", error, message, flight_form=form if error else None)


@require_POST
@staff_required("events")
def day2_combine(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = CombineForm(request.POST)
    if not form.is_valid():
        error = _("tick the box to confirm: the seats are drawn at once")
        return _answer(request, event, "day2", error, None)
    error, message = attempt(
        lambda: services.day2_combine(
            event_id=event.pk,
            actor=Actor.of(request.user),
            confirm_differences=form.cleaned_data["confirm_differences"],
        ),
        _combined,
    )
    event.refresh_from_db()
    return _answer(request, event, "day2", error, message)


def _combined(done: services.Combined) -> str:
    return ngettext(
        "Day 2: %(players)s players drawn at %(tables)s table",
        "Day 2: %(players)s players drawn at %(tables)s tables",
        len(done.tables),
    ) % {"players": done.players, "tables": len(done.tables)}
