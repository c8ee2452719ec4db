"""Reads for an event's life in the console: the filtered event list, whether an event
may be deleted, the recent activity, and which event the room's screens show now.

What a copy or a deletion would take (tables, entries) is seating's: tdsystem/venue reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tdsystem.core import screencache
from tdsystem.core.models import LogEntry
from tdsystem.structures.models import Level

from .models import Clock, Event

# The console list's filters: (key, label, condition). "current" is everything not archived.
FILTERS = (
    ("current", _("All current"), Q(archived_at__isnull=True)),
    ("planned", _("Planned"), Q(archived_at__isnull=True, status=Event.Status.PLANNED)),
    (
        "running",
        _("Running"),
        Q(archived_at__isnull=True, status__in=[Event.Status.RUNNING, Event.Status.PAUSED]),
    ),
    ("finished", _("Finished"), Q(archived_at__isnull=True, status=Event.Status.FINISHED)),
    ("archived", _("Archived"), Q(archived_at__isnull=False)),
)
FILTER_KEYS = {key for key, _label, _q in FILTERS}

_RUNNING_FIRST = Case(
    When(status=Event.Status.RUNNING, then=Value(0)),
    When(status=Event.Status.PAUSED, then=Value(1)),
    When(status=Event.Status.PLANNED, then=Value(2)),
    default=Value(3),
    output_field=IntegerField(),
)


@dataclass(frozen=True)
class Tab:
    key: str
    label: str
    count: int
    active: bool


def staff_events(roles: dict[int, str] | None) -> QuerySet[Event]:
    """The events a user acts on, from `core.access.staff_event_roles`: those they are
    staff of and their flights; every event for a superuser (None)."""
    if roles is None:
        return Event.objects.all()
    return Event.objects.filter(Q(pk__in=roles) | Q(parent_id__in=roles))


def console_tabs(active: str, roles: dict[int, str] | None = None) -> list[Tab]:
    """The filter tabs with their counts (of the user's events), in one query."""
    counts = staff_events(roles).aggregate(
        **{key: Count("pk", filter=condition) for key, _label, condition in FILTERS}
    )
    return [Tab(key, str(label), counts[key], key == active) for key, label, _q in FILTERS]


def console_events(show: str, roles: dict[int, str] | None = None) -> QuerySet[Event]:
    """The user's events of a filter, running first, newest first within a status.

    Each with what the list shows as the clock does: `level_number` (the levels played,
    breaks not counted: "Level 3" on the clock is 3 here), `on_break`, and `started_at`,
    when its clock first started (the scheduled start is a plan; once the event ran, the
    list says when it did)."""
    condition = {key: q for key, _label, q in FILTERS}[show]
    levels = Level.objects.filter(structure=OuterRef("structure"))
    played = (
        levels.filter(kind=Level.Kind.LEVEL, position__lte=OuterRef("clock__level_index"))
        .order_by()
        .values("structure")
        .annotate(n=Count("pk"))
        .values("n")
    )
    started = LogEntry.objects.filter(
        event=OuterRef("pk"), action="clock.start", undone_at__isnull=True
    ).order_by("at")
    return (
        staff_events(roles)
        .filter(condition)
        .select_related("clock")
        .annotate(
            rank=_RUNNING_FIRST,
            level_number=Coalesce(Subquery(played, output_field=IntegerField()), Value(0)),
            on_break=Exists(
                levels.filter(kind=Level.Kind.BREAK, position=OuterRef("clock__level_index"))
            ),
            started_at=Subquery(started.values("at")[:1]),
        )
        .order_by("rank", "-scheduled_start", "-created_at")
    )


def may_delete(event: Event) -> bool:
    """The clock never started: the list's cheap look, and the first of the delete
    service's checks (which also refuses an event with bust-outs)."""
    return event.status == Event.Status.PLANNED and event.clock.status == Clock.Status.NOT_STARTED


# Refused actions are kept in the audit log (action "access.refused") but not listed on
# the console's home: a device or a person knocking at a page they may not open would
# crowd out the deletions and token changes the staff need to see.
ACTIVITY_HIDDEN = ("access.refused",)


def activity_recent(limit: int = 5) -> list[LogEntry]:
    """The audit log: entries that belong to no event (deletions, API tokens, structure
    imports), newest first."""
    rows = LogEntry.objects.filter(event__isnull=True).exclude(action__in=ACTIVITY_HIDDEN)
    return list(rows.order_by("-at", "-id")[:limit])


def current_event(now: datetime | None = None) -> dict | None:
    """The room's event (`{"id", "name", "status"}`), for the screens' stable addresses
    (/clock/, /seats/...), or None.

    The running or paused event (the newest if several), else the planned one whose
    scheduled start is nearest to now (those without a start after, newest first), else
    the finished one whose clock stopped last. Never an archived event, nor a simulated
    one (`simulate_event`'s rehearsals). One query, two when only finished events are left.
    """
    now = now or timezone.now()
    shown = ("id", "name", "status")
    live = list(
        Event.objects.filter(archived_at__isnull=True, simulated=False)
        .exclude(status=Event.Status.FINISHED)
        .values(*shown, "scheduled_start", "created_at")
    )
    running = [e for e in live if e["status"] != Event.Status.PLANNED]
    if running:
        found = max(running, key=lambda e: (e["created_at"], e["id"]))
    elif live:

        def nearest(e: dict) -> tuple:
            start = e["scheduled_start"]
            gap = abs((start - now).total_seconds()) if start else float("inf")
            return (gap, -e["created_at"].timestamp(), -e["id"])

        found = min(live, key=nearest)
    else:
        return (
            Event.objects.filter(
                archived_at__isnull=True, simulated=False, status=Event.Status.FINISHED
            )
            .order_by("-clock__updated_at", "-created_at", "-pk")
            .values(*shown)
            .first()
        )
    return {key: found[key] for key in shown}


def current_event_id(now: datetime | None = None) -> int | None:
    found = current_event(now)
    return found["id"] if found else None


def screen_current_event() -> dict | None:
    """The current event for the screens' follow check, from the short screen cache: every
    TV opened at a stable address asks once a minute."""
    from django.conf import settings

    return screencache.screen_cached(
        ("current-event",), current_event, event=None, seconds=settings.SCREEN_CACHE_SECONDS * 5
    )
