"""Public seating pages: the seat lookup, its QR poster, the table draw screen, seats JSON."""

from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from tdsystem.core.forms import whole_number
from tdsystem.core.languages import screen_language
from tdsystem.core.network import is_loopback_url, public_url
from tdsystem.events.models import Event
from tdsystem.events.selectors import screen_cached

from . import lookup, selectors, signals
from .forms import ENTRY_MAX
from .models import Entry

DRAW_PAGE_SECONDS = 10


@require_safe
def seat_lookup(request: HttpRequest, event_id: int) -> HttpResponse:
    """Search by name or entry number; a single match (or a tapped one) shows in full.
    The seats are read fresh on every request (lookup: plain statements, as fifty phones
    a second ask after a table break); the event's name and language from the screens'
    cache, as every phone of the room asks for the same event."""
    event = public_event(event_id)
    screen_language(request, event.screen_language)
    query = request.GET.get("q", "")[:80]
    chosen = request.GET.get("entry", "")
    number = whole_number(chosen, high=ENTRY_MAX)
    if number is not None:
        entry = lookup.entry_by_number(event.pk, number)
        results = [entry] if entry else []
    else:
        results = lookup.seat_search(event.pk, query) if query else []
    shown = results[0] if len(results) == 1 else None
    moves = lookup.moves_of(shown.pk) if shown else []
    # Where a player out finished is results' to say (one read, for the one shown).
    out = shown is not None and shown.status == Entry.Status.BUSTED
    place = signals.places_of(event, [shown.pk]).get(shown.pk) if shown and out else None
    context = {
        "event": event,
        # Its own address, reversed once: the page names it up to forty times.
        "lookup_url": reverse("seating:lookup", args=[event.pk]),
        "q": query,
        "results": results,
        "shown": shown,
        "moves": moves,
        "place": place,
    }
    template = "seating/lookup.html#results" if request.htmx else "seating/lookup.html"
    return render(request, template, context)


def public_event(event_id: int) -> Event:
    """The event as the public pages show it, at most SCREEN_CACHE_SECONDS old; 404."""
    try:
        return screen_cached(("event",), lambda: Event.objects.get(pk=event_id), event=event_id)
    except Event.DoesNotExist:
        raise Http404 from None


def qr_svg(data: str) -> str:
    """An inline SVG QR code (no image files, no outside service)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return image.to_string(encoding="unicode")


@require_safe
def seat_poster(request: HttpRequest, event_id: int) -> HttpResponse:
    """A page to print and stick on the wall: scan to find your seat."""
    event = get_object_or_404(Event, pk=event_id)
    screen_language(request, event.screen_language)
    return poster_page(request, event, reverse("seating:lookup", args=[event.pk]))


def poster_page(request: HttpRequest, event, path: str) -> HttpResponse:
    """The poster of the seat lookup at `path`, with its QR code. The public address, not
    the request's: printed from the laptop, it must reach the phones."""
    url = public_url(path)
    context = {
        "event": event,
        "url": url,
        "qr": mark_safe(qr_svg(url)),
        "local_only": is_loopback_url(url),
    }
    return render(request, "seating/poster.html", context)


@require_safe
def draw_screen(request: HttpRequest, event_id: int) -> HttpResponse:
    """The table draw for venue TVs: every player A to Z, paging by itself."""
    event = get_object_or_404(Event, pk=event_id)
    screen_language(request, event.screen_language)
    try:
        seconds = max(3, min(60, int(request.GET.get("seconds", DRAW_PAGE_SECONDS))))
    except ValueError:
        seconds = DRAW_PAGE_SECONDS
    lookup = public_url(reverse("seating:lookup", args=[event.pk]))
    context = {
        "event": event,
        "rows": selectors.seats_now(event.pk),
        "seconds": seconds,
        "lookup_url": lookup.removeprefix("http://"),  # shorter to read off a TV and type
    }
    return render(request, "seating/draw_screen.html", context)
