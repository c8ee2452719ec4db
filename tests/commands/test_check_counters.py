"""check_counters: the counters the triggers keep, compared with the rows they count."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tdsystem.results.services import bustout_record
from tdsystem.seating.models import EventTable
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    event = make_event(600)
    eight = list(range(1, 9))
    people = arrange(event, {1: eight, 2: eight, 3: eight})  # one out: 7, 8 and 8
    bustout_record(event_id=event.pk, entry_ids=[people["T1S3"].pk], actor=ACTOR, rng_seed=1)
    return event


def check(*args: str) -> str:
    out = StringIO()
    call_command("check_counters", *args, stdout=out)
    return out.getvalue()


def raw(sql: str, params: list) -> None:
    """A write around the services and the triggers' bookkeeping: a hand edit."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_counters_kept_by_the_triggers_agree(seated):
    assert check() == "Every counter agrees with the rows it counts.\n"


def test_a_wrong_head_count_is_reported_then_fixed(seated):
    table = EventTable.objects.get(event=seated, number=2)
    raw("UPDATE seating_tablecount SET players = players + 1 WHERE table_id = %s", [table.pk])
    out = StringIO()
    with pytest.raises(CommandError, match="differ from the rows they count"):
        call_command("check_counters", stdout=out)
    lines = out.getvalue().splitlines()
    assert f"seating.TableCount ({table.pk},): stored (9,), counted (8,)" in lines
    # The spread counts follow the head counts (their triggers): the table is counted at 9.
    assert f"seating.SpreadCount ({seated.pk}, 8): stored (1, 9), counted (2, 18)" in lines
    assert f"seating.SpreadCount ({seated.pk}, 9): stored (1, 9), counted (0, 0)" in lines
    assert len(lines) == 3

    fixed = check("--fix").splitlines()
    assert f"seating.TableCount ({table.pk},): stored (9,), counted (8,)" in fixed
    assert fixed[-1] == "Fixed 1 counter row(s)."  # the spread counts followed the fix
    assert check() == "Every counter agrees with the rows it counts.\n"


def test_a_wrong_field_count_is_reported_then_fixed(seated):
    raw(
        "UPDATE results_fieldcount SET active = active + 2, paid_cents = 0 WHERE event_id = %s",
        [seated.pk],
    )
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_counters", stdout=out)
    paid = int(seated.buy_in * 100) * 24
    assert out.getvalue().splitlines() == [
        f"results.FieldCount ({seated.pk},): stored (24, 0, 25, 0), counted (24, 0, 23, {paid})"
    ]
    check("--fix")
    assert check() == "Every counter agrees with the rows it counts.\n"


def test_a_missing_spread_row_is_reported(seated):
    raw("DELETE FROM seating_spreadcount WHERE event_id = %s", [seated.pk])
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_counters", stdout=out)
    assert out.getvalue().splitlines() == [
        f"seating.SpreadCount ({seated.pk}, 7): stored (0, 0), counted (1, 9)",
        f"seating.SpreadCount ({seated.pk}, 8): stored (0, 0), counted (2, 18)",
    ]
    check("--fix")
    assert check() == "Every counter agrees with the rows it counts.\n"


@pytest.mark.django_db(transaction=True)
def test_run_on_its_own_it_reads_one_moment_and_fixes_with_the_writes_held():
    """Outside any transaction: on PostgreSQL the check reads one snapshot and the fix
    holds the counted tables' writes (SQLite: its one write lock) until it is done."""
    event = make_event(600)
    arrange(event, {1: [1, 2, 3]})
    raw("UPDATE results_fieldcount SET entries = 7 WHERE event_id = %s", [event.pk])
    with pytest.raises(CommandError):
        check()
    assert check("--fix").splitlines()[-1] == "Fixed 1 counter row(s)."
    assert check() == "Every counter agrees with the rows it counts.\n"
