"""The log of changes: every service that changes something writes one entry here."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .actors import Actor
from .models import LogEntry


def log_record(
    *,
    event,
    actor: Actor,
    action: str,
    summary: str,
    at: datetime | None = None,
    data: dict | None = None,
) -> LogEntry:
    """One entry: `event` is the event it belongs to, or None for a change of the room's."""
    return LogEntry.objects.create(
        event=event,
        at=at or timezone.now(),
        actor=actor.user,
        actor_label=actor.label,
        action=action,
        summary=summary[:300],
        data=data or {},
    )
