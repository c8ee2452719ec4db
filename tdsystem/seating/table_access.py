"""Who may open a table's page or act on its slips: floor staff every table, a table
device only its own. Refusals go to the audit log, as `staff_required`'s do."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tdsystem.core.access import has_right, refusal_record, refuse
from tdsystem.events.models import Event

from .models import TableDevice

RIGHT = "table"


def table_refusal(request: HttpRequest, event: Event, *numbers: int) -> HttpResponse | None:
    """None when the user may act on one of these tables; else the login or the 403.

    The event's seating staff open every table; a table device only the one it is tied to (an untied
    device, none at all).
    """
    user = request.user
    if not user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if has_right(user, "seating", event=event.pk):
        return None
    if has_right(user, RIGHT, event=event.pk):
        device = TableDevice.objects.filter(user=user).select_related("venue_table").first()
        if device is not None and device.venue_table.number in numbers:
            return None
    refusal_record(request, RIGHT, event=event.pk)
    return refuse(request)


def table_access(view: Callable) -> Callable:
    """Decorator of a table page `view(request, event, number, ...)`: the "table" right
    for that table, or any seating staff."""

    @wraps(view)
    def wrapped(request: HttpRequest, event_id: int, number: int, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = get_object_or_404(Event, pk=event_id)
        refused = table_refusal(request, event, number)
        return refused or view(request, event, number, *args, **kwargs)

    wrapped.staff_right = RIGHT  # type: ignore[attr-defined]
    return wrapped
