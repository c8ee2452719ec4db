"""Django's PostgreSQL backend, its connection pool checking a connection without asking the
server unless the server has said something, failing at once while the server is down,
and every date and time it reads kept within the range the system takes
(tdsystem.core.moments).

With ``CONN_HEALTH_CHECKS`` on, Django gives psycopg_pool its ``check_connection``, which
sends an empty statement and waits for the answer each time a request takes a connection:
a round trip to the server on every request, 234 µs (148 µs of CPU) against 10 µs for the
checkout alone, and 17 % of the web workers' time at the busy minute (docs
load-and-faults.md). A connection a restart or a crash broke has something to read: the
server's FATAL message or the end of the stream. So the check here looks at the socket
first and asks the server only when it has something to read, or the connection is not
idle and open; a broken connection is then found as before and replaced by the pool.

The pool's attempts to connect go through a gate (gate.py): while the last one failed
because the server is gone, a request gets DatabaseDown at once instead of waiting out
the pool's timeout, and one request a second per process asks the pool again.

Django 5.2 passes its own ``check`` to the pool and refuses another one in the pool's
options, so the check is set on the pool Django made (``_check``, the attribute
psycopg_pool calls), as are its connection class and its timeout (a step of the wait);
tests/core/test_pool_check.py and tests/core/test_pool_gate.py fail if that ever stops
working.

PostgreSQL keeps timestamps up to the year 294276, and a value Python cannot hold (past the
year 9999, before the year 1, infinity) failed every query that read it: one flight's start
in the year 10000 answered 500 on every screen of the room. Django's timestamptz loader is
replaced by one that gives such a value as the nearest end of the system's range, and every
other value through `moment_stored` (tests/core/test_moments.py).
"""

from __future__ import annotations

import select
import threading
import time
from datetime import datetime
from functools import lru_cache
from weakref import WeakKeyDictionary

from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import Connection, DataError, adapt, pq
from psycopg.abc import Buffer
from psycopg_pool import ConnectionPool, PoolTimeout

from tdsystem.core.moments import STORED_FIRST, STORED_LAST, moment_stored

from .gate import STEP_SECONDS, Gate, gated_connection

_gates: WeakKeyDictionary[ConnectionPool, Gate] = WeakKeyDictionary()
_equipping = threading.Lock()


def check_quietly(conn: Connection) -> None:
    """psycopg_pool's check, asked of the server only when the socket has something to read
    (or the connection is not open and idle): raises as the full check does."""
    pgconn = conn.pgconn
    if pgconn.status == pq.ConnStatus.OK and pgconn.transaction_status == pq.TransactionStatus.IDLE:
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
        if not poller.poll(0):
            return  # nothing said since the last answer: the connection is as it was left
    ConnectionPool.check_connection(conn)


class MomentLoader(BaseTzLoader):
    """Django's timestamptz loader (the connection's time zone), its values within the
    system's range."""

    def load(self, data: Buffer) -> datetime:
        try:
            value = super().load(data)
        except DataError:  # past Python's years: the end of the range on that side
            text = bytes(data)
            return STORED_FIRST if text.startswith(b"-") or text.endswith(b"BC") else STORED_LAST
        return moment_stored(value)


@lru_cache
def _adapters(template: adapt.AdaptersMap, zone) -> adapt.AdaptersMap:
    """Django's adapters for the connections, with MomentLoader for timestamptz."""
    adapters = adapt.AdaptersMap(template)
    adapters.register_loader("timestamptz", type("Loader", (MomentLoader,), {"timezone": zone}))
    return adapters


def gate_of(pool: ConnectionPool) -> Gate:
    """The pool's gate; the pool equipped with it (and the quiet check) the first time."""
    gate = _gates.get(pool)
    if gate is None:
        with _equipping:
            gate = _gates.get(pool)
            if gate is None:
                if pool._check is ConnectionPool.check_connection:
                    pool._check = check_quietly
                gate = Gate(pool.timeout)
                pool.timeout = min(STEP_SECONDS, pool.timeout)
                pool.connection_class = gated_connection(gate, pool.connection_class)
                _gates[pool] = gate
    return gate


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        params["context"] = _adapters(params["context"], self.timezone)
        return params

    @property
    def pool(self):
        pool = super().pool
        if pool is not None:
            gate_of(pool)
        return pool

    def get_new_connection(self, conn_params):
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        gate = gate_of(pool)
        deadline = time.monotonic() + gate.budget
        while True:
            if not gate.admit():
                raise gate.refuse()
            try:
                return super().get_new_connection(conn_params)
            except PoolTimeout:
                if gate.down:
                    raise gate.refuse() from None
                if time.monotonic() >= deadline:
                    raise PoolTimeout(
                        f"couldn't get a connection after {gate.budget:.2f} sec"
                    ) from None
