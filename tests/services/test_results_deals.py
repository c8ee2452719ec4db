"""Deals among the players left: made from the latest counts, recorded, logged, cancelled."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import ChipCount, ChipCountHistory, Deal
from tdsystem.results.services import deals
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def four(event):
    """Four players left, all four paid: 160 / 120 / 80 / 40 (top-4 of a 400 pool)."""
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.payout_plan_update(event_id=event.pk, table="top-4", unit=1, actor=ACTOR)
    return event, people


def count(event, people, **stacks):
    for name, chips in stacks.items():
        services.chip_count_record(
            event_id=event.pk, entry_number=people[name].number, chips=chips, actor=ACTOR
        )


def test_it_previews_a_chip_chop_beside_the_place_prizes(four):
    event, people = four
    count(event, people, T1S1=40_000, T1S2=30_000, T1S3=20_000, T1S4=10_000)
    preview = deals.deal_preview(event=event, method="chip-chop")
    assert [r.entry.player.name for r in preview.rows] == ["T1S1", "T1S2", "T1S3", "T1S4"]
    assert [r.place_prize for r in preview.rows] == [D(160), D(120), D(80), D(40)]
    # 40 each, and the other 240 by chips 4:3:2:1.
    assert [r.amount for r in preview.rows] == [D(136), D(112), D(88), D(64)]
    assert not Deal.objects.exists()


def test_it_records_the_deal_with_its_amounts_and_logs_it(four):
    event, people = four
    count(event, people, T1S1=40_000, T1S2=30_000, T1S3=20_000, T1S4=10_000)
    deal = deals.deal_make(event_id=event.pk, method="icm", actor=ACTOR)
    shares = {s.entry.player.name: s.amount for s in deal.shares.all()}
    assert sum(shares.values()) == D(400)
    assert shares["T1S1"] > shares["T1S2"] > shares["T1S3"] > shares["T1S4"]
    assert deals.deal_amounts(event) == {people[n].number: a for n, a in shares.items()}
    log = LogEntry.objects.get(event=event, action="results.deal")
    assert "Deal (icm) of 4 players" in log.summary


def test_counts_typed_for_the_deal_become_the_latest_counts(four):
    event, people = four
    count(event, people, T1S1=40_000, T1S2=30_000, T1S3=20_000, T1S4=10_000)
    typed = {people["T1S4"].pk: 25_000}
    deal = deals.deal_make(event_id=event.pk, method="chip-chop", chips=typed, actor=ACTOR)
    assert deal.shares.get(entry=people["T1S4"]).chips == 25_000
    assert ChipCount.objects.get(entry=people["T1S4"]).chips == 25_000
    assert ChipCountHistory.objects.filter(entry=people["T1S4"]).count() == 2
    assert ChipCountHistory.objects.filter(entry=people["T1S1"]).count() == 1


def test_it_keeps_back_an_amount_to_play_for(four):
    event, people = four
    count(event, people, T1S1=10_000, T1S2=10_000, T1S3=10_000, T1S4=10_000)
    deal = deals.deal_make(event_id=event.pk, method="chip-chop", play_for=D(40), actor=ACTOR)
    assert sorted(s.amount for s in deal.shares.all()) == [D(90)] * 4
    assert deal.play_for == D(40) and deal.total == D(400)


def test_it_refuses_when_a_count_is_missing(four):
    event, people = four
    count(event, people, T1S1=40_000, T1S2=30_000, T1S3=20_000)
    with pytest.raises(ResultsError, match="no chip count for #4"):
        deals.deal_make(event_id=event.pk, method="icm", actor=ACTOR)
    assert not Deal.objects.exists()


def test_it_refuses_counts_adding_up_to_nothing(four):
    event, people = four
    zero = {e.pk: 0 for e in people.values()}
    with pytest.raises(ResultsError, match="add up to 0"):
        deals.deal_preview(event=event, method="icm", chips=zero)


def test_it_refuses_more_players_than_paid_places(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    services.payout_plan_update(event_id=event.pk, table="top-3", actor=ACTOR)
    count(event, people, T1S1=4, T1S2=3, T1S3=2, T1S4=1)
    with pytest.raises(ResultsError, match="4 players left but only 3 paid place"):
        deals.deal_preview(event=event, method="icm")


def test_it_refuses_a_second_deal_and_cancels_the_first(four):
    event, people = four
    count(event, people, T1S1=4, T1S2=3, T1S3=2, T1S4=1)
    first = deals.deal_make(event_id=event.pk, method="icm", actor=ACTOR)
    with pytest.raises(ResultsError, match="already stands"):
        deals.deal_make(event_id=event.pk, method="chip-chop", actor=ACTOR)
    deals.deal_cancel(event_id=event.pk, actor=ACTOR)
    first.refresh_from_db()
    assert first.cancelled_at is not None and deals.deal_amounts(event) == {}
    assert LogEntry.objects.filter(event=event, action="results.deal_cancel").exists()
    again = deals.deal_make(event_id=event.pk, method="chip-chop", actor=ACTOR)
    assert again.pk != first.pk


def test_it_refuses_to_cancel_once_the_event_is_finished(four):
    event, people = four
    count(event, people, T1S1=4, T1S2=3, T1S3=2, T1S4=1)
    deals.deal_make(event_id=event.pk, method="icm", actor=ACTOR)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ResultsError, match="no longer be cancelled"):
        deals.deal_cancel(event_id=event.pk, actor=ACTOR)
