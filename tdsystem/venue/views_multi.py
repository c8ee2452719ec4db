"""The room's clocks: one TV with the clock of each event in play (a festival's flights and
side events side by side). Each panel counts down from its own event's clock JSON, as the
single clock screen does."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tdsystem.core.languages import screen_language
from tdsystem.events import selectors
from tdsystem.events.models import Clock, Event

MAX_PANELS = 6
# A finished event keeps its panel this long on a screen that follows the room, showing
# its winner, so the room sees who won before the panel gives its place to the others.
FINAL_SECONDS = 20 * 60
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


def in_play(now: datetime) -> list[Event]:
    """Every running or paused event, the longest running first, and those finished in the
    last FINAL_SECONDS (their winner's screen) after them."""
    shown = Event.objects.filter(archived_at__isnull=True).select_related("clock")
    playing = shown.filter(status__in=[Event.Status.RUNNING, Event.Status.PAUSED])
    ended = shown.filter(
        status=Event.Status.FINISHED,
        clock__status=Clock.Status.FINISHED,
        clock__updated_at__gte=now - timedelta(seconds=FINAL_SECONDS),
    )
    events = list(playing.order_by("scheduled_start", "pk")[:MAX_PANELS])
    return events + list(ended.order_by("clock__updated_at", "pk")[: MAX_PANELS - len(events)])


def shown_until(event: Event) -> int | None:
    """When a finished event's panel gives its place (epoch ms), None for one in play."""
    if event.status != Event.Status.FINISHED:
        return None
    return int((event.clock.updated_at.timestamp() + FINAL_SECONDS) * 1000)


@never_cache
@require_safe
def clocks_screen(request: HttpRequest) -> HttpResponse:
    ids = asked_ids(request.GET.get("events", ""))
    now = timezone.now()
    if ids:
        found = Event.objects.select_related("clock").in_bulk(ids)
        events = [found[pk] for pk in ids if pk in found]
    else:
        events = in_play(now)
    if events:
        screen_language(request, events[0].screen_language)
    panels = []
    for event in events:
        clock = selectors.event_clock_payload(event.pk)
        panels.append(
            {
                "event": event,
                "clock": clock,
                "status_label": Clock.Status(clock["status"]).label,
                "until": shown_until(event) if not ids else None,
            }
        )
    context = {
        "panels": panels,
        "follows": not ids,
        "follow_seconds": FOLLOW_SECONDS,
        "time_zone": settings.TIME_ZONE,
    }
    return render(request, "venue/clocks.html", context)
