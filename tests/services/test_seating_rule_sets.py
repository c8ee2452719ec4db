"""The seating follows the event's rule set: the same field under TDA 2024 and WSOP 2026
redraws or not, forms a final table of nine or ten, takes the player from another table,
balances tighter late, and under TDA 2026 moves a dead button over empty seats."""

from __future__ import annotations

from collections import Counter

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.engine import rulesets
from tdsystem.results.services import bustout_record
from tdsystem.seating import balancing, services
from tdsystem.seating.models import Entry, EventTable, Move, Player
from tdsystem.simulation.seatings import ACTOR, arrange, seating_problems
from tdsystem.venue.selectors import copy_tables
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def event_under(rule_set: str, **settings):
    return make_event(600, name=f"Event under {rule_set}", rule_set=rule_set, **settings)


def bust(event, entry):
    return bustout_record(
        event_id=event.pk, entry_ids=[entry.pk], actor=ACTOR, rng_seed=7
    ).rebalance


def counts(event) -> dict[int, int]:
    rows = Entry.objects.filter(event=event, table__isnull=False)
    return dict(Counter(rows.values_list("table__number", flat=True)))


def earlier_entries(event, how_many: int) -> None:
    """Entries already out, so the field counts them (re-entries and busts alike)."""
    first = Entry.objects.filter(event=event).count()
    for number in range(first + 1, first + how_many + 1):
        Entry.objects.create(
            event=event,
            player=Player.objects.create(name=f"Out {event.pk}-{number}"),
            number=number,
            chips=0,
            paid=event.buy_in,
            status=Entry.Status.BUSTED,
        )


@pytest.mark.parametrize(
    ("rule_set", "kind", "moves"),
    [(rulesets.TDA_2024, "break", 7), (rulesets.WSOP_2026, "redraw", 18)],
)
def test_at_two_tables_wsop_redraws_and_tda_breaks_a_table(rule_set, kind, moves):
    event = event_under(rule_set)
    people = arrange(event, {1: FULL[:6], 2: FULL[:6], 3: FULL[:7]})
    earlier_entries(event, 40)  # 59 entries: WSOP redraws at 2 and 1 tables
    result = bust(event, people["T1S1"])  # 18 players fit two tables
    assert (result.kind, result.broken, len(result.moves)) == (kind, [3], moves)
    assert sorted(counts(event).values()) == [9, 9]
    if kind == "redraw":
        log = LogEntry.objects.get(action="seats.redraw")
        assert log.summary.startswith("Redraw: 18 players to table 1, 2")
        assert log.summary.endswith(f"({event.cite('redraw')})")
        assert (log.data["automatic"], log.data["tables"]) == (True, 2)
    assert seating_problems(event) == []


def test_a_small_wsop_field_does_not_redraw_at_two_tables():
    event = event_under(rulesets.WSOP_2026)
    people = arrange(event, {1: FULL[:6], 2: FULL[:6], 3: FULL[:7]})  # 19 entries
    result = bust(event, people["T1S1"])
    assert result.kind == "break"


def test_the_wsop_final_table_seats_ten_at_a_nine_handed_event():
    event = event_under(rulesets.WSOP_2026)
    people = arrange(event, {1: FULL[:6], 2: FULL[:5]})
    result = bust(event, people["T1S1"])  # ten left
    assert result.kind == "redraw" and len(result.moves) == 10
    final = EventTable.objects.get(event=event, number=1)
    assert (final.seats, counts(event)) == (10, {1: 10})
    assert set(Entry.objects.filter(event=event, table=final).values_list("seat", flat=True)) == {
        *range(1, 11)
    }
    log = LogEntry.objects.get(action="seats.redraw")
    assert log.summary == "Final table redraw: 10 players to table 1 (WSOP R68)"
    assert log.data["rule"] == "WSOP R68"
    # The final table deals with its ten seats.
    row = services.table_hand_finish(
        event_id=event.pk, table_number=1, expected_hand=0, actor=ACTOR
    )
    assert row.seats == 10 and row.big_blind is not None
    # A copy of the event sets its tables up as the event's were, not as the final table.
    assert services.tables_seats(event) == 9
    assert copy_tables(event).seats == 9


def test_under_tda_ten_players_stay_at_two_tables_and_nine_combine():
    event = event_under(rulesets.TDA_2024)
    people = arrange(event, {1: FULL[:6], 2: FULL[:5]})
    assert bust(event, people["T1S1"]).kind is None
    result = bust(event, people["T1S2"])
    assert result.kind == "redraw"
    assert EventTable.objects.get(event=event, number=1).seats == 9
    assert LogEntry.objects.get(action="seats.redraw").summary.endswith("(TDA 2024)")


def test_a_manual_redraw_into_the_final_table_uses_the_rule_sets_size():
    event = event_under(rulesets.WSOP_2026)
    arrange(event, {1: FULL[:5], 2: FULL[:5]})
    result = balancing.tables_redraw(event_id=event.pk, table_count=1, actor=ACTOR, rng_seed=3)
    assert len(result.moves) == 10
    assert EventTable.objects.get(event=event, number=1).seats == 10
    log = LogEntry.objects.get(action="seats.redraw")
    assert (log.data["automatic"], log.data["rule"]) == (False, "WSOP R68")


@pytest.mark.parametrize(("rule_set", "giver"), [(rulesets.TDA_2024, 20), (rulesets.WSOP_2026, 6)])
def test_in_a_large_field_wsop_takes_the_player_from_the_next_full_table(rule_set, giver):
    event = event_under(rule_set)
    layout = {number: FULL for number in range(1, 21)}
    layout[5] = FULL[:8]
    people = arrange(event, layout)
    result = bust(event, people["T5S1"])
    (move,) = result.moves
    # TDA: a largest table, the first to break (the highest number). WSOP R67, 20 tables
    # or more: the next numbered full table after the short table 5.
    assert (move.from_table, move.to_table, move.reason) == (giver, 5, "balance")


@pytest.mark.parametrize(("rule_set", "moves"), [(rulesets.TDA_2024, 0), (rulesets.WSOP_2026, 1)])
def test_at_twelve_tables_or_fewer_wsop_balances_within_one_player(rule_set, moves):
    event = event_under(rule_set, balance_threshold=2)
    people = arrange(event, {1: FULL, 2: FULL, 3: FULL[:8]})
    result = bust(event, people["T3S1"])  # 9, 9, 7: two short, the room's threshold
    assert len(result.moves) == moves


@pytest.mark.parametrize(("rule_set", "button"), [(rulesets.TDA_2024, 3), (rulesets.TDA_2026, 6)])
def test_under_tda_2026_the_dead_button_moves_over_the_empty_seats(rule_set, button):
    event = event_under(rule_set)
    # The big blind went over empty seats 4-6 to seat 7; then the small blind (3) busts.
    people = arrange(event, {1: [1, 2, 3, 7, 8, 9]}, positions={1: (2, 3, 7)})
    bust(event, people["T1S3"])
    table = services.table_hand_finish(
        event_id=event.pk, table_number=1, expected_hand=0, actor=ACTOR
    )
    assert (table.button, table.small_blind, table.big_blind) == (button, 7, 8)
    assert Move.objects.count() == 0
