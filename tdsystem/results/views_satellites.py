"""A satellite's panel on the bust-out console: its seats, who wins them, the cash place,
and the button that awards the seats once the players left are no more than the seats."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from tdsystem.core.access import staff_required
from tdsystem.core.actors import Actor

from .errors import ResultsError
from .services.satellites import satellite_tickets_issue
from .views import CHANGED, _event

PANEL = "results/_satellite.html"


@require_GET
@staff_required("bustout")
def satellite_panel(request: HttpRequest, event_id: int) -> HttpResponse:
    return render(request, PANEL, {"event": _event(event_id)})


@require_POST
@staff_required("bustout")
def satellite_award(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    error = message = None
    try:
        issued = satellite_tickets_issue(event_id=event.pk, actor=Actor.of(request.user))
    except ResultsError as exc:
        error = str(exc)
    else:
        count = len(issued)
        message = ngettext("%(count)s ticket issued", "%(count)s tickets issued", count) % {
            "count": count
        }
    if not request.htmx:
        (messages.error if error else messages.success)(request, error or message)
        return redirect("results:console", event.pk)
    event.refresh_from_db()
    response = render(request, PANEL, {"event": event, "error": error, "message": message})
    return response if error else trigger_client_event(response, CHANGED)
