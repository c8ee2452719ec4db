"""Celery interface to the alternates list: the hold's end. Tasks take ids, call a service."""

from __future__ import annotations

from celery import shared_task

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy

from . import alternates

ACTOR = Actor(label="alternates")
RETRY_SECONDS = 2


@shared_task(
    name="tdsystem.players.tasks.alternates_hold_end",
    bind=True,
    acks_late=True,
    max_retries=10,
    ignore_result=True,
)
def alternates_hold_end(self, event_id: int) -> int:
    """Sent for a called player's due time: the holds past their time end. A late or
    second delivery finds nothing due; while the event is busy it tries again."""
    try:
        return alternates.alternates_expire(event_id=event_id, actor=ACTOR)
    except Busy as exc:
        raise self.retry(exc=exc, countdown=RETRY_SECONDS) from exc


@shared_task(name="tdsystem.players.tasks.alternates_sweep", ignore_result=True)
def alternates_sweep() -> int:
    """Beat, every ALTERNATES_SWEEP_SECONDS: the holds whose own task was lost."""
    return alternates.alternates_expire_due(actor=ACTOR)
