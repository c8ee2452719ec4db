"""The PostgreSQL pool's check (tdsystem/core/postgresql): a connection nothing happened to is
handed out without a round trip to the server; one whose server end went away is found and
replaced, so the request that draws it still gets a working connection."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from tdsystem.core.postgresql.base import check_quietly

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def params():
    return {**connection.get_connection_params(), "autocommit": True}


@pytest.fixture
def full_checks(monkeypatch):
    """How many times the pool's full check (an empty statement to the server) ran."""
    calls = []
    full = ConnectionPool.check_connection

    def counted(conn):
        calls.append(conn.info.backend_pid)
        full(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return calls


def test_the_projects_pool_uses_the_quiet_check():
    assert connection.pool._check is check_quietly


def test_a_quiet_connection_is_handed_out_without_asking_the_server(params, full_checks):
    with ConnectionPool(kwargs=params, min_size=1, max_size=1, check=check_quietly) as pool:
        with pool.connection() as conn:
            pid = conn.info.backend_pid
            conn.execute("SELECT 1").fetchone()
        for _ in range(5):
            with pool.connection() as conn:
                assert conn.info.backend_pid == pid
    assert full_checks == []


def test_a_connection_whose_server_end_died_is_replaced(params, full_checks):
    with ConnectionPool(kwargs=params, min_size=1, max_size=1, check=check_quietly) as pool:
        with pool.connection() as conn:
            pid = conn.info.backend_pid
        with psycopg.connect(**params) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _alive(params, pid):
            time.sleep(0.05)
        with pool.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            assert conn.info.backend_pid != pid
    assert pid in full_checks  # the dead one was asked, found broken and dropped


def _alive(params, pid: int) -> bool:
    with psycopg.connect(**params) as other:
        row = other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    return row is not None
