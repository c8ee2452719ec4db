"""The room's clocks: one TV with the clock of each event in play (a festival's flights and
side events side by side). Each panel counts down from its own event's clock JSON, as the
single clock screen does."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tdsystem.core.languages import screen_language
from tdsystem.events import selectors
from tdsystem.events.models import Clock, Event

MAX_PANELS = 6
# A screen without ?events= looks this often for events started or stopped meanwhile.
FOLLOW_SECONDS = 30


def asked_ids(raw: str) -> list[int]:
    """The ids of `?events=3,5,8` in their order, once each, the first six; anything that
    is not an id is left out (a mistyped address shows the others, never an error)."""
    ids: list[int] = []
    for part in raw.split(","):
        part = part.strip()
        if part.isascii() and part.isdigit() and len(part) < 10 and int(part) not in ids:
            ids.append(int(part))
    return ids[:MAX_PANELS]


def in_play() -> list[Event]:
    """Every running or paused event, the longest running first."""
    playing = Event.objects.filter(
        archived_at__isnull=True, status__in=[Event.Status.RUNNING, Event.Status.PAUSED]
    )
    return list(playing.order_by("scheduled_start", "pk")[:MAX_PANELS])


@never_cache
@require_safe
def clocks_screen(request: HttpRequest) -> HttpResponse:
    ids = asked_ids(request.GET.get("events", ""))
    if ids:
        found = Event.objects.in_bulk(ids)
        events = [found[pk] for pk in ids if pk in found]
    else:
        events = in_play()
    if events:
        screen_language(request, events[0].screen_language)
    panels = []
    for event in events:
        clock = selectors.event_clock_payload(event.pk)
        panels.append(
            {"event": event, "clock": clock, "status_label": Clock.Status(clock["status"]).label}
        )
    context = {
        "panels": panels,
        "follows": not ids,
        "follow_seconds": FOLLOW_SECONDS,
        "time_zone": settings.TIME_ZONE,
    }
    return render(request, "venue/clocks.html", context)
