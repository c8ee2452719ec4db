"""Where a table device (a tablet fixed to a venue table) lands after logging in."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tdsystem.core.access import staff_required

from .models import EventTable, TableDevice


@never_cache
@require_GET
@staff_required("table")
def device_home(request: HttpRequest) -> HttpResponse:
    """The device's table in the event playing there now; a waiting page until one does.

    Staff who are not a table device go to the console.
    """
    device = TableDevice.objects.filter(user=request.user).select_related("venue_table").first()
    if device is None:
        return redirect("console:home")
    table = (
        EventTable.objects.filter(venue_table=device.venue_table, in_play=True)
        .order_by("-event__created_at", "-pk")
        .first()
    )
    if table is not None:
        return redirect("results:table", event_id=table.event_id, number=table.number)
    return render(request, "seating/device_home.html", {"venue_table": device.venue_table})
