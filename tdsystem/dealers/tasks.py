"""Celery interface to the rotation. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task

from tdsystem.core.actors import Actor

from . import services

ACTOR = Actor(label="dealers")


@shared_task(name="tdsystem.dealers.tasks.rotation_push_due", acks_late=True)
def rotation_push_due(event_id: int, version: int) -> bool:
    """The push planned for rotation `version`: a compare-and-set, so a late, duplicate
    or stale delivery pushes nothing; one in the minute of a level change is sent again
    for a minute after it (the service does)."""
    moved = services.rotation_push(event_id=event_id, actor=ACTOR, expected_version=version)
    return moved is not None


@shared_task(name="tdsystem.dealers.tasks.rotations_tick", ignore_result=True)
def rotations_tick() -> int:
    """Every minute (beat): the pushes a worker missed."""
    return services.rotations_due(actor=ACTOR)
