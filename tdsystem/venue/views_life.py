"""Console pages for an event's life: the event list, copy, archive, delete."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tdsystem.core.access import DIRECTOR, has_right, role_may, staff_event_roles, staff_required
from tdsystem.core.actors import Actor
from tdsystem.core.backup import backup_status
from tdsystem.core.locking import Busy
from tdsystem.events import selectors_life
from tdsystem.events.forms import EventCopyForm
from tdsystem.events.models import Event
from tdsystem.seating.errors import SeatingError

from . import life, selectors


@require_GET
@staff_required("console")
def console_home(request: HttpRequest) -> HttpResponse:
    show = request.GET.get("show", "current")
    if show not in selectors_life.FILTER_KEYS:
        show = "current"
    # The events the user is staff of (every event for a superuser), each with its role.
    roles = staff_event_roles(request.user)
    events = list(selectors_life.console_events(show, roles))
    for event in events:
        event.may_delete = selectors_life.may_delete(event)
        role = DIRECTOR if roles is None else roles.get(event.parent_id or event.pk)
        event.may_manage = role_may(role, "events")
    context = {
        "events": events,
        "show": show,
        "tabs": selectors_life.console_tabs(show, roles),
        "may_manage": has_right(request.user, "events"),
        "activity": selectors_life.activity_recent(),
        "backup": backup_status(),
    }
    return render(request, "events/console_home.html", context)


def _numbers_text(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


@staff_required("events")
def event_copy(request: HttpRequest, event_id: int) -> HttpResponse:
    source = get_object_or_404(Event, pk=event_id)
    tables = selectors.copy_tables(source)
    initial = {
        "name": _("%(name)s (copy)") % {"name": source.name[:112]},
        "numbers": _numbers_text(tables.numbers),
        "seats": tables.seats,
    }
    form = EventCopyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = life.event_copy(
                source_id=source.pk,
                name=data["name"],
                numbers=data["numbers"],
                seats=data["seats"],
                scheduled_start=data["scheduled_start"],
                actor=Actor.of(request.user),
            )
        except SeatingError as exc:
            form.add_error("numbers" if exc.field == "numbers" else None, str(exc))
        except (life.EventError, Busy) as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Created %(name)s") % {"name": event.name})
            return redirect("console:event", event.pk)
    context = {"source": source, "form": form, "tables": tables}
    return render(request, "events/event_copy.html", context, status=400 if form.errors else 200)


@staff_required("events")
def event_delete(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("clock"), pk=event_id)
    if request.method == "POST":
        try:
            record = life.event_delete(event_id=event.pk, actor=Actor.of(request.user))
        except (life.EventError, Busy) as exc:
            messages.error(request, str(exc))
            return redirect("console:event_delete", event.pk)
        messages.success(request, _("Deleted %(name)s") % {"name": record["name"]})
        return redirect("console:home")
    preview = selectors.deletion_preview(event)
    return render(request, "events/event_delete.html", {"event": event, "preview": preview})


@require_POST
@staff_required("events")
def event_archive(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    undo = request.POST.get("undo") == "1"
    service = life.event_unarchive if undo else life.event_archive
    try:
        service(event_id=event.pk, actor=Actor.of(request.user))
    except (life.EventError, Busy) as exc:
        messages.error(request, str(exc))
    else:
        done = _("%(name)s is back in the list") if undo else _("Archived %(name)s")
        messages.success(request, done % {"name": event.name})
    return redirect(f"{reverse('console:home')}?show={'current' if undo else 'archived'}")
