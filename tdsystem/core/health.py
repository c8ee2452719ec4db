"""Health of the parts the system needs: database, broker and a live worker."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from .models import Heartbeat


def check_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, connection.vendor
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"[:200]


def check_broker() -> tuple[bool, str]:
    from kombu import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            return True, settings.CELERY_BROKER_URL.split("://", 1)[0]
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"[:200]


def check_worker() -> tuple[bool, str]:
    try:
        beat = Heartbeat.objects.filter(name="worker").first()
    except Exception as exc:
        return False, f"{type(exc).__name__}"
    if beat is None:
        return False, gettext("no heartbeat yet")
    age = timezone.now() - beat.seen_at
    limit = timedelta(seconds=settings.WORKER_HEARTBEAT_SECONDS * 3 + 5)
    seconds = int(age.total_seconds())
    if age > limit:
        return False, gettext("last heartbeat %(seconds)s s ago") % {"seconds": seconds}
    return True, gettext("heartbeat %(seconds)s s ago") % {"seconds": seconds}


def health(database: tuple[bool, str] | None = None) -> dict:
    """The parts' state; `database` when it is already known (a failed query said so)."""
    database = database or check_database()
    # The worker's heartbeat lives in the database: without it there is nothing to read,
    # and asking again would make the answer wait for the pool's timeout a second time.
    worker = (
        check_worker() if database[0] else (False, gettext("unknown: the database is unreachable"))
    )
    parts = {"database": database, "broker": check_broker(), "worker": worker}
    return {
        "ok": all(ok for ok, _ in parts.values()),
        **{name: {"ok": ok, "detail": detail} for name, (ok, detail) in parts.items()},
    }


def public(report: dict) -> dict:
    """Up or down for each part, without the details: an error's text can name hosts,
    paths and versions that are nobody's business outside the staff."""
    return {key: value if key == "ok" else {"ok": value["ok"]} for key, value in report.items()}
