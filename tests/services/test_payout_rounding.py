"""Prizes are rounded to the event's unit by default; a unit that leaves a paid place with
nothing is refused, with the reason and a unit that works, and changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import PayoutPlan
from tdsystem.results.services import standings
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def five(event):
    """Five entries of 100: a pool of 500."""
    arrange(event, {1: [1, 2, 3, 4, 5]})
    return event


def test_prizes_are_rounded_to_a_tenth_of_the_buy_in_by_default(five):
    plan = standings.plan_or_default(five)
    assert plan.unit is None and plan.rounding == D(10)  # automatic: a buy-in of 100
    services.payout_plan_update(event_id=five.pk, table="top-4", percentages=(), actor=ACTOR)
    # 500 by 40/30/20/10 at the unit 10: round amounts that add up to the pool.
    assert standings.prizes_by_place(PayoutPlan.objects.get(event=five), 5, D(500)) == (
        D(200),
        D(150),
        D(100),
        D(50),
    )


@pytest.mark.parametrize(
    ("buy_in", "unit"),
    [("15000", "1000"), ("100", "10"), ("55", "5"), ("5.50", "0.5"), ("0", "1"), ("0.05", "1")],
)
def test_the_automatic_unit_is_a_usual_one_at_most_a_tenth_of_the_buy_in(buy_in, unit):
    from tdsystem.engine.payouts import auto_unit

    assert auto_unit(D(buy_in)) == D(unit)


def test_a_unit_that_leaves_a_place_with_nothing_is_refused_with_the_reason(five):
    services.payout_plan_update(event_id=five.pk, table="top-3", unit=D(5), actor=ACTOR)
    logged = LogEntry.objects.filter(event=five).count()
    # 3rd place's share of 500 is 100: a unit of 200 pays it nothing.
    with pytest.raises(ResultsError) as refused:
        services.payout_plan_update(event_id=five.pk, table="top-3", unit=D(200), actor=ACTOR)
    assert refused.value.field == "unit"
    message = str(refused.value)
    assert "place 3 with nothing" in message
    assert "its share of the 500 pool is 100" in message
    assert "round to 100 or less" in message
    plan = PayoutPlan.objects.get(event=five)
    assert plan.unit == D(5)  # unchanged
    assert LogEntry.objects.filter(event=five).count() == logged


def test_a_plan_set_before_anyone_registered_is_not_refused(event):
    services.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1000), actor=ACTOR)
    assert PayoutPlan.objects.get(event=event).unit == D(1000)


def test_a_grown_field_that_a_stored_unit_no_longer_pays_is_reported(five):
    plan = PayoutPlan.objects.create(event=five, table="top-5", unit=D(100))
    # 500 by 38/25/17/12/8 at 100: 200/100/100/100/0.
    message = standings.unpaid_message(plan, 5, D(500))
    assert message is not None and "place 5 with nothing" in message
    assert "round to 50 or less" in message
    assert standings.unpaid_message(plan, 5, D(5000)) is None


@pytest.mark.django_db(transaction=True)
def test_events_made_before_automatic_rounding_keep_the_unit_of_one():
    from django.core.management import call_command

    from tests.fixtures import make_event

    call_command("migrate", "results", "0005", verbosity=0)
    planless = make_event(600, name="Old Friday")
    planned = make_event(600, name="Old Saturday")
    PayoutPlan.objects.create(event=planned, table="top-3", unit=D(5))
    call_command("migrate", "results", verbosity=0)
    assert PayoutPlan.objects.get(event=planless).unit == D(1)
    assert PayoutPlan.objects.get(event=planned).unit == D(5)
    # Made after: automatic.
    assert standings.plan_or_default(make_event(600, name="New Friday")).unit is None
