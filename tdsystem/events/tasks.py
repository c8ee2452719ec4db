"""Celery interface to the clock services. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from tdsystem.core.servertime import from_database, server_now

from . import services
from .models import Clock


@shared_task(name="tdsystem.events.tasks.clock_advance", acks_late=True)
def clock_advance(event_id: int, version: int) -> int:
    """Apply the level changes due now, sent for a level's end by clock `version`.

    A task sent a level ahead (`services.ENDS_SENT_AHEAD`) runs after the clock's version
    moved on by that level's change, so a due level is settled whatever the version:
    settling is a compare-and-set under the clock's lock, and the timestamps say what is
    due, so a late, duplicate or stale delivery changes nothing. One not due (time was
    added, or it arrived early) comes back later only if it is its version's own.
    """
    clock = Clock.objects.filter(pk=event_id).only("version", "status", "ends_at").first()
    if clock is None or clock.status != Clock.Status.RUNNING or clock.ends_at is None:
        return 0
    now = server_now()
    if clock.ends_at > now:
        if clock.version == version:
            # Delivered early (this machine's clock is ahead of the database server's, or
            # the broker's): come back at the end of the level, by this machine's clock,
            # which is the one the worker reads an ETA by.
            eta = clock.ends_at
            if from_database():
                eta += timezone.now() - now
            clock_advance.apply_async(args=[event_id, version], eta=eta)
        return 0
    return services.clock_settle(event_id=event_id, now=now)


@shared_task(name="tdsystem.events.tasks.clock_tick", ignore_result=True)
def clock_tick() -> int:
    """Catch up whatever level change was missed. Beat sent it every few seconds before
    every worker ran the clock ticker (`ticker`); kept for the messages still queued."""
    return services.clocks_settle_due()


# Every worker runs the clock ticker (imported here, where Celery finds the app's tasks).
from . import ticker  # noqa: E402, F401
