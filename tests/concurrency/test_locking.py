"""The named locks between two connections, on PostgreSQL with threads."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction

from tdsystem.core.locking import Busy, locks_take
from tests.concurrency.threads import errors_of, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def hold(release: threading.Event, taken: threading.Event, **names):
    def job():
        with transaction.atomic():
            locks_take(**names)
            taken.set()
            release.wait(10)
        return "held"

    return job


def test_a_second_change_waiting_past_the_timeout_is_told_busy(settings):
    settings.LOCK_TIMEOUT_SECONDS = 0.3
    release, taken = threading.Event(), threading.Event()

    def second():
        taken.wait(5)
        try:
            with transaction.atomic():
                locks_take(event=1, clock=1)
                return "got it"
        finally:
            release.set()

    results = run_together(hold(release, taken, event=1), second)
    assert results[0] == "held"
    assert isinstance(results[1], Busy)
    assert str(results[1]) == (
        "Someone else is changing this event right now: try again in a moment."
    )


def test_a_second_change_gets_the_lock_once_the_first_commits(settings):
    settings.LOCK_TIMEOUT_SECONDS = 5
    release, taken = threading.Event(), threading.Event()

    def second():
        taken.wait(5)
        threading.Timer(0.2, release.set).start()
        with transaction.atomic():
            locks_take(event=1)
            return "got it"

    assert run_together(hold(release, taken, event=1), second) == ["held", "got it"]


def test_other_events_and_tables_do_not_wait(settings):
    settings.LOCK_TIMEOUT_SECONDS = 0.3
    release, taken = threading.Event(), threading.Event()

    def other():
        taken.wait(5)
        try:
            with transaction.atomic():
                locks_take(venue_tables=[2], event=2, clock=1)
                return "got it"
        finally:
            release.set()

    results = run_together(hold(release, taken, venue_tables=[1], event=1), other)
    assert results == ["held", "got it"]


def test_without_the_fixed_order_two_changes_deadlock():
    """The hazard the order removes: each takes one lock, then wants the other's."""
    both_hold_one = threading.Barrier(2)

    def taking(first, second):
        def job():
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(1, %s)", [first])
                both_hold_one.wait(5)
                cursor.execute("SELECT pg_advisory_xact_lock(1, %s)", [second])
            return "done"

        return job

    errors = errors_of(run_together(taking(1, 2), taking(2, 1)))
    assert len(errors) == 1 and isinstance(errors[0], OperationalError)
    assert errors[0].__cause__.sqlstate == "40P01"  # deadlock detected


def test_two_changes_naming_the_locks_in_opposite_orders_do_not_deadlock(settings):
    settings.LOCK_TIMEOUT_SECONDS = 10
    rounds = 30
    start = threading.Barrier(2)

    def naming(forwards: bool):
        def job():
            for _ in range(rounds):
                start.wait(5)
                with transaction.atomic():
                    if forwards:
                        locks_take(venue_tables=[1, 2], event=1, clock=1)
                    else:
                        locks_take(clock=1, event=1, venue_tables=[2, 1])
            return "done"

        return job

    assert run_together(naming(True), naming(False)) == ["done", "done"]
