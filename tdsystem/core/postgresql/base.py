"""Django's PostgreSQL backend, its connection pool checking a connection without asking the
server unless the server has said something.

With ``CONN_HEALTH_CHECKS`` on, Django gives psycopg_pool its ``check_connection``, which
sends an empty statement and waits for the answer each time a request takes a connection:
a round trip to the server on every request, 234 µs (148 µs of CPU) against 10 µs for the
checkout alone, and 17 % of the web workers' time at the busy minute (docs
load-and-faults.md). A connection a restart or a crash broke has something to read: the
server's FATAL message or the end of the stream. So the check here looks at the socket
first and asks the server only when it has something to read, or the connection is not
idle and open; a broken connection is then found as before and replaced by the pool.

Django 5.2 passes its own ``check`` to the pool and refuses another one in the pool's
options, so the check is set on the pool Django made (``_check``, the attribute
psycopg_pool calls); tests/core/test_pool_check.py fails if that ever stops working.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import Connection, pq
from psycopg_pool import ConnectionPool


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


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
            pool._check = check_quietly
        return pool
