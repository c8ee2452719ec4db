"""Player-facing seat pages and the seats JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tdsystem.events.models import Event

from . import selectors


@require_GET
def seat_lookup(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    query = request.GET.get("q", "")[:80]
    results = selectors.seat_search(event.pk, query) if query else []
    template = "seating/lookup.html#results" if request.htmx else "seating/lookup.html"
    return render(request, template, {"event": event, "q": query, "results": results})


@require_GET
def api_seats(request: HttpRequest, event_id: int) -> JsonResponse:
    if not Event.objects.filter(pk=event_id).exists():
        return JsonResponse({"error": f"no event {event_id}"}, status=404)
    return JsonResponse(selectors.seat_list(event_id), safe=False)
