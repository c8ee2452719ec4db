"""An event's life in the console: copy it for next week, archive it, delete it.

It spans the apps: the event (events), its tables and entries (seating), its payout plan
and bust-outs (results). A finished clock gives the tables back through events' `hooks`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.events.copying import COPIED_SETTINGS
from tdsystem.events.models import Event
from tdsystem.events.selectors_life import may_delete
from tdsystem.events.services import event_create, event_staff_copy
from tdsystem.results.models import BustOut, Finish, PayoutPlan
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable


class EventError(Exception):
    """A life-cycle change the event's state does not allow; nothing was changed."""


def event_tables_release(*, event_id: int, actor: Actor) -> list[int]:
    """A finished event gives its tables back to the venue, so the next event can use them
    (seating's `tables_release_all`: the winner, still in, leaves the seat)."""
    with transaction.atomic():
        event = event_lock(Event.objects.select_related("clock"), event_id, error=EventError)
        if event.status != Event.Status.FINISHED:
            return []
        return seating.tables_release_all(event=event, reason=event.status, actor=actor)


def event_copy(
    *,
    source_id: int,
    name: str,
    actor: Actor,
    numbers: list[int] | None = None,
    seats: int | None = None,
    scheduled_start: datetime | None = None,
) -> Event:
    """A new planned event like the source: structure, payouts, settings, tables and staff.

    Nothing of the source's night comes along: no players, entries, clock or log. The
    tables go through the seating service, so a table another event holds is refused.
    """
    name = name.strip()
    if not name:
        raise EventError(_("The copy needs a name."))
    with transaction.atomic():
        try:
            source = Event.objects.select_related("structure").get(pk=source_id)
        except Event.DoesNotExist:
            raise EventError(_("There is no event %(id)s.") % {"id": source_id}) from None
        copied = {field: getattr(source, field) for field in COPIED_SETTINGS}
        event = event_create(
            name=name,
            template=source.structure,
            actor=actor,
            scheduled_start=scheduled_start,
            **copied,
        )
        staff = event_staff_copy(source=source, event=event)
        plan = PayoutPlan.objects.filter(event=source).first()
        if plan is not None:
            PayoutPlan.objects.create(
                event=event, table=plan.table, percentages=plan.percentages, unit=plan.unit
            )
        if numbers:
            if seats is None:
                seats = seating.tables_seats(source)
            seating.tables_setup(event=event, numbers=numbers, seats=seats, actor=actor)
        log_record(
            event=event,
            actor=actor,
            action="event.copy",
            summary=Text(
                gettext_noop("Copied from %(name)s (event %(id)s)"), name=source.name, id=source.pk
            ),
            data={"source": source.pk, "tables": sorted(set(numbers or [])), "staff": staff},
        )
    return event


def event_archive(*, event_id: int, actor: Actor) -> Event:
    """File a finished event away: off the console list, its public pages unchanged."""
    with transaction.atomic():
        event = event_lock(Event.objects.select_related("clock"), event_id, error=EventError)
        if event.status != Event.Status.FINISHED:
            raise EventError(
                _("Only a finished event can be archived: %(name)s is %(status)s.")
                % {"name": event.name, "status": event.get_status_display().lower()}
            )
        if event.archived_at is not None:
            raise EventError(_("%(name)s is archived already.") % {"name": event.name})
        event.archived_at = timezone.now()
        Event.objects.filter(pk=event.pk).update(archived_at=event.archived_at)
        log_record(
            event=event,
            actor=actor,
            action="event.archive",
            summary=Text(gettext_noop("Event archived")),
        )
    # Events that finished before tables were given back at the end still hold theirs.
    event_tables_release(event_id=event.pk, actor=actor)
    return event


def event_unarchive(*, event_id: int, actor: Actor) -> Event:
    with transaction.atomic():
        event = event_lock(Event.objects.select_related("clock"), event_id, error=EventError)
        if event.archived_at is None:
            raise EventError(_("%(name)s is not archived.") % {"name": event.name})
        event.archived_at = None
        Event.objects.filter(pk=event.pk).update(archived_at=None)
        log_record(
            event=event,
            actor=actor,
            action="event.unarchive",
            summary=Text(gettext_noop("Event taken out of the archive")),
        )
    return event


def event_delete_refusal(event: Event) -> str | None:
    """Why the event may not be deleted, or None: only one that never started may go."""
    if not may_delete(event):
        return _("%(name)s has started: it cannot be deleted (archive it once it is finished).") % {
            "name": event.name
        }
    if BustOut.objects.filter(event=event).exists() or Finish.objects.filter(event=event).exists():
        return _("%(name)s has bust-outs recorded: it cannot be deleted.") % {"name": event.name}
    return None


def event_delete(*, event_id: int, actor: Actor) -> dict:
    """Delete an event that never started, with everything of its own (log included).

    The deletion itself is logged on no event, so the record outlives it. Its venue
    tables stay; only the event's use of them goes.
    """
    with transaction.atomic():
        event = event_lock(Event.objects.select_related("clock"), event_id, error=EventError)
        refusal = event_delete_refusal(event)
        if refusal:
            raise EventError(refusal)
        record = {
            "event_id": event.pk,
            "name": event.name,
            "entries": Entry.objects.filter(event=event).count(),
            "tables": sorted(
                EventTable.objects.filter(event=event).values_list("number", flat=True)
            ),
        }
        structure = event.structure
        event.delete()
        structure.delete()
        log_record(
            event=None,
            actor=actor,
            action="event.delete",
            summary=Text(
                gettext_noop("Deleted the event %(name)s (id %(id)s, %(entries)s entries)"),
                name=record["name"],
                id=record["event_id"],
                entries=record["entries"],
            ),
            data=record,
        )
    return record
