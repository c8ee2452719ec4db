"""A halted table deals on only when the floor confirms (TDA 11-D, WSOP R67), and the halt
lifts once the moves balancing it are done."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tdsystem.core.models import LogEntry
from tdsystem.engine.rulesets import WSOP_2026
from tdsystem.results.errors import ResultsError
from tdsystem.results.services import handforhand_hand_finish
from tdsystem.seating import balancing, selectors, services
from tdsystem.seating.models import EventTable, Move
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


def finish(event, number: int, **kwargs) -> EventTable:
    hand = EventTable.objects.get(event=event, number=number).hand_number
    return services.table_hand_finish(
        event_id=event.pk, table_number=number, expected_hand=hand, actor=ACTOR, **kwargs
    )


def halted(event) -> dict[int, str]:
    pending = list(Move.objects.filter(event=event, acknowledged_at__isnull=True))
    return {n: h.reason for n, h in selectors.table_halts(event, pending=pending).items()}


def test_a_short_table_plays_on_until_its_blinds_are_impacted(event):
    # 6 players against 9: the coming button, small blind and big blind (seats 3, 4, 5)
    # are seated; the hand after, the big blind would fall on empty seat 7.
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (2, 3, 4)})
    assert halted(event) == {}
    finish(event, 2)
    finish(event, 2)
    assert halted(event) == {
        2: "3 players short of table 1; the big blind would fall on empty seat 7"
    }
    with pytest.raises(services.TableHalted, match=r"table 2 is halted \(TDA 11-D\)"):
        finish(event, 2)
    row = EventTable.objects.get(event=event, number=2)
    assert (row.hand_number, row.big_blind) == (2, 6)
    assert not LogEntry.objects.filter(action="table.hand", data__hand=3).exists()


def test_the_floor_may_deal_on_at_a_halted_table_and_the_log_says_so(event):
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (4, 5, 6)})
    row = finish(event, 2, confirm_halted=True)
    assert (row.button, row.small_blind, row.big_blind) == (5, 6, 1)
    entry = LogEntry.objects.get(action="table.hand")
    assert "dealt on at a halted table, TDA 11-D: 3 players short of table 1" in entry.summary
    assert entry.data["halted"].endswith("the big blind would fall on empty seat 7")


def test_the_halt_lifts_once_the_balancing_move_is_done(event):
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (4, 5, 6)})
    result = balancing.tables_rebalance(event_id=event.pk, actor=ACTOR, rng_seed=1)
    (move,) = result.moves
    assert (move.to_table, move.to_seat) == (2, 7)
    # The player is on the way: table 2 is still 3 short, its big blind seat still empty.
    assert 2 in halted(event)
    with pytest.raises(services.TableHalted):
        finish(event, 2)
    services.move_acknowledge(event_id=event.pk, move_id=move.pk, actor=ACTOR)
    assert halted(event) == {}
    assert finish(event, 2).big_blind == 7


def test_wsop_halts_a_table_three_short_at_once(event):
    event.rule_set = WSOP_2026
    event.save(update_fields=["rule_set"])
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    assert halted(event) == {2: "3 players short of table 1"}
    with pytest.raises(services.TableHalted, match=r"\(WSOP R67\)"):
        finish(event, 2)
    # Two short is not enough; the table giving players is never halted.
    finish(event, 1)


def test_the_hand_for_hand_route_passes_the_confirmation_on(event):
    arrange(event, {1: FULL, 2: FULL[:6]}, positions={1: (1, 2, 3), 2: (4, 5, 6)})
    with pytest.raises(ResultsError, match="is halted") as refused:
        handforhand_hand_finish(event_id=event.pk, table_number=2, expected_hand=0, actor=ACTOR)
    assert isinstance(refused.value.__cause__, services.TableHalted)
    report = handforhand_hand_finish(
        event_id=event.pk, table_number=2, expected_hand=0, actor=ACTOR, confirm_halted=True
    )
    assert report.table.hand_number == 1


def test_the_hand_service_counts_the_slips_between_other_tables(event):
    # A player is on the way from table 1 seat 9 to table 3 seat 8: the records hold 8
    # players at tables 1 and 3, the room 9 at table 1 and 7 at table 3. Table 2's 6 are
    # 3 short of the room's largest, not 2 short of the records': it halts, though
    # none of the pending slips is its own.
    players = arrange(event, {1: FULL[:8], 2: FULL[:6], 3: FULL[:8]}, positions={2: (4, 5, 6)})
    Move.objects.create(
        event=event,
        entry=players["T3S8"],
        from_table=1,
        from_seat=9,
        to_table=3,
        to_seat=8,
        reason=Move.Reason.BALANCE,
    )
    with pytest.raises(services.TableHalted, match="3 players short of table 1"):
        finish(event, 2)
    assert halted(event).keys() == {2}
    card = selectors.table_view(event, 2)
    assert card.halt is not None and card.halt.reason.startswith("3 players short of table 1")
    Move.objects.update(acknowledged_at=timezone.now())
    assert finish(event, 2).hand_number == 1
