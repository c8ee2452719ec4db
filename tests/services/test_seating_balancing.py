"""Bust-outs and what they set off: balancing, breaking tables, redraws.

Players bust through the one bust-out service (results' `bustout_record`), as every page
and the API record them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdsystem.core.models import LogEntry
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Finish
from tdsystem.results.services import bustout_record
from tdsystem.seating import balancing, services
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.simulation.seatings import ACTOR, arrange, field, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def bust(event, entry, seed: int = 7):
    """One player out on a hand of their own: (what was recorded, the rebalance)."""
    recorded = bustout_record(event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=seed)
    return recorded, recorded.rebalance


def counts(event) -> dict[int, int]:
    rows = Entry.objects.filter(event=event, table__isnull=False)
    return dict(Counter(rows.values_list("table__number", flat=True)))


def test_it_frees_the_seat_and_gives_the_place_of_the_bust(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    recorded, _ = bust(event, people["T1S2"])
    entry = Entry.objects.get(pk=people["T1S2"].pk)
    assert (entry.status, entry.table, entry.seat) == ("busted", None, None)
    assert recorded.finishes[0].place == 4
    other, _ = bust(event, people["T1S4"])
    assert other.finishes[0].place == 3
    with pytest.raises(ResultsError, match="already out"):
        bust(event, people["T1S4"])
    assert LogEntry.objects.filter(action="bustout.record").count() == 2


def test_it_moves_the_next_big_blind_into_the_next_big_blind_seat_of_the_short_table(event):
    # Table 1 is full with blinds on 6 and 7: seat 8 is its next big blind. Table 2 has
    # seat 9 empty and its next big blind (seat 4) busts: 7 players against 9.
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    _, result = bust(event, people["T2S4"])
    assert result.kind == "balance"
    (move,) = result.moves
    assert (move.entry_id, move.from_table, move.from_seat) == (people["T1S8"].pk, 1, 8)
    # TDA 11-A: the worst seat, the one posting the big blind next, even though this
    # player was about to post one at the old table.
    assert (move.to_table, move.to_seat, move.reason, move.dealt_in) == (2, 4, "balance", True)
    assert counts(event) == {1: 8, 2: 8}
    table = services.table_hand_finish(
        event_id=event.pk, table_number=2, expected_hand=0, actor=ACTOR
    )
    assert table.big_blind == 4
    assert "T1S8: table 1 seat 8 to table 2 seat 4" in str(Move.objects.get())


def test_it_leaves_tables_within_the_event_threshold_alone():
    event = make_event(600, balance_threshold=2)
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    _, result = bust(event, people["T2S4"])
    assert result.kind is None and not Move.objects.exists()


def test_it_breaks_the_next_table_in_the_break_order(event):
    people = arrange(event, {1: FULL[:6], 2: FULL[:6], 3: FULL[:6]})
    _, result = bust(event, people["T1S1"])  # 17 players fit two tables of 9
    assert (result.kind, result.broken) == ("break", [3])
    assert len(result.moves) == 6 and {m.reason for m in result.moves} == {"break"}
    assert {m.from_table for m in result.moves} == {3}
    broken = EventTable.objects.get(event=event, number=3)
    assert (broken.in_play, broken.broken_at is not None) == (False, True)
    assert sorted(counts(event).values()) == [8, 9]
    assert seating_problems(event) == []
    assert LogEntry.objects.get(action="seats.break").data["broken"] == [3]


def test_it_breaks_the_table_the_director_put_first(event):
    people = arrange(event, {1: FULL[:6], 2: FULL[:6], 3: FULL[:6]})
    services.tables_reorder(event_id=event.pk, numbers=[2], actor=ACTOR)
    _, result = bust(event, people["T1S1"])
    assert result.broken == [2]


def test_it_redraws_the_final_table_once_the_players_fit(event):
    people = arrange(event, {1: [1, 3, 5, 7, 9], 2: [2, 4, 6, 8, 9]})
    _, result = bust(event, people["T2S9"])  # 9 players: the final table of a 9-handed event
    assert result.kind == "redraw" and result.broken == [2]
    assert len(result.moves) == 9 and {m.reason for m in result.moves} == {"redraw"}
    assert counts(event) == {1: 9}
    final = EventTable.objects.get(event=event, number=1)
    assert None not in (final.button, final.small_blind, final.big_blind)
    assert LogEntry.objects.get(action="seats.redraw").summary.startswith("Final table redraw")


def test_it_seats_nine_at_the_final_table_of_an_eight_handed_event():
    event = make_event(600, seats_per_table=8)
    people = arrange(event, {1: [1, 2, 3, 4, 5], 2: [1, 2, 3, 4, 5]}, seats=8)
    bust(event, people["T2S5"])
    final = EventTable.objects.get(event=event, number=1)
    assert final.seats == 9 and counts(event) == {1: 9}


def test_it_redraws_into_two_tables_on_the_directors_word(event):
    arrange(event, {1: FULL[:6], 2: FULL[:6], 3: FULL[:6]})
    with pytest.raises(SeatingError, match="do not fit"):
        balancing.tables_redraw(event_id=event.pk, table_count=1, actor=ACTOR)
    result = balancing.tables_redraw(event_id=event.pk, table_count=2, actor=ACTOR, rng_seed=5)
    assert result.broken == [3] and len(result.moves) == 18
    assert counts(event) == {1: 9, 2: 9}
    assert Move.objects.filter(reason="redraw").count() == 18
    with pytest.raises(SeatingError, match="1, 2 or 3") as error:
        balancing.tables_redraw(event_id=event.pk, table_count=4, actor=ACTOR)
    assert error.value.field == "tables"


def test_it_keeps_every_player_seated_while_the_field_shrinks_to_the_final_table(event):
    field(event, players=40, tables=5, seed=3)
    rng = random.Random(11)
    while Entry.objects.filter(event=event, status="active").count() > 9:
        active = list(Entry.objects.filter(event=event, status="active"))
        bust(event, rng.choice(active), seed=rng.randrange(1000))
        assert seating_problems(event) == []
    assert len(counts(event)) == 1
    places = Finish.objects.filter(event=event, undone_at=None).values_list("place", flat=True)
    assert sorted(places) == list(range(10, 41))


def test_it_makes_the_same_number_of_queries_for_30_or_300_entries():
    def queries_for_one_bust(players: int, first: int) -> int:
        event = make_event(600, name=f"{players} players")
        field(event, players=players, tables=players // 8 + 1, first=first)
        per_table = counts(event)
        shortest = min(per_table, key=per_table.get)
        victim = Entry.objects.filter(event=event, table__number=shortest).first()
        with CaptureQueriesContext(connection) as queries:
            _, result = bust(event, victim)
        assert result.kind == "balance" and len(result.moves) == 1
        return len(queries)

    small = queries_for_one_bust(30, first=1)
    large = queries_for_one_bust(300, first=101)
    assert large == small


def test_it_stays_under_the_query_budget(event, django_assert_max_num_queries):
    field(event, players=300, tables=38)
    per_table = counts(event)
    victim = Entry.objects.filter(event=event, table__number=min(per_table, key=per_table.get))
    # The whole bust-out as production runs it: the finish with its place and prize (the
    # first of the field works the prizes out), the undo record, the balancing move.
    with django_assert_max_num_queries(40):
        bust(event, victim.first())
