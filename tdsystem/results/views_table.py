"""The table page: a tablet at the table, or the floor's phone.

It shows the seats, the button and blinds, the move slips into and out of the table,
whether the table is halted until balanced (and why) and, during hand-for-hand, whether
the table may deal. The fragment polls, so a halt shows and lifts without a reload.
"Hand finished" posts here (at a halted table, a confirm step first); a bust-out posts to
the bust-out console's route (`results:bustout`), which answers what it recorded above
the seats and sends `seating-changed`, on which the seats read themselves again (a refusal
answers with this page's fragment).
"Save counts" posts the table's chip counts here, answered by the counts' own fragment
(outside the polling one, so a count being typed is never swept away).
A table device opens only its own table (seating's `table_access`).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tdsystem.core.access import has_right
from tdsystem.core.actors import Actor
from tdsystem.core.forms import form_errors_text
from tdsystem.events.models import Event
from tdsystem.seating import selectors as seating_selectors
from tdsystem.seating.selectors_dayend import bag_rows
from tdsystem.seating.services import TableHalted
from tdsystem.seating.table_access import table_access

from . import hooks, services
from .errors import ResultsError
from .forms import HandFinishedForm
from .forms_chips import TableCountsForm, typed_counts
from .selectors import hand_for_hand
from .selectors_chips import chip_total, count_rows
from .services.chips import chip_counts_record

PAGE = "results/table.html"
CHIPS = "results/_table_chips.html"


def table_render(request, event: Event, number: int, error=None, message=None, **extra):
    """The table page, or its fragment under HTMX (404 for a table the event never had)."""
    card = seating_selectors.table_view(event, number)
    if card is None:
        raise Http404
    can_bust = has_right(request.user, "bustout", event=event.pk)
    hfh = hand_for_hand(event)
    rows = SimpleLazyObject(lambda: bag_rows(event, number))
    # In the last hands of the day a bagged player is through to the next day, not out
    # (the bust-out service refuses it on the same condition): the seat shows the bag.
    bagged = (
        {row.entry.seat: row.bag for row in rows if row.bag}
        if card.table.in_play and card.table.hands_left is not None
        else {}
    )
    seated = sum(1 for row in card.rows if row.entry)
    context = {
        "event": event,
        "card": card,
        "error": error,
        "message": message,
        "can_console": has_right(request.user, "seating", event=event.pk),
        "can_bust": can_bust,
        # One player out on a hand of their own, from the seat's "Out"; several on one
        # hand, or any during hand-for-hand (stacks are needed), in the bust-out console.
        "bust_here": can_bust
        and card.table.in_play
        and not hfh.active
        and event.status != Event.Status.FINISHED,
        "bagged": bagged,
        "all_bagged": seated > 0 and len(bagged) >= seated,
        "hfh": hfh,
        # Read only for the whole page: the polling fragment does not show the counts.
        "chip_rows": SimpleLazyObject(lambda: count_rows(event, table=number)),
        # The end of the day: the bag form, once the table has played its last hand.
        "bag_rows": rows,
        # What the apps above show on the page (the shot clock), rendered into it.
        "panels": [] if request.htmx else hooks.panels(event, number, request),
        **extra,
    }
    return render(request, f"{PAGE}#table" if request.htmx else PAGE, context)


def table_answer(request, event: Event, number: int, error, message) -> HttpResponse:
    """After an action at the table: its fragment (HTMX), or the page with a flash."""
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("results:table", event.pk, number)
    return table_render(request, event, number, error, message)


@require_GET
@table_access
def table_page(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return table_render(request, event, number)


@require_POST
@table_access
def table_hand(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The hand at this table is over: the button and blinds move on (and, during
    hand-for-hand, the table reports the hand)."""
    form = HandFinishedForm(request.POST)
    if not form.is_valid():
        return table_answer(request, event, number, form_errors_text(form), None)
    try:
        report = services.handforhand_hand_finish(
            event_id=event.pk,
            table_number=number,
            expected_hand=form.cleaned_data["hand"],
            confirm_halted=form.cleaned_data["confirm_halted"],
            actor=Actor.of(request.user),
        )
    except ResultsError as exc:
        if isinstance(exc.__cause__, TableHalted):
            # The confirm step: the page again (no redirect), asking whether to deal on.
            return table_render(request, event, number, confirm_halt=True)
        return table_answer(request, event, number, str(exc), None)
    return table_answer(request, event, number, None, _hand_reported(report))


def _hand_reported(report: services.HandReport) -> str:
    table = report.table
    text = _("Hand %(hand)s: button on seat %(seat)s") % {
        "hand": table.hand_number + 1,
        "seat": table.button,
    }
    if table.button is None:  # stud: no button or blinds
        text = _("Hand %(hand)s: deal from seat 1") % {"hand": table.hand_number + 1}
    if report.hand is None:
        return text
    if report.completed:
        return _("Hand-for-hand hand %(hand)s is over everywhere: deal the next hand. %(text)s") % {
            "hand": report.hand,
            "text": text,
        }
    return _("Hand-for-hand hand %(hand)s: wait for table %(tables)s before dealing. %(text)s") % {
        "hand": report.hand,
        "tables": ", ".join(map(str, report.waiting_for)),
        "text": text,
    }


@require_http_methods(["GET", "POST"])
@table_access
def table_chips(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """ "Save counts": every count typed for this table's players, through the one chip
    count service, all or none; the fragment answers with the total check after a save.
    A GET reads the fragment again (players who sat down since)."""
    rows = count_rows(event, table=number)
    if request.method == "GET":
        # After a bust-out here the fragment reads itself again with what was typed in it
        # (hx-include): the player out leaves the list, the others keep their counts.
        context = {"event": event, "number": number, "chip_rows": rows}
        return render(request, CHIPS, context | {"typed": typed_counts(request.GET)})
    form = TableCountsForm(request.POST, rows)
    error = message = total = None
    bad: list[int] = []
    if not form.is_valid():
        error = form_errors_text(form)
        # Every input at fault is marked; the first takes the focus.
        bad = [int(f.removeprefix("count-")) for f in form.errors if f.startswith("count-")]
    else:
        counts = form.cleaned_data["counts"]
        try:
            chip_counts_record(
                event_id=event.pk, counts=counts, actor=Actor.of(request.user), table=number
            )
        except ResultsError as exc:
            error = str(exc)
        else:
            message = ngettext("%(count)s count saved", "%(count)s counts saved", len(counts)) % {
                "count": len(counts)
            }
            rows, total = count_rows(event, table=number), chip_total(event)
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("results:table", event.pk, number)
    typed = {} if message else typed_counts(request.POST)
    context = {"event": event, "number": number, "chip_rows": rows, "typed": typed}
    context |= {"error": error, "message": message, "total": total, "bad": bad}
    return render(request, CHIPS, context)
