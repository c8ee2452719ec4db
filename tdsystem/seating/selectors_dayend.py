"""Read models of the end of a day (WSOP R125): the last hands, the bags, the report."""

from __future__ import annotations

from tdsystem.events.models import Event

from .models import DayEnd


def last_hands_on(event: Event) -> bool:
    """True from the start of the day's last hands until the next day's draw: no late
    registration, no redraw, no balancing (R125). One query."""
    return DayEnd.objects.filter(event_id=event.pk, day=event.day).exists()
