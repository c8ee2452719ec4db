"""The installation's one time: the database server's clock.

Every moment that decides the level clock (a start, a pause, a resume, a time set, the
level end a screen is shown, the worker's tick) is read here, so web machines and workers
whose own clocks differ still agree to the millisecond: a pause on one machine and a
resume on another lose nothing, and every screen counts down to the same end whichever
machine answered its poll.

- PostgreSQL: the server's `clock_timestamp()` (the moment of the query, not the start of
  the transaction as `now()` would be: a write's transaction may have waited on a lock).
- SQLite (the embedded run): the process clock. The database is a file on the one machine
  the web server, the worker and beat share, so there is no other clock to disagree.

`clock_offset` says how far this process's own clock is from that one; /healthz and the
console's banner report a machine more than `settings.TIME_SKEW_LIMIT_SECONDS` off
(docs/operations.md, time synchronisation).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.utils import timezone


def from_database() -> bool:
    """Whether the time is the database server's: on PostgreSQL, unless the setting
    `CLOCK_TIME_SOURCE=process` says each process's own (the test suite's, whose frozen
    time cannot move the server's clock)."""
    return connection.vendor == "postgresql" and settings.CLOCK_TIME_SOURCE == "database"


def server_now() -> datetime:
    """Now, as the database server's clock says (aware, UTC); the process clock on SQLite."""
    return _database_now() if from_database() else timezone.now()


def _database_now() -> datetime:
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        (moment,) = cursor.fetchone()
    return moment


@dataclass(frozen=True)
class Offset:
    """How far this process's clock is from the database server's: `seconds` > 0 when the
    server's clock is ahead; `within` is the uncertainty (half the query's round trip)."""

    seconds: float
    within: float
    source: str  # "postgresql", or "process" where both are one clock


def clock_offset() -> Offset:
    """The database server's clock minus this process's, measured across one query (on
    PostgreSQL whatever CLOCK_TIME_SOURCE says: a machine off is worth knowing anyway)."""
    if connection.vendor != "postgresql":
        return Offset(0.0, 0.0, "process")
    connection.ensure_connection()
    before = time.time()
    moment = _database_now()
    after = time.time()
    return Offset(moment.timestamp() - (before + after) / 2, (after - before) / 2, "postgresql")
