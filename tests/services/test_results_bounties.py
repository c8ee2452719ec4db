"""Bounties at the bust-out: who eliminated whom, knockout and PKO payments, the prize
pool of the places without the heads, undo, and the winner's own head."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Bounty, Finish
from tdsystem.results.selectors import bounty_totals, prizes_now
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db
D = Decimal


def bust(event, *entries, by=(), stacks=None):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[e.pk for e in entries],
        stacks={e.pk: s for e, s in zip(entries, stacks, strict=True)} if stacks else None,
        eliminated_by=[e.pk for e in by],
        actor=ACTOR,
        rng_seed=3,
    )


def won(event) -> dict[str, Decimal]:
    totals = bounty_totals(event)
    return {
        f.entry.player.name: totals.won.get(f.entry_id, D(0))
        for f in Finish.objects.filter(event=event).select_related("entry__player")
    }


@pytest.fixture
def pko(db):
    return make_event(600, 600, buy_in=D(100), bounty_type="progressive", bounty_amount=D(50))


def test_a_bounty_event_refuses_a_bustout_without_the_eliminator(pko):
    people = arrange(pko, {1: [1, 2, 3]})
    with pytest.raises(ResultsError, match="bounty event") as caught:
        bust(pko, people["T1S1"])
    assert caught.value.field == "eliminated_by"
    assert Finish.objects.count() == 0


def test_an_event_without_bounties_records_the_eliminator_and_pays_nothing(event):
    people = arrange(event, {1: [1, 2, 3]})
    bust(event, people["T1S1"], by=[people["T1S2"]])
    row = Bounty.objects.get()
    assert (row.eliminated_id, row.eliminator_id, row.paid) == (
        people["T1S1"].pk,
        people["T1S2"].pk,
        D(0),
    )


def test_it_refuses_an_eliminator_at_another_table(pko):
    people = arrange(pko, {1: [1, 2, 3], 2: [1, 2, 3]})
    with pytest.raises(ResultsError, match="does not sit at table 1"):
        bust(pko, people["T1S1"], by=[people["T2S1"]])


def test_pko_pays_half_and_grows_the_head_and_the_winner_collects_theirs(pko):
    people = arrange(pko, {1: [1, 2, 3]})
    a, b, c = people["T1S1"], people["T1S2"], people["T1S3"]
    bust(pko, c, by=[b])  # b: 25 paid, head 75
    bust(pko, b, by=[a])  # a: 37.50 paid, head 50 + 37.50
    assert won(pko) == {"T1S3": D(0), "T1S2": D(25), "T1S1": D("125.00")}
    totals = bounty_totals(pko)
    assert sum(totals.won.values()) == D(150) and totals.heads == {}


def test_the_places_pool_leaves_the_bounties_out(pko):
    arrange(pko, {1: [1, 2, 3, 4]})
    assert prizes_now(pko).pool == D(200)  # 4 x 100 buy-in, 4 x 50 of it bounties


def test_a_split_pot_shares_a_knockout_bounty_exactly(db):
    ko = make_event(600, buy_in=D(100), bounty_type="knockout", bounty_amount=D("0.05"))
    people = arrange(ko, {1: [1, 2, 3, 4]})
    bust(ko, people["T1S4"], by=[people["T1S2"], people["T1S3"]])
    rows = {r.eliminator_id: r.paid for r in Bounty.objects.all()}
    assert sorted(rows.values()) == [D("0.02"), D("0.03")]


def test_undo_takes_the_bounty_and_the_head_back(pko):
    people = arrange(pko, {1: [1, 2, 3, 4]})
    done = bust(pko, people["T1S4"], by=[people["T1S2"]])
    services.bustout_undo(event_id=pko.pk, bustout_id=done.bustout.pk, actor=ACTOR)
    totals = bounty_totals(pko)
    assert totals.won == {} and set(totals.heads.values()) == {D(50)}


def test_undo_is_refused_once_the_grown_head_was_paid_on(pko):
    people = arrange(pko, {1: [1, 2, 3, 4]})
    first = bust(pko, people["T1S4"], by=[people["T1S2"]])
    bust(pko, people["T1S2"], by=[people["T1S1"]])
    with pytest.raises(ResultsError):
        services.bustout_undo(event_id=pko.pk, bustout_id=first.bustout.pk, actor=ACTOR)
