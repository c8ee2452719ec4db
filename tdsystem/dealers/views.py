"""The dealers' pages: the console's (roster, clock in and out, push, the rules, what goes
where next), the board for the dealers' room TV, a dealer's own phone page by their
secret link, and the hours for the payroll (CSV)."""

from __future__ import annotations

import io

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core import csv
from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.languages import screen_language
from tdsystem.events.models import Event

from . import selectors, services
from .errors import DealerError
from .forms import ClockInForm, DealerForm, RotationForm
from .models import Dealer, Rotation, Shift

BOARD_SECONDS = 15
PHONE_SECONDS = 30


def _event(event_id: int) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _console(request, event, *, add_form=None, rules_form=None, status=200) -> HttpResponse:
    now = timezone.now()
    board = selectors.board(event, now)
    row = board.rotation or Rotation(down_minutes=30, break_every=3, break_minutes=30)
    here = {r.dealer_id for r in board.rows}
    elsewhere = dict(
        Shift.objects.filter(clock_out__isnull=True)
        .exclude(event=event)
        .values_list("dealer_id", "event__name")
    )
    roster = [
        {"dealer": d, "here": d.pk in here, "elsewhere": elsewhere.get(d.pk)}
        for d in Dealer.objects.all()
    ]
    context = {
        "event": event,
        "board": board,
        "roster": roster,
        "add_form": add_form or DealerForm(),
        "rules_form": rules_form
        or RotationForm(
            initial={
                "down_minutes": row.down_minutes,
                "break_every": row.break_every,
                "break_minutes": row.break_minutes,
                "automatic": row.automatic,
                "keep_final_table": row.keep_final_table,
            }
        ),
    }
    return render(request, "dealers/console.html", context, status=status)


@require_GET
@staff_required("seating")
def console(request: HttpRequest, event_id: int) -> HttpResponse:
    return _console(request, _event(event_id))


@require_POST
@staff_required("seating")
def dealer_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = DealerForm(request.POST)
    if form.is_valid():
        try:
            dealer = services.dealer_add(**form.cleaned_data, actor=Actor.of(request.user))
        except DealerError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, _("Dealer %(name)s added") % {"name": dealer.name})
            return redirect("dealers:console", event.pk)
    return _console(request, event, add_form=form, status=400)


def _act(request: HttpRequest, event: Event, action, done: str) -> HttpResponse:
    try:
        action()
    except DealerError as exc:
        messages.error(request, str(exc))
        return _console(request, event, status=400)
    messages.success(request, done)
    return redirect("dealers:console", event.pk)


@require_POST
@staff_required("seating")
def clock_in(request: HttpRequest, event_id: int, dealer_id: int) -> HttpResponse:
    event, actor = _event(event_id), Actor.of(request.user)
    return _act(
        request,
        event,
        lambda: services.dealer_clock_in(event_id=event.pk, dealer_id=dealer_id, actor=actor),
        _("Clocked in"),
    )


@require_POST
@staff_required("seating")
def clock_out(request: HttpRequest, event_id: int, dealer_id: int) -> HttpResponse:
    event, actor = _event(event_id), Actor.of(request.user)
    return _act(
        request,
        event,
        lambda: services.dealer_clock_out(event_id=event.pk, dealer_id=dealer_id, actor=actor),
        _("Clocked out"),
    )


@require_POST
@staff_required("seating")
def push(request: HttpRequest, event_id: int) -> HttpResponse:
    event, actor = _event(event_id), Actor.of(request.user)
    return _act(
        request,
        event,
        lambda: services.rotation_push(event_id=event.pk, actor=actor),
        _("Dealers pushed"),
    )


@require_POST
@staff_required("events")
def settings_save(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    form = RotationForm(request.POST)
    if not form.is_valid():
        return _console(request, event, rules_form=form, status=400)
    services.rotation_settings(event_id=event.pk, **form.cleaned_data, actor=Actor.of(request.user))
    messages.success(request, _("The rotation's rules are saved"))
    return redirect("dealers:console", event.pk)


@require_GET
@staff_required("seating")
def hours_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    out = io.StringIO()
    writer = csv.writer(out)
    if request.GET.get("by") == "dealer":
        writer.writerow(["dealer", "shifts", "hours", "downs", "breaks"])
        for total in selectors.hours_by_dealer(event, timezone.now()):
            writer.writerow([total.dealer, total.shifts, total.hours, total.downs, total.breaks])
        return _csv(out, f"dealer-hours-{event.pk}-by-dealer.csv")
    writer.writerow(["dealer", "clock_in", "clock_out", "hours", "downs", "breaks"])
    for row in selectors.hours(event, timezone.now()):
        writer.writerow(
            [
                row.dealer,
                timezone.localtime(row.clock_in).isoformat(timespec="minutes"),
                timezone.localtime(row.clock_out).isoformat(timespec="minutes")
                if row.clock_out
                else "",
                row.hours,
                row.downs,
                row.breaks,
            ]
        )
    return _csv(out, f"dealer-hours-{event.pk}.csv")


def _csv(out: io.StringIO, name: str) -> HttpResponse:
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_GET
def board(request: HttpRequest, event_id: int) -> HttpResponse:
    """The dealers' room TV: who goes where at the next push, and when."""
    event = _event(event_id)
    screen_language(request, event.screen_language)
    context = {
        "event": event,
        "board": selectors.board(event, timezone.now()),
        "seconds": BOARD_SECONDS,
    }
    page = "dealers/board.html"
    return render(request, f"{page}#board" if request.htmx else page, context)


def _dealer(token: str) -> Dealer:
    dealer = Dealer.objects.filter(token=token).first() if len(token) <= 64 else None
    if dealer is None:
        raise Http404
    return dealer


def _open_events():
    """The events a dealer may clock in to from their phone: those running a rotation."""
    return Event.objects.filter(dealer_rotation__isnull=False).exclude(status=Event.Status.FINISHED)


def _phone(request: HttpRequest, dealer: Dealer, status: int = 200) -> HttpResponse:
    plan = selectors.dealer_plan(dealer.pk, timezone.now())
    events = _open_events()
    context = {"dealer": dealer, "plan": plan, "events": events, "seconds": PHONE_SECONDS}
    return render(request, "dealers/phone.html", context, status=status)


@require_GET
def phone(request: HttpRequest, dealer_token: str) -> HttpResponse:
    """A dealer's own page: "next: table 12 at 14:20, break at 15:00"."""
    return _phone(request, _dealer(dealer_token))


@require_POST
def phone_clock(request: HttpRequest, dealer_token: str) -> HttpResponse:
    """Clock in (to the event chosen) or out, from the dealer's own page."""
    dealer = _dealer(dealer_token)
    actor = Actor(label=dealer.name)
    try:
        shift = Shift.objects.filter(dealer=dealer, clock_out__isnull=True).first()
        if shift is not None:
            services.dealer_clock_out(event_id=shift.event_id, dealer_id=dealer.pk, actor=actor)
        else:
            form = ClockInForm(request.POST)
            chosen = form.cleaned_data["event"] if form.is_valid() else None
            if not _open_events().filter(pk=chosen).exists():
                raise DealerError(_("choose the event"))
            services.dealer_clock_in(
                event_id=form.cleaned_data["event"], dealer_id=dealer.pk, actor=actor
            )
    except DealerError as exc:
        messages.error(request, str(exc))
        return _phone(request, dealer, status=400)
    return redirect("dealers:phone", dealer.token)
