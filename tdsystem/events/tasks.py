"""Celery interface to the clock services. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import services
from .models import Clock


@shared_task(name="tdsystem.events.tasks.clock_advance", acks_late=True)
def clock_advance(event_id: int, version: int) -> int:
    """End the level of clock `version`. Late, duplicate or stale deliveries change nothing."""
    clock = Clock.objects.filter(pk=event_id).only("version", "status", "ends_at").first()
    if clock is None or clock.version != version or clock.status != Clock.Status.RUNNING:
        return 0
    now = timezone.now()
    if clock.ends_at and clock.ends_at > now:
        # Delivered early (broker clocks differ): come back at the end of the level.
        clock_advance.apply_async(args=[event_id, version], eta=clock.ends_at)
        return 0
    return services.clock_settle(event_id=event_id, now=now)


@shared_task(name="tdsystem.events.tasks.clock_tick", ignore_result=True)
def clock_tick() -> int:
    """Every few seconds (beat): catch up whatever level change was missed."""
    return services.clocks_settle_due()
