"""The staff panel on the console's event page: the event's directors and floor, and a
director's adding and removing of them (`services/staff.py`)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tdsystem.core.access import (
    DIRECTOR,
    SUPERUSER,
    has_right,
    refusal_record,
    refuse,
    staff_required,
)
from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy

from .forms_staff import StaffAddForm
from .models import Event
from .services import (
    ROLE_LABELS,
    StaffError,
    StaffRefused,
    event_staff_add,
    event_staff_remove,
    staff_event,
    staff_rows,
)

PANEL = "events/console.html#staff"


def staff_context(request: HttpRequest, event: Event) -> dict:
    """The panel's rows, each with whether this user may take it off (not the only
    director; a superuser's place only if a superuser), and the form for who may add."""
    may = has_right(request.user, "events", event=event.pk)
    rows = staff_rows(event)
    directors = sum(1 for row in rows if row.role == DIRECTOR)
    return {
        "staff": [
            (
                row,
                may
                and (row.role != DIRECTOR or directors > 1)
                and (not row.superuser or request.user.is_superuser),
            )
            for row in rows
        ],
        "staff_of": staff_event(event),
        "staff_form": StaffAddForm() if may else None,
    }


def _answer(
    request: HttpRequest, event: Event, error: str | None, message: str | None
) -> HttpResponse:
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("console:event", event.pk)
    context = {"event": event, "staff_error": error, "staff_message": message}
    context |= staff_context(request, event)
    return render(request, PANEL, context, status=409 if error else 200)


@require_POST
@staff_required("events")
def staff_add(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = StaffAddForm(request.POST)
    if not form.is_valid():
        return _answer(request, event, form.first_error(), None)
    user, role = form.cleaned_data["user"], form.cleaned_data["role"]
    try:
        event_staff_add(event_id=event.pk, user=user, role=role, actor=Actor.of(request.user))
    except (StaffError, Busy) as exc:
        return _answer(request, event, str(exc), None)
    message = _("%(name)s is on the staff as %(role)s.") % {
        "name": user.get_username(),
        "role": _(ROLE_LABELS[role]),
    }
    return _answer(request, event, None, message)


@require_POST
@staff_required("events")
def staff_remove(request: HttpRequest, event_id: int, user_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    try:
        removed = event_staff_remove(
            event_id=event.pk, user_id=user_id, actor=Actor.of(request.user)
        )
    except StaffRefused:
        refusal_record(request, SUPERUSER, event=event.pk)
        return refuse(request)
    except (StaffError, Busy) as exc:
        return _answer(request, event, str(exc), None)
    message = _("Taken off the staff.") if removed else _("Not on the staff (any more).")
    return _answer(request, event, None, message)
