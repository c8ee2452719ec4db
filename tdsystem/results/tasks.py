"""Celery interface to the results services. Tasks take ids and call a service."""

from __future__ import annotations

from celery import shared_task

from tdsystem.core.actors import Actor
from tdsystem.core.locking import Busy

from . import services

ACTOR = Actor(label="results")
RETRY_SECONDS = 5


@shared_task(
    name="tdsystem.results.tasks.standings_update",
    bind=True,
    acks_late=True,
    max_retries=12,
    ignore_result=True,
)
def standings_update(self, event_id: int) -> int:
    """Work the places and prizes out again for the field now (a purchase's refresh that
    could not run). A late or duplicate delivery finds them current and changes nothing;
    while the event is busy it tries again."""
    try:
        return services.standings_update(event_id=event_id, actor=ACTOR)
    except Busy as exc:
        raise self.retry(exc=exc, countdown=RETRY_SECONDS) from exc
