"""The clock JSON's own read of the clock row: counted, wrapped and fresh like any query."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection

from tdsystem.core.actors import Actor
from tdsystem.events import selectors, services

pytestmark = pytest.mark.django_db


def test_it_is_counted_as_one_query(event, django_assert_num_queries):
    with django_assert_num_queries(1) as captured:
        selectors.clock_read(event.pk)
    assert str(event.pk) in captured.captured_queries[0]["sql"]


def test_an_execute_wrapper_sees_it():
    seen = []

    def wrapper(execute, sql, params, many, context):
        seen.append(params)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        assert selectors.clock_read(10**9) is None
    assert seen == [[10**9] * 5]  # the clock's row and its event's family's changes


def test_a_database_error_is_djangos(monkeypatch):
    monkeypatch.setattr(selectors, "_clock_sql", lambda *_: "SELECT * FROM no_such_table")
    with pytest.raises(DatabaseError):
        selectors.clock_read(1)


def test_it_reads_what_was_just_written_on_the_same_connection(event):
    before = selectors.clock_read(event.pk)
    services.clock_action(event_id=event.pk, action="start", actor=Actor())
    after = selectors.clock_read(event.pk)
    assert after.version == before.version + 1 and after.status == "running"
