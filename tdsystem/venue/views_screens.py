"""The room's screens. The venue clock screen (the clock with payouts or the seat draw
beside it), and the room's stable addresses: /clock/, /seats/, /seats/draw/, /schedule/ lead
to the current event's page, so a TV or a bookmark set up once keeps working when next
week's copy is a new event; /seats/poster/ is the poster to print once for every week."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tdsystem.core.languages import screen_language
from tdsystem.events import selectors
from tdsystem.events.models import Clock, Event
from tdsystem.events.selectors_life import current_event_id
from tdsystem.seating.selectors import seat_list
from tdsystem.seating.views import poster_page

from .screen import layout_of


@require_safe
def clock_screen(request: HttpRequest, event_id: int) -> HttpResponse:
    """The venue TV: `?layout=clock` (default), `payouts` or `draw` beside the clock."""
    event = get_object_or_404(Event.objects.select_related("clock"), pk=event_id)
    screen_language(request, event.screen_language)
    clock = selectors.event_clock_payload(event.pk)
    layout = layout_of(request.GET.get("layout"))
    context = {
        "event": event,
        "clock": clock,
        "layout": layout,
        "status_label": Clock.Status(clock["status"]).label,
        "time_zone": settings.TIME_ZONE,
        "seats": seat_list(event.pk) if layout == "draw" else [],
    }
    return render(request, "events/clock_screen.html", context)


# The stable address's name -> (the event page's URL name, whether the screen follows the
# next event by itself). A TV follows; a phone's lookup and a printed schedule do not.
PAGES = {
    "clock": ("clock_screen", True),
    "draw": ("seating:draw_screen", True),
    "seats": ("seating:lookup", False),
    "schedule": ("schedule", False),
    "chips": ("chips_screen", True),
}
NO_EVENT_RELOAD_SECONDS = 30


@never_cache
@require_safe
def current(request: HttpRequest, page: str) -> HttpResponse:
    """302 to the current event's page, keeping the query (`?layout=draw`)."""
    event_id = current_event_id()
    if event_id is None:
        context = {"reload": NO_EVENT_RELOAD_SECONDS}
        return render(request, "events/no_event.html", context)
    name, follows = PAGES[page]
    query = request.GET.copy()
    if follows:
        query["follow"] = "1"
    url = reverse(name, args=[event_id])
    return redirect(f"{url}?{query.urlencode()}" if query else url)


@require_safe
def poster(request: HttpRequest) -> HttpResponse:
    """The seat lookup's poster with the stable /seats/ address: printed once, it leads
    to whichever event is on, week after week (the event's own poster names its lookup)."""
    room = {"name": _("Every tournament in this room")}
    return poster_page(request, room, reverse("screen_seats"))
