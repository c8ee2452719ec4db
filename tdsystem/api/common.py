"""What the routers share: the error answers each operation documents, the event lookup."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdsystem.events.models import Event

from .errors import NotFound
from .schemas import Error

READ_ERRORS = {404: Error}
WRITE_ERRORS = {
    400: Error,
    401: Error,
    403: Error,
    404: Error,
    409: Error,
    415: Error,
    503: Error,
}


def event_found(event_id: int) -> Event:
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        raise NotFound(_("no event %(id)s") % {"id": event_id})
    return event


def event_exists(event_id: int) -> None:
    if not Event.objects.filter(pk=event_id).exists():
        raise NotFound(_("no event %(id)s") % {"id": event_id})
