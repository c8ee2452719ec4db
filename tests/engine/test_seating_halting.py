"""Halting a short table (TDA 11-D "once the blinds are impacted"; WSOP R67 at once)."""

from __future__ import annotations

from tdsystem.engine.rulesets import HALT_AT_ONCE
from tdsystem.engine.seating import Table, tables_to_halt


def full_table(number: int, seats: int = 9, *, leave=(), button: int = 1) -> Table:
    """A started table whose entries are number * 100 + seat, with some seats empty."""
    occupants = {s: number * 100 + s for s in range(1, seats + 1) if s not in leave}
    small_blind = button % seats + 1
    return Table(number, seats, occupants, button, small_blind, small_blind % seats + 1)


def test_it_halts_tables_three_or_more_short_at_once_under_wsop():
    tables = [full_table(1), full_table(2, leave=(1, 2)), full_table(3, leave=(7, 8, 9))]
    assert tables_to_halt(tables, halting=HALT_AT_ONCE) == [3]
    more = [*tables, full_table(4, leave=(6, 7, 8, 9))]
    assert tables_to_halt(more, halting=HALT_AT_ONCE) == [3, 4]
    assert tables_to_halt([], halting=HALT_AT_ONCE) == []
