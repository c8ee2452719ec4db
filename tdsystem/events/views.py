"""Pages: the front page, the public schedule, and the director console's event page.

The clock screen page, the room's stable addresses and the event's life (list, copy,
archive, delete) span the apps: they are tdsystem/venue's."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST, require_safe

from tdsystem.core.access import has_right, refusal_record, staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.languages import screen_language
from tdsystem.core.network import public_url
from tdsystem.core.servertime import server_now
from tdsystem.engine.clock import ClockError
from tdsystem.structures.services import StructureError

from . import hooks, rules, selectors, selectors_life, services
from .clock_forms import ClockActionForm
from .forms import EventForm
from .models import Event
from .views_staff import staff_context

PAUSE_RIGHTS = {"pause", "resume"}


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front page: the events not finished yet, with their public screens."""
    events = Event.objects.exclude(status=Event.Status.FINISHED).order_by("-created_at")[:50]
    return render(request, "core/home.html", {"events": events})


@require_safe
def schedule(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("clock", "house_rules"), pk=event_id)
    screen_language(request, event.screen_language)
    rows = selectors.schedule(event)
    starts = selectors.projected_starts(event, event.clock, rows, server_now())
    return render(
        request,
        "events/schedule.html",
        {
            "event": event,
            "rows": list(zip(rows, starts, strict=True)),
            "current": event.clock.level_index if event.clock.status != "not-started" else None,
            "rule_set_label": rules.set_label(event.rule_set, event.house_rules),
        },
    )


def _console_context(event: Event) -> dict:
    return {
        "event": event,
        "clock": selectors.event_clock_payload(event.pk),
        "log": event.log.select_related("actor")[:40],
        "undoable": services.clock_undoable(event),
        # The start button asks first while nobody is seated (one count a poll).
        "start_question": hooks.start_question(event),
    }


@staff_required("events")
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = services.event_create(
            name=form.cleaned_data["name"],
            template=form.cleaned_data["template"],
            actor=Actor.of(request.user),
            **form.event_settings(),
        )
        messages.success(request, gettext("Created %(name)s") % {"name": event.name})
        return redirect("console:event", event.pk)
    return render(
        request, "events/event_new.html", {"form": form}, status=400 if form.errors else 200
    )


@require_GET
@staff_required("console")
def console_event(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("clock", "house_rules"), pk=event_id)
    template = "events/console.html"
    context = _console_context(event)
    context["can_undo"] = _may_undo(request.user, event, context["undoable"])
    if request.htmx and request.GET.get("part") in ("clock-panel", "log"):
        template += "#" + request.GET["part"]
    else:
        # The page's header offers the list's actions, under the list's rules.
        context["may_manage"] = has_right(request.user, "events", event=event.pk)
        context["device_links"] = _device_links(event)
        event.may_delete = selectors_life.may_delete(event)
        context["rules"] = rules.event_summary(event)
        context |= staff_context(request, event)
        # What seating shows around the clock's panel (its flights, its end of the day).
        for place in hooks.CONSOLE_PLACES:
            context[place] = hooks.console_panels_at(place, event, request)
    return render(request, template, context)


def _device_links(event: Event) -> dict[str, list[tuple[str, str]]]:
    """The addresses to type on a TV or send to a phone: the public address (the LAN
    address or PUBLIC_URL), whatever address the director opened the console at. The
    stable ones show whichever event is the room's current one, week after week."""
    clock = reverse("clock_screen", args=[event.pk])
    stable = reverse("screen_clock")
    return {
        "stable": [
            (gettext("Clock"), public_url(stable)),
            (gettext("Clock with payouts"), public_url(stable + "?layout=payouts")),
            (gettext("Clock with the seat draw"), public_url(stable + "?layout=draw")),
            (gettext("Table draw"), public_url(reverse("screen_draw"))),
            (gettext("Seat lookup (phones)"), public_url(reverse("screen_seats"))),
            (gettext("QR poster, printed once"), public_url(reverse("screen_poster"))),
        ],
        "event": [
            (gettext("Clock"), public_url(clock)),
            (gettext("Table draw"), public_url(reverse("seating:draw_screen", args=[event.pk]))),
            (gettext("Seat lookup"), public_url(reverse("seating:lookup", args=[event.pk]))),
            (gettext("QR poster"), public_url(reverse("seating:poster", args=[event.pk]))),
        ],
    }


@require_POST
@staff_required("clock.pause")
def clock_control(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = ClockActionForm(request.POST)
    action = request.POST.get("action", "")
    if action not in PAUSE_RIGHTS and not has_right(request.user, "clock", event=event.pk):
        refusal_record(request, "clock", event=event.pk)
        return HttpResponse(gettext("Only a director may do this."), status=403)
    error, status, ask_empty = None, 200, False
    if not form.is_valid():
        error, status = form.first_error(), 400
    else:
        try:
            services.clock_action(
                event_id=event.pk,
                action=form.cleaned_data["action"],
                seconds=form.cleaned_data["seconds"],
                confirm_empty=form.cleaned_data["confirm_empty"],
                actor=Actor.of(request.user),
            )
        except ClockError as exc:
            error, status = str(exc), 409
            ask_empty = isinstance(exc, services.NobodySeated)
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or gettext("Done"))
        return redirect("console:event", event.pk)
    context = _console_context(event) | {"error": error, "ask_empty": ask_empty}
    if status == 400:
        context["time_left"] = form.data.get("time_left", "")
    response = render(request, "events/console.html#clock-panel", context, status=status)
    if not error:
        response["HX-Trigger"] = "log-changed"
    return response


def _may_undo(user, event: Event, entry) -> bool:
    """A clock action is undone with the clock right; a level edit with the editor's."""
    if entry is not None and entry.action == services.LEVELS_EDIT:
        return has_right(user, "events", event=event.pk)
    return has_right(user, "clock", event=event.pk)


@require_POST
@staff_required("clock")
def clock_undo(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """The director undoes the newest clock action or level edit from the event log."""
    event = get_object_or_404(Event, pk=event_id)
    entry = event.log.filter(pk=entry_id).first()
    if not _may_undo(request.user, event, entry):
        raise PermissionDenied
    error, message = None, None
    try:
        if entry is not None and entry.action == services.LEVELS_EDIT:
            undo = services.event_levels_undo(
                event_id=event.pk, entry_id=entry_id, actor=Actor.of(request.user)
            )
        else:
            undo = services.clock_undo(
                event_id=event.pk, entry_id=entry_id, actor=Actor.of(request.user)
            )
        message = undo.text
    except (ClockError, StructureError) as exc:
        error = str(exc)
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("console:event", event.pk)
    context = _console_context(event)
    context |= {
        "can_undo": _may_undo(request.user, event, context["undoable"]),
        "log_error": error,
        "log_message": message,
    }
    response = render(request, "events/console.html#log", context, status=409 if error else 200)
    if not error:
        response["HX-Trigger"] = "log-changed"
    return response
