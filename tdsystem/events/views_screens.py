"""The room's stable addresses: /clock/, /seats/, /seats/draw/, /schedule/ lead to the current
event's page, so a TV or a bookmark set up once keeps working when next week's copy is a
new event; /seats/poster/ is the poster to print once for every week."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .selectors_life import current_event_id

# The stable address's name -> (the event page's URL name, whether the screen follows the
# next event by itself). A TV follows; a phone's lookup and a printed schedule do not.
PAGES = {
    "clock": ("clock_screen", True),
    "draw": ("seating:draw_screen", True),
    "seats": ("seating:lookup", False),
    "schedule": ("schedule", False),
}
NO_EVENT_RELOAD_SECONDS = 30


@never_cache
@require_GET
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


@require_GET
def poster(request: HttpRequest) -> HttpResponse:
    """The seat lookup's poster with the stable /seats/ address: printed once, it leads
    to whichever event is on, week after week (the event's own poster names its lookup)."""
    from tdsystem.seating.views import poster_page

    room = {"name": _("Every tournament in this room")}
    return poster_page(request, room, reverse("screen_seats"))
