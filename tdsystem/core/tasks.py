"""Housekeeping tasks run by beat."""

from __future__ import annotations

import logging
import socket

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.utils import timezone

from .backup import BackupError, backup_periodic
from .idempotency import keys_expire
from .models import Heartbeat

log = logging.getLogger(__name__)


@shared_task(name="tdsystem.core.tasks.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Proves to /healthz that a worker takes tasks from the broker."""
    Heartbeat.objects.update_or_create(
        name="worker", defaults={"seen_at": timezone.now(), "detail": socket.gethostname()}
    )


@shared_task(name="tdsystem.core.tasks.broker_cleanup", ignore_result=True)
def broker_cleanup() -> int:
    """The SQLAlchemy broker keeps delivered messages; drop them so its file stays small."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith("sqla+"):
        return 0
    import sqlalchemy

    engine = sqlalchemy.create_engine(url.removeprefix("sqla+"))
    with engine.begin() as conn:
        result = conn.execute(sqlalchemy.text("DELETE FROM kombu_message WHERE visible = 0"))
    engine.dispose()
    return result.rowcount or 0


@shared_task(name="tdsystem.core.tasks.idempotency_keys_expire", ignore_result=True)
def idempotency_keys_expire() -> int:
    """The keys of writes older than idempotency.KEY_LIFETIME: a key sent again after that
    counts as new anyway."""
    return keys_expire()


@worker_ready.connect
def _announce_worker(sender=None, **kwargs) -> None:
    """Report in at once rather than at the first beat, so /healthz is green sooner."""
    heartbeat.delay()


@shared_task(name="tdsystem.core.tasks.backup", ignore_result=True)
def backup() -> str:
    """Every BACKUP_EVERY_MINUTES (beat): a copy of the database when the night changed."""
    try:
        taken = backup_periodic()
    except BackupError as exc:  # recorded: the console warns; the next period tries again
        log.warning("backup failed: %s", exc)
        return ""
    return taken.path if taken else ""
