"""The first lock of every bust-out, undo and hand-for-hand change: the event's.

The named lock of `tdsystem.core.locking`, the same seating takes (`seatmap.event_lock`),
so one event's seating and results change one at a time; the event's row is read after
it. Rows are then locked tables first, then entries, each in primary-key order.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tdsystem.core.locking import locks_take
from tdsystem.events.models import Event

from ..errors import ResultsError


def event_lock(event_id: int) -> Event:
    locks_take(event=event_id)
    event = Event.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise ResultsError(gettext("no event %(id)s") % {"id": event_id}, field="event")
    return event
