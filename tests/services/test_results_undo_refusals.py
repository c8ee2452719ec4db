"""Undo's refusals the floor meets less often, each through the service: the sentence and
nothing written. What was done since is set up in the rows where no service does it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import BustOut, Finish
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

D = Decimal
FULL = list(range(1, 10))


def bust(event, entry, by=()):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[entry.pk],
        eliminated_by=[e.pk for e in by],
        actor=ACTOR,
        rng_seed=7,
    )


def refused(event, done, match: str) -> None:
    with pytest.raises(ResultsError, match=match):
        services.bustout_undo(event_id=event.pk, bustout_id=done.bustout.pk, actor=ACTOR)
    assert BustOut.objects.get(pk=done.bustout.pk).undone_at is None
    assert Finish.objects.filter(bustout=done.bustout, undone_at__isnull=True).exists()


def sit(entry: Entry, number: int, seat: int) -> None:
    table = EventTable.objects.get(event=entry.event, number=number)
    Entry.objects.filter(pk=entry.pk).update(table=table, seat=seat)


def test_a_table_gone_since_refuses(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    done = bust(event, people["T1S2"])
    Finish.objects.filter(bustout=done.bustout).update(from_table=None)
    refused(event, done, "a table these players sat at no longer exists")


def test_a_table_out_of_play_since_refuses(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    done = bust(event, people["T1S2"])
    EventTable.objects.filter(event=event, number=1).update(in_play=False)
    refused(event, done, "table 1 is no longer in play")


def test_a_mover_moved_since_refuses(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    done = bust(event, people["T2S1"])
    (move,) = done.bustout.moves.all()
    mover = Entry.objects.select_related("player").get(pk=move.entry_id)
    sit(mover, move.to_table, 9 if move.to_seat != 9 else 1)
    refused(
        event,
        done,
        f"{mover.player.name} has moved or busted since the move to table "
        f"{move.to_table} seat {move.to_seat}",
    )


def test_a_broken_table_another_event_uses_since_refuses():
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL[:6], 3: [1, 2, 3]}, positions={3: (1, 2, 3)})
    done = bust(event, people["T3S1"])
    assert done.rebalance.broken == [3]
    other = make_event(600, name="Other event")
    seating.tables_setup(event=other, numbers=[3], seats=9, actor=ACTOR)
    refused(event, done, "table 3 broke then and is in use by another event now")


def test_a_pko_head_grown_here_and_paid_on_since_refuses():
    pko = make_event(600, 600, buy_in=D(100), bounty_type="progressive", bounty_amount=D(50))
    people = arrange(pko, {1: FULL, 2: FULL})
    ann, bob = people["T1S1"], people["T1S2"]
    done = bust(pko, bob, by=[ann])  # Ann's head grows by half of Bob's
    # Ann changes tables with Cy (no bust-out at table 1 since), and is out at table 2.
    cy = people["T2S9"]
    Entry.objects.filter(pk=cy.pk).update(table=None, seat=None)
    sit(ann, 2, 9)
    sit(cy, 1, 1)
    bust(pko, ann, by=[people["T2S1"]])
    refused(pko, done, f"#{ann.number} T1S1 won a bounty onto their head here and is out since")
