"""What the venue plugs into events' clock (`tdsystem.events.hooks`), from VenueConfig.ready:
the start's question while nobody is seated, the clock screen's side panel, and the
tables given back once the event is finished."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdsystem.events import hooks
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry

from .life import event_tables_release
from .screen import screen_panel


def nobody_seated(event: Event) -> str | None:
    """The console asks before starting a clock while no active entry has a seat."""
    seated = Entry.objects.filter(
        event_id=event.pk, status=Entry.Status.ACTIVE, table__isnull=False
    )
    if seated.exists():
        return None
    return _("Nobody is seated yet. Start the clock anyway?")


def register() -> None:
    hooks.register(
        start_check=nobody_seated, screen_panel=screen_panel, finished=event_tables_release
    )
