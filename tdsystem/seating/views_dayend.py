"""The end of a day's pages (WSOP R125): the console's panel (start the last hands, close
the day, correct a bag, draw the next day), a table's bag form and the printable report.

The panel sits on the event's console beside the clock and answers its own fragment; the
bag form sits on the table page once the table has played its last hand.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from tdsystem.core.access import has_right, staff_required
from tdsystem.core.actors import Actor
from tdsystem.events.models import Event

from .errors import SeatingError
from .forms_dayend import BagCorrectForm, CloseForm, TableBagsForm, form_error
from .selectors_dayend import bag_rows, day_end_state, day_report
from .services import dayend
from .table_access import table_access
from .views_console import CHANGED, attempt, event_or_404

PANEL = "seating/dayend_panel.html"
BAGS = "seating/dayend_bags.html"
REPORT = "seating/dayend_report.html"


def _panel(request: HttpRequest, event, error=None, message=None, **extra) -> HttpResponse:
    """The panel's fragment (HTMX), or the event's console with a flash."""
    if not request.htmx and request.method == "POST":
        if error or message:
            (messages.error if error else messages.success)(request, error or message)
        return redirect("console:event", event.pk)
    return render(request, PANEL, _context(event, error, message) | extra)


def _context(event, error=None, message=None) -> dict:
    return {"event": event, "state": day_end_state(event), "error": error, "message": message}


def console_panel(event: Event, request: HttpRequest) -> str:
    """The end of the day on the event's console (events' hook), rendered in where the
    console shows it, for the staff who may run it (as its view)."""
    if not has_right(request.user, "seating", event=event.pk):
        return ""
    return render_to_string(PANEL, _context(event), request)


@require_GET
@staff_required("seating")
def panel(request: HttpRequest, event_id: int) -> HttpResponse:
    return _panel(request, event_or_404(event_id))


@require_POST
@staff_required("seating")
def start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error, message = attempt(
        lambda: dayend.day_end_start(event_id=event.pk, actor=Actor.of(request.user)),
        lambda row: (
            ngettext(
                "The last %(count)s hand of the day",
                "The last %(count)s hands of the day",
                row.hands,
            )
            % {"count": row.hands}
            if row.hands
            else _("The day is over: every table bags its chips")
        ),
    )
    return _panel(request, event, error, message)


@require_POST
@staff_required("seating")
def close(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error = message = differ = None
    try:
        row = dayend.day_end_close(
            event_id=event.pk,
            actor=Actor.of(request.user),
            confirm_difference=CloseForm(request.POST).difference(),
        )
    except dayend.BagsDiffer as exc:
        error, differ = str(exc), exc
    except SeatingError as exc:
        error = str(exc)
    else:
        message = _("Day %(day)s closed: the clock is stopped for the night") % {"day": row.day}
    return _panel(request, event, error, message, differ=differ)


@require_POST
@staff_required("seating")
def next_day(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    error, message = attempt(
        lambda: dayend.day_next_draw(event_id=event.pk, actor=Actor.of(request.user)),
        lambda seated: _("The next day is drawn: %(count)s players seated") % {"count": seated},
    )
    return _panel(request, event_or_404(event_id), error, message)


@require_POST
@staff_required("seating")
def bag_correct(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    form = BagCorrectForm(request.POST)
    if not form.is_valid():
        return _panel(request, event, form_error(form), None, correct_form=form)
    error, message = attempt(
        lambda: dayend.bag_correct(
            event_id=event.pk, actor=Actor.of(request.user), **form.cleaned_data
        ),
        lambda bag: _("Bag of #%(entry)s corrected") % {"entry": bag.entry.number},
    )
    return _panel(request, event, error, message, correct_form=form if error else None)


@require_http_methods(["GET", "POST"])
@table_access
def table_bags(request: HttpRequest, event, number: int) -> HttpResponse:
    """ "Save the bags": every player at the table at once, all or none."""
    rows = bag_rows(event, number)
    if request.method == "GET":
        return render(request, BAGS, {"event": event, "number": number, "bag_rows": rows})
    form = TableBagsForm(request.POST, [row.entry for row in rows if row.bag is None])
    error = message = None
    if not form.is_valid():
        error = form_error(form)
    else:
        error, message = attempt(
            lambda: dayend.bags_record(
                event_id=event.pk,
                table_number=number,
                bags=form.cleaned_data["bags"],
                actor=Actor.of(request.user),
            ),
            lambda bags: (
                ngettext("%(count)s bag saved", "%(count)s bags saved", len(bags))
                % {"count": len(bags)}
            ),
        )
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("results:table", event.pk, number)
    if message:
        shown: list = bag_rows(event, number)
    else:  # what was typed, shown again beside the refusal
        shown = [_typed(row, request.POST) for row in rows]
    context = {"event": event, "number": number, "bag_rows": shown}
    response = render(request, BAGS, context | {"error": error, "message": message})
    if message:
        # The table page's seats read again: a bagged seat shows its bag, not "Out".
        trigger_client_event(response, CHANGED, after="settle")
    return response


def _typed(row, data) -> dict:
    seat = row.entry.seat
    typed = {"chips": data.get(f"chips-{seat}", ""), "number": data.get(f"bag-{seat}", "")}
    return {"entry": row.entry, "bag": row.bag, **typed}


@require_GET
@staff_required("seating")
def report(request: HttpRequest, event_id: int) -> HttpResponse:
    """The end-of-day report to print: bags by chips and by table, the chips check."""
    event = event_or_404(event_id)
    return render(request, REPORT, {"event": event, "report": day_report(event)})
