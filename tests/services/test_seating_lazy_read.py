"""A bust-out's rebalance reads the seat map lazily: the same moves as from every seat.

`tables_rebalance` plans from the head counts and reads only the tables its plan needs
(`SeatMap.read_lazily`). Here the same state is planned and written both ways, from the
whole seat map and lazily, and must end alike: the same move slips, the same tables.
"""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from tdsystem.engine import seating as rules
from tdsystem.seating import balancing
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.seating.seatmap import SeatMap, plan_apply
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

# Up to this many players the final table may be due (ten seats): the seat map is read in
# full then, to see whether it is. The layouts seat more.
READ_IN_FULL = 10


def layout(seed: int, game: str):
    """Four to nine tables of nine, three players or more at each (odd seeds: eight or
    nine, five at table 1): positions after a few hands and seats left since (dead
    blinds), some tables not dealt yet, one empty table still storing positions, a few
    players held."""
    rng = random.Random(seed)
    seats, positions = {}, {}
    full = seed % 2  # nearly full tables, one short: balancing moves, no break
    for number in range(1, rng.randint(4, 9) + 1):
        players = rng.randint(8, 9) if full else rng.randint(4, 9)
        table = rules.Table(number, 9, {s: s for s in rng.sample(range(1, 10), players)})
        if rng.random() < 0.8:
            table = rules.start_hands(table, rng)
            for _ in range(rng.randint(0, 3)):
                table = rules.next_hand(table)
        left = (table.count - 5 if number == 1 else 0) if full else rng.randint(0, table.count - 3)
        for entry in rng.sample(table.entries, left):
            table = table.without_entry(entry)
        seats[number] = list(table.occupied_seats)
        if table.started:
            positions[number] = (table.button, table.small_blind, table.big_blind)
    seats[99], positions[99] = [], (1, 2, 3)
    event = make_event(600, 600, game=game)
    people = arrange(event, seats, positions=positions)
    for entry in rng.sample(sorted(people.values(), key=lambda e: e.pk), 3):
        if rng.random() < 0.5:
            Entry.objects.filter(pk=entry.pk).update(reserved_seat=rng.randint(1, 9))
        else:
            Entry.objects.filter(pk=entry.pk).update(do_not_move=True)
    EventTable.objects.filter(event=event).update(break_rank=0)
    order = rng.sample(sorted(seats), len(seats))
    for rank, number in enumerate(order):
        EventTable.objects.filter(event=event, number=number).update(break_rank=rank)
    return event


def outcome(event) -> tuple:
    moves = sorted(
        Move.objects.filter(event=event).values_list(
            "entry_id", "from_table", "from_seat", "to_table", "to_seat", "reason", "dealt_in"
        )
    )
    tables = sorted(
        EventTable.objects.filter(event=event).values_list(
            "number", "in_play", "button", "small_blind", "big_blind", "seats"
        )
    )
    seats = sorted(Entry.objects.filter(event=event).values_list("pk", "table__number", "seat"))
    return moves, tables, seats


class Undone(Exception):
    pass


def from_every_seat(event, seed: int) -> tuple:
    """What planning from the whole seat map writes, rolled back afterwards."""
    try:
        with transaction.atomic():
            seatmap = SeatMap.read(event)
            rng = random.Random(seed)
            plan = balancing.rebalance_plan(event, seatmap, rng)
            if plan.moves or plan.broken:
                plan_apply(seatmap, plan, rng)
            found = outcome(event)
            raise Undone
    except Undone:
        return found


@pytest.mark.parametrize("game", ["holdem", "stud"])
@pytest.mark.parametrize("seed", range(12))
def test_it_moves_the_players_the_whole_seat_map_would(seed, game, monkeypatch):
    event = layout(seed, game)
    expected = from_every_seat(event, seed)

    def every_seat(*args, **kwargs):
        raise AssertionError("a rebalance without a redraw in reach reads every seat")

    assert Entry.objects.filter(event=event, table__isnull=False).count() > READ_IN_FULL
    with monkeypatch.context() as patch:
        patch.setattr(SeatMap, "read", every_seat)
        balancing.tables_rebalance(event_id=event.pk, actor=ACTOR, rng_seed=seed)
    assert outcome(event) == expected
