"""What a process's connection pool has learned of its server, so that a request does not
wait for a connection that cannot come.

psycopg_pool hands out connections; when it has none ready, a request waits for one, up
to the pool's timeout (DB_POOL_TIMEOUT, 10 s), while the pool connects in the background.
With the server down that wait always runs out: every request took the whole timeout to
get its 503, past the screens' 4 s, and held a web thread all the while, so that a room of
screens polling each second queued up behind one another.

The gate tells "the pool is busy" from "the server is down" by the pool's own attempts to
connect: each attempt's outcome is noted (the pool's connection class, `gated_connection`).
While the last attempt failed because the server is gone, a request fails at once
(DatabaseDown, a 503 for the middleware), except one request a second (`PROBE_SECONDS`)
per process, which asks the pool: that makes the pool try again, so the first attempt
after the server is back lets everything through. While the server answers, a request
waits as long as before, in short steps (`STEP_SECONDS`), so that a failure found
meanwhile ends its wait within a step.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg

# The SQLSTATEs of a server that is gone, going or not yet back: connection exceptions
# (08), admin shutdown, crash shutdown, cannot connect now (starting up, in recovery). A
# connection refused or timed out has none.
SERVER_GONE = ("08", "57P01", "57P02", "57P03")
# How long one ask of the pool waits; a request asks again while the server answers.
STEP_SECONDS = 0.5
# While the server is down, how often a request of this process may ask the pool anyway.
PROBE_SECONDS = 1.0


def server_gone(sqlstate: str | None) -> bool:
    """True for the SQLSTATE (or its absence) of a server that cannot be reached."""
    return sqlstate is None or sqlstate.startswith(SERVER_GONE)


class DatabaseDown(psycopg.OperationalError):
    """The pool's last attempt to connect failed: the server is not asked again now."""


class Gate:
    """One pool's view of its server. `budget`: how long a request may wait for a
    connection while the server answers (the pool's configured timeout)."""

    def __init__(self, budget: float, *, probe_seconds: float = PROBE_SECONDS):
        self.budget = budget
        self.probe_seconds = probe_seconds
        self.failure: str | None = None  # of the last attempt, None once one succeeds
        self._next_probe = 0.0
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return self.failure is not None

    def connected(self) -> None:
        self.failure = None

    def failed(self, exc: psycopg.Error) -> None:
        if not server_gone(exc.sqlstate):
            return
        with self._lock:
            if self.failure is None:  # the pool has just tried: the next probe in a while
                self._next_probe = time.monotonic() + self.probe_seconds
            self.failure = str(exc).strip() or type(exc).__name__

    def admit(self) -> bool:
        """Whether a request may ask the pool now: always while the server answers; while
        it is down, one request per probe_seconds."""
        if self.failure is None:
            return True
        now = time.monotonic()
        with self._lock:
            if now < self._next_probe:
                return False
            self._next_probe = now + self.probe_seconds
            return True

    def refuse(self) -> DatabaseDown:
        return DatabaseDown(f"the database server is unreachable: {self.failure}")


def gated_connection(gate: Gate, base: type[psycopg.Connection]) -> type[psycopg.Connection]:
    """A connection class for the pool that tells `gate` how each attempt to connect went."""

    class GatedConnection(base):  # type: ignore[valid-type,misc]
        @classmethod
        def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:
            try:
                conn = super().connect(conninfo, **kwargs)
            except psycopg.OperationalError as exc:
                gate.failed(exc)
                raise
            gate.connected()
            return conn

    return GatedConnection
