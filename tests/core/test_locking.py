"""The named locks: taken inside a transaction, in one order, held until it ends."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection, transaction

from tdsystem.core.locking import (
    ORDER,
    Busy,
    LockOrderError,
    event_lock,
    lock_timed_out,
    locks_take,
)
from tdsystem.events.models import Event

pytestmark = pytest.mark.django_db


def test_it_states_the_order_venue_tables_then_event_then_clock():
    assert ORDER == ("venue_table", "event", "clock")


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_lock_outside_a_transaction():
    with pytest.raises(RuntimeError, match="atomic"):
        locks_take(event=1)


def test_it_takes_locks_later_in_the_order_while_holding_earlier_ones():
    with transaction.atomic():
        locks_take(venue_tables=[4, 2])
        locks_take(event=7)
        locks_take(event=7, clock=7)


def test_it_takes_them_in_order_whatever_order_they_are_named_in():
    with transaction.atomic():
        locks_take(clock=7, event=7, venue_tables=[9, 1])


def test_it_refuses_a_lock_earlier_in_the_order_than_one_held():
    with transaction.atomic():
        locks_take(event=7, clock=7)
        with (
            pytest.raises(LockOrderError, match="event 8 asked for while holding clock 7"),
            transaction.atomic(),
        ):
            locks_take(event=8)
        with pytest.raises(LockOrderError, match="venue_table 3"):
            locks_take(venue_tables=[3])


def test_it_counts_a_finished_change_as_letting_go():
    """Services a caller runs one after another in its own transaction are separate
    changes: the order is checked within each, not across them."""
    with transaction.atomic():
        with transaction.atomic():
            locks_take(clock=7)
        with transaction.atomic():
            locks_take(venue_tables=[1], event=7)


def test_it_takes_nothing_when_nothing_is_named():
    with transaction.atomic():
        locks_take()
        locks_take(clock=1)
        locks_take(venue_tables=[])


class _Refused(ValueError):
    pass


def test_event_lock_reads_the_event_after_its_lock(event):
    with transaction.atomic():
        locked = event_lock(Event.objects.select_related("clock"), event.pk, error=_Refused)
        assert locked == event and "clock" in locked._state.fields_cache
        # The event's lock is held: the clock's, later in the order, may follow.
        locks_take(clock=event.pk)


def test_event_lock_takes_the_venue_tables_first_and_refuses_them_after(event):
    with transaction.atomic():
        event_lock(Event.objects, event.pk, error=_Refused, venue_tables=[3])
        with pytest.raises(LockOrderError, match="venue_table 4 asked for while holding event"):
            event_lock(Event.objects, event.pk, error=_Refused, venue_tables=[4])


def test_event_lock_raises_the_callers_error_for_an_event_gone():
    with transaction.atomic(), pytest.raises(_Refused, match="There is no event 999999"):
        event_lock(Event.objects, 999999, error=_Refused)


def test_busy_says_try_again():
    assert str(Busy()) == "Someone else is changing this event right now: try again in a moment."
    assert lock_timed_out(Busy())


class _Cause(Exception):
    def __init__(self, sqlstate):
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("sqlstate", "timed_out"), [("55P03", True), ("40P01", True), ("57014", False), (None, False)]
)
def test_it_tells_a_lock_timeout_from_other_errors(sqlstate, timed_out):
    error = OperationalError("x")
    error.__cause__ = _Cause(sqlstate)
    assert lock_timed_out(error) is timed_out
    assert lock_timed_out(ValueError("x")) is False


@pytest.mark.postgres
def test_on_postgresql_the_locks_are_held_until_the_transaction_ends():
    def held() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_locks"
                " WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
            )
            return cursor.fetchone()[0]

    before = held()
    with transaction.atomic():
        locks_take(venue_tables=[1, 2], event=5, clock=5)
        assert held() == before + 4
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == "3s"
