"""Health of the parts the system needs: the database, the broker, a worker taking tasks,
the clock ticker (every worker runs one: tdsystem/events/ticker.py) and this machine's time.

Three answers (docs/operations.md, "Health"): `live` for a load balancer (this process
answers: nothing asked of the database or the broker), `ready` (this node can serve: the
database answers) and `health` for monitoring, each part named."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from .models import Heartbeat
from .servertime import clock_offset

# The clock tickers' rows in Heartbeat (tdsystem/events/ticker.py), each written again at
# least this often.
TICKER_PREFIX = "ticker:"
TICKER_HEARTBEAT_SECONDS = 2.0


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


def check_ticker() -> tuple[bool, str]:
    """The clock tickers that ticked lately: one per running worker."""
    try:
        seen = list(
            Heartbeat.objects.filter(name__startswith=TICKER_PREFIX).values_list(
                "seen_at", flat=True
            )
        )
    except Exception as exc:
        return False, f"{type(exc).__name__}"
    if not seen:
        return False, gettext("no clock ticker yet: is a worker running?")
    now = timezone.now()
    limit = timedelta(seconds=max(settings.CLOCK_TICK_SECONDS, TICKER_HEARTBEAT_SECONDS) * 3 + 2)
    alive = [at for at in seen if now - at <= limit]
    if not alive:
        seconds = int((now - max(seen)).total_seconds())
        return False, gettext("last tick %(seconds)s s ago") % {"seconds": seconds}
    return True, ngettext(
        "%(count)s clock ticker running", "%(count)s clock tickers running", len(alive)
    ) % {"count": len(alive)}


def check_time() -> tuple[bool, str]:
    """This machine's clock against the database server's (`core.servertime`)."""
    try:
        offset = clock_offset()
    except Exception as exc:
        return False, f"{type(exc).__name__}"
    if offset.source != "postgresql":
        return True, gettext("one machine: the process clock")
    off = -offset.seconds  # this machine's clock minus the server's
    detail = gettext("this machine's clock is %(seconds)+.3f s from the database server's") % {
        "seconds": off
    }
    return abs(off) <= settings.TIME_SKEW_LIMIT_SECONDS + offset.within, detail


def health(database: tuple[bool, str] | None = None) -> dict:
    """The parts' state; `database` when it is already known (a failed query said so)."""
    database = database or check_database()
    # The heartbeats live in the database, and the time is its server's: without it there
    # is nothing to read, and asking again would make the answer wait for the pool's
    # timeout a second time.
    unknown = (False, gettext("unknown: the database is unreachable"))
    parts = {
        "database": database,
        "broker": check_broker(),
        "worker": check_worker() if database[0] else unknown,
        "ticker": check_ticker() if database[0] else unknown,
        "time": check_time() if database[0] else unknown,
    }
    return {
        "ok": all(ok for ok, _ in parts.values()),
        **{name: {"ok": ok, "detail": detail} for name, (ok, detail) in parts.items()},
    }


def public(report: dict) -> dict:
    """Up or down for each part, without the details: an error's text can name hosts,
    paths and versions that are nobody's business outside the staff."""
    return {key: value if key == "ok" else {"ok": value["ok"]} for key, value in report.items()}
