"""field_read counts an event's field from its entries alone, in one statement."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.results.services import standings
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal


def test_it_counts_the_entries_the_players_in_and_the_pool():
    event = make_event(600, name="Counted")
    people = arrange(event, {1: [1, 2, 3, 4]})
    Entry.objects.filter(pk=people["T1S1"].pk).update(
        status=Entry.Status.BUSTED, table=None, seat=None
    )
    assert standings.field_read(event) == standings.Field(4, 3, D(400))


def test_it_sums_a_pool_of_cents_exactly():
    event = make_event(600, name="Cents")
    people = arrange(event, {1: [1, 2, 3]})
    for name, paid in (("T1S1", "33.33"), ("T1S2", "33.33"), ("T1S3", "33.34")):
        Entry.objects.filter(pk=people[name].pk).update(paid=D(paid))
    fld = standings.field_read(event)
    assert fld.pool == D("100.00") and isinstance(fld.pool, Decimal)


def test_it_counts_no_other_event_and_an_empty_field_is_nothing():
    event = make_event(600, name="Empty")
    other = make_event(600, name="Beside")
    arrange(other, {1: [1, 2]})
    assert standings.field_read(event) == standings.Field(0, 0, D(0))
