"""The PostgreSQL pool's gate (tdsystem/core/postgresql/gate.py): a request does not wait out
the pool's timeout for a server that is down or does not answer; it gets its error at once,
and one request a second asks the server again.

The servers here are sockets of the test's own (nothing listening, or listening and never
answering), so these run without PostgreSQL; the real server stopped and started under
gunicorn is tests/faults/test_database_fast_failure.py.
"""

from __future__ import annotations

import socket
import threading
import time

import psycopg
import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler

from tdsystem.core.middleware import database_unreachable
from tdsystem.core.postgresql.gate import STEP_SECONDS, DatabaseDown, Gate, server_gone
from tests.faults.servers import free_port

POOL_TIMEOUT = 10  # the production default of DB_POOL_TIMEOUT


def wrapper(port: int, *, connect_timeout: int = 2):
    """A connection of the project's backend to 127.0.0.1:port, its own pool as settings
    make it (DB_POOL_TIMEOUT 10 s)."""
    handler = ConnectionHandler(
        {
            "default": {"ENGINE": "django.db.backends.dummy"},  # the alias Django asks for
            "gate": {
                "ENGINE": "tdsystem.core.postgresql",
                "NAME": "tdsystem",
                "USER": "postgres",
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "CONN_MAX_AGE": 0,
                "CONN_HEALTH_CHECKS": True,
                "OPTIONS": {
                    "connect_timeout": connect_timeout,
                    "tcp_user_timeout": connect_timeout * 1000,
                    "pool": {
                        "min_size": 1,
                        "max_size": 4,
                        "timeout": POOL_TIMEOUT,
                        "reconnect_timeout": 2,
                    },
                },
            },
        }
    )
    return handler["gate"]


@pytest.fixture
def connections(django_db_blocker):
    """connections(port) -> a connection to that port; its pool closed after the test.
    (No test database: the unblocked connections are the test's own.)"""
    made = []

    def make(port: int, **kwargs):
        made.append(wrapper(port, **kwargs))
        return made[-1]

    with django_db_blocker.unblock():
        yield make
    for conn in made:
        conn.close_pool()


def connect_time(conn) -> tuple[float, BaseException]:
    started = time.monotonic()
    with pytest.raises(OperationalError) as failed:
        conn.ensure_connection()
    return time.monotonic() - started, failed.value


def test_a_server_that_refuses_fails_a_request_at_once_not_after_the_pool_timeout(connections):
    conn = connections(free_port())  # nothing listens there: connection refused
    took, error = connect_time(conn)
    print(f"first request: {took:.2f} s")
    # Within the gate's steps (about 1 s; a loaded machine's scheduling on top), far from
    # the pool's 10 s.
    assert took < POOL_TIMEOUT / 4
    assert database_unreachable(error)  # the middleware's 503
    # Known down now: one request a second asks again, the others fail at once.
    times = [connect_time(conn)[0] for _ in range(5)]
    print("next requests:", ", ".join(f"{t:.3f}" for t in times))
    assert max(times) < POOL_TIMEOUT / 4
    assert sorted(times)[3] < STEP_SECONDS / 2  # without asking the pool (ms when idle)
    assert isinstance(connect_time(conn)[1].__cause__, DatabaseDown)


def test_a_server_that_never_answers_fails_within_the_screens_timeout(connections):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # connections are made, and nothing is ever said on them
    try:
        conn = connections(silent.getsockname()[1])
        took, error = connect_time(conn)
        print(f"first request to a silent server: {took:.2f} s")
        assert 1.5 < took < 4  # the connect timeout (2 s), not the pool's 10 s
        assert database_unreachable(error)
        took, _ = connect_time(conn)
        assert took < POOL_TIMEOUT / 4
    finally:
        silent.close()


def test_a_server_that_says_it_is_full_is_not_called_down():
    gate = Gate(POOL_TIMEOUT)
    gate.failed(psycopg.errors.TooManyConnections("sorry, too many clients already"))
    assert not gate.down and gate.admit()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_busy_pool_still_waits_for_a_connection_while_the_server_answers(django_db_blocker):
    from django.db import connection

    own = {**connection.settings_dict}
    own["OPTIONS"] = {**own["OPTIONS"], "pool": {"min_size": 1, "max_size": 1, "timeout": 5}}
    handler = ConnectionHandler({"default": {"ENGINE": "django.db.backends.dummy"}, "busy": own})
    holder, waiter = handler.create_connection("busy"), handler.create_connection("busy")
    try:
        with django_db_blocker.unblock():
            holder.ensure_connection()  # the pool's one connection, held
            holder.inc_thread_sharing()
            threading.Timer(1.5, holder.close).start()  # given back 1.5 s later
            started = time.monotonic()
            waiter.ensure_connection()  # waits for it, past several steps of 0.5 s
            took = time.monotonic() - started
            assert 1.3 < took < 5, took
            waiter.close()
    finally:
        holder.close_pool()


def test_the_gate_lets_one_request_a_second_through_while_the_server_is_down():
    gate = Gate(POOL_TIMEOUT, probe_seconds=0.2)
    gate.failed(psycopg.OperationalError("connection refused"))
    assert gate.down
    assert not gate.admit()  # the pool has just tried
    time.sleep(0.25)
    assert gate.admit()  # the probe
    assert not gate.admit() and not gate.admit()
    time.sleep(0.25)
    assert gate.admit()
    assert not gate.admit()
    gate.connected()
    assert not gate.down and gate.admit() and gate.admit()


@pytest.mark.parametrize(
    ("sqlstate", "gone"),
    [(None, True), ("08006", True), ("57P01", True), ("57P03", True), ("53300", False),
     ("28P01", False), ("40P01", False)],
)  # fmt: skip
def test_it_tells_a_server_gone_by_its_sqlstate(sqlstate, gone):
    assert server_gone(sqlstate) is gone
