"""The range of dates and times (tdsystem.core.moments): the one rule the forms and the API
take, the database backends that read every stored value back within it, and the
migration that put right the rows already there. Run on SQLite and on PostgreSQL."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import Max
from django.test import override_settings

from tdsystem.core.log import Text, log_record
from tdsystem.core.models import LogEntry
from tdsystem.core.moments import (
    FIRST_DAY,
    LAST_DAY,
    STORED_FIRST,
    STORED_LAST,
    MomentField,
    moment_stored,
    moment_within,
)
from tdsystem.events import services as events
from tdsystem.events.models import Clock, Event
from tdsystem.events.selectors import clock_read
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

NEW_YORK = "America/New_York"
IN_RANGE = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)


def stored_as(model, pk: int, field: str, text: str) -> None:
    """`text` into the column as the database takes it, past every check of the system
    (SQLite any text; PostgreSQL any timestamp it reads, 4713 BC to the year 294276)."""
    quote = connection.ops.quote_name
    cast = "::timestamptz" if connection.vendor == "postgresql" else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(model._meta.db_table)} SET {quote(field)} = %s{cast} "
            f"WHERE {quote(model._meta.pk.column)} = %s",
            [text, pk],
        )


# The rule ----------------------------------------------------------------------------


def test_the_range_is_read_in_the_installations_time_zone():
    assert (date(2000, 1, 1), date(2100, 12, 31)) == (FIRST_DAY, LAST_DAY)
    with override_settings(TIME_ZONE=NEW_YORK):
        assert moment_within(datetime(2000, 1, 1, 5, 0, tzinfo=UTC))
        assert not moment_within(datetime(2000, 1, 1, 4, 59, 59, tzinfo=UTC))
        assert moment_within(datetime(2100, 12, 31, 23, 59, 59))  # no zone: New York's
        assert not moment_within(datetime(2101, 1, 1, 0, 0))
    with override_settings(TIME_ZONE="UTC"):
        assert moment_within(datetime(2000, 1, 1, tzinfo=UTC))
        assert not moment_within(datetime(2101, 1, 1, 4, 59, tzinfo=UTC))
    # The ends of Python's years compare without a conversion that would overflow.
    for value in (
        datetime.min,
        datetime.max,
        datetime(1, 1, 1, tzinfo=timezone(-timedelta(hours=14))),
    ):
        assert not moment_within(value)


def test_the_form_field_refuses_outside_the_range_and_tells_the_browser():
    field = MomentField(required=False)
    html = field.widget.render("start", None)
    assert 'type="datetime-local"' in html and 'min="2000-01-01T00:00"' in html
    assert 'max="2100-12-31T23:59"' in html
    assert field.clean("2100-12-31T23:59") == datetime(2100, 12, 31, 23, 59, tzinfo=UTC)
    assert field.clean("") is None
    for typed in ("1999-12-31T23:59", "0001-01-01T00:00", "9999-12-31T23:59"):
        with pytest.raises(Exception, match="from 2000-01-01 00:00 to 2100-12-31 23:59"):
            field.clean(typed)
    assert field.widget.format_value(IN_RANGE) == "2026-06-01T18:00"


def test_what_is_read_back_is_held_within_the_range_as_any_time_zone_reads_it():
    assert datetime(1999, 12, 31, 10, 0, tzinfo=UTC) == STORED_FIRST  # 1 January at UTC+14
    assert datetime(2101, 1, 1, 11, 59, 59, 999999, tzinfo=UTC) == STORED_LAST  # at UTC-12
    assert moment_stored(None) is None
    assert moment_stored(IN_RANGE) is IN_RANGE
    assert moment_stored(datetime(1, 1, 1, tzinfo=UTC)) == STORED_FIRST
    assert moment_stored(datetime.max.replace(tzinfo=UTC)) == STORED_LAST


# The backends ------------------------------------------------------------------------


PAST_9999 = "10000-01-01 13:59:59+00"  # what 9999-12-31T23:59:59-14:00 is stored as


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "read"),
    [
        (PAST_9999, STORED_LAST),
        ("0001-01-01 00:00:00+00", STORED_FIRST),
        ("9999-12-31 23:59:00+00", STORED_LAST),
        ("2026-06-01 18:00:00+00", IN_RANGE),
    ]
    + (
        [
            ("infinity", STORED_LAST),
            ("-infinity", STORED_FIRST),
            ("0044-03-15 12:00:00+00 BC", STORED_FIRST),
            ("294276-12-31 23:59:59+00", STORED_LAST),
        ]
        if connection.vendor == "postgresql"
        else [
            ("banana", None),  # no date at all: None, as Django always read it
            ("0000-01-01 00:00:00", None),  # failed the whole query before
            ("2026-13-01 00:00:00", None),
        ]
    ),
)
def test_every_read_of_a_stored_date_is_held_within_the_range(text, read):
    event = make_event(600, 600)
    stored_as(
        Event,
        event.pk,
        "scheduled_start",
        text.removesuffix("+00") if connection.vendor == "sqlite" else text,
    )
    with override_settings(TIME_ZONE=NEW_YORK):
        assert Event.objects.get(pk=event.pk).scheduled_start == read
        assert (
            Event.objects.filter(pk=event.pk).values_list("scheduled_start", flat=True)[0] == read
        )
        assert (
            Event.objects.filter(pk=event.pk).aggregate(last=Max("scheduled_start"))["last"] == read
        )


@pytest.mark.django_db
def test_the_clocks_own_read_holds_a_running_end_within_the_range():
    """clock_read asks the driver itself (every screen's poll): the same guard."""
    event = make_event(600, 600)
    events.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    text = PAST_9999 if connection.vendor == "postgresql" else PAST_9999.removesuffix("+00")
    stored_as(Clock, event.pk, "ends_at", text)
    assert clock_read(event.pk).ends_at == STORED_LAST
    assert Clock.objects.get(pk=event.pk).ends_at == STORED_LAST
    stored_as(Clock, event.pk, "ends_at", "0001-01-01 00:00:00")
    assert clock_read(event.pk).ends_at == STORED_FIRST


# The migration -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_puts_the_rows_out_of_range_right_and_logs_them(caplog):
    call_command("migrate", "venue", "zero", verbosity=0)
    kept = make_event(600, 600, name="Kept", scheduled_start=IN_RANGE)
    late, early = make_event(600, 600, name="Late"), make_event(600, 600, name="Early")
    events.clock_action(event_id=late.pk, action="start", actor=ACTOR)
    past_9999 = PAST_9999 if connection.vendor == "postgresql" else PAST_9999.removesuffix("+00")
    stored_as(Event, late.pk, "scheduled_start", past_9999)
    stored_as(Clock, late.pk, "ends_at", past_9999)
    Event.objects.filter(pk=early.pk).update(scheduled_start=datetime(1, 1, 1, tzinfo=UTC))
    note = log_record(event=None, actor=ACTOR, action="test", summary=Text("A note"))
    LogEntry.objects.filter(pk=note.pk).update(at=datetime(9999, 12, 31, 23, 59, tzinfo=UTC))
    with caplog.at_level(logging.WARNING):
        call_command("migrate", "venue", verbosity=0)
    # Compared in the database: what is stored, not what a read makes of it.
    starts = Event.objects.filter
    assert starts(pk=kept.pk, scheduled_start=IN_RANGE).exists()
    assert starts(pk=late.pk, scheduled_start=STORED_LAST).exists()
    assert starts(pk=early.pk, scheduled_start=STORED_FIRST).exists()
    assert Clock.objects.filter(pk=late.pk, ends_at=STORED_LAST).exists()
    assert LogEntry.objects.filter(pk=note.pk, at=STORED_LAST).exists()
    logged = [r.getMessage() for r in caplog.records if "row(s)" in r.getMessage()]
    last, first = STORED_LAST.isoformat(), STORED_FIRST.isoformat()
    assert logged == [
        f"core.LogEntry.at: 1 row(s) after the range set to {last} (ids {note.pk})",
        f"events.Event.scheduled_start: 1 row(s) past the year 9999 set to {last} (ids {late.pk})",
        f"events.Event.scheduled_start: 1 row(s) before the range set to {first} (ids {early.pk})",
        f"events.Clock.ends_at: 1 row(s) past the year 9999 set to {last} (ids {late.pk})",
    ]
