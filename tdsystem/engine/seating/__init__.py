"""Seating rules of a poker tournament: draws, buttons, balancing, breaks and redraws.

Pure functions over frozen values, standard library only; randomness comes in as
`rng: random.Random`. The rules follow the Poker TDA 2024 rules (7, 8-A, 10, 11, 32,
34-B) and D11 for buttons after bust-outs. The code lives in four modules by concept;
this one is the public surface, plus `check_invariants` for tests and simulations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .balance import (
    Spread,
    break_sequence,
    plan_after_elimination,
    plan_balance,
    plan_break,
    settled,
    spread,
)
from .buttons import (
    balance_seat,
    is_dealt_in,
    next_big_blind_seat,
    next_hand,
    start_hands,
)
from .draw import (
    FINAL_TABLE_SIZES,
    final_table_size,
    initial_draw,
    new_entry_tables,
    plan_redraw,
    plan_reserved_seat,
    redraw_due,
    seat_new_entry,
)
from .halting import (
    HALT_SHORT_BY,
    Halt,
    Impact,
    Position,
    blinds_impacted,
    halts,
    shortfalls,
    tables_to_halt,
)
from .model import (
    MAX_SEATS,
    MIN_SEATS,
    NO_HOLDS,
    ButtonRule,
    Counted,
    Draw,
    Holds,
    Load,
    Move,
    Placement,
    Plan,
    Reason,
    Reserved,
    SeatingError,
    Table,
    apply_moves,
    button_rule,
)
from .procedure import Procedure

__all__ = [
    "FINAL_TABLE_SIZES",
    "HALT_SHORT_BY",
    "MAX_SEATS",
    "MIN_SEATS",
    "NO_HOLDS",
    "ButtonRule",
    "Counted",
    "Draw",
    "Halt",
    "Holds",
    "Impact",
    "Load",
    "Move",
    "Placement",
    "Plan",
    "Position",
    "Procedure",
    "Reason",
    "Reserved",
    "SeatingError",
    "Spread",
    "Table",
    "apply_moves",
    "balance_seat",
    "blinds_impacted",
    "break_sequence",
    "button_rule",
    "check_invariants",
    "final_table_size",
    "halts",
    "initial_draw",
    "is_dealt_in",
    "new_entry_tables",
    "next_big_blind_seat",
    "next_hand",
    "plan_after_elimination",
    "plan_balance",
    "plan_break",
    "plan_redraw",
    "plan_reserved_seat",
    "redraw_due",
    "seat_new_entry",
    "settled",
    "shortfalls",
    "spread",
    "start_hands",
    "tables_to_halt",
]


def check_invariants(
    tables: Sequence[Table], active_entries: Iterable[int], *, threshold: int = 1
) -> list[str]:
    """Describe every way `tables` break the seating rules; empty when all hold.

    Checked here: table numbers are unique, every active entry holds exactly one seat,
    nobody else is seated, and no table in play is more than `threshold` players short
    of the largest. A `Table` cannot be built with a seat out of range or a seat holding
    two players, so those need no check.
    """
    problems: list[str] = []
    seen_numbers: set[int] = set()
    places: dict[int, list[str]] = {}
    for table in tables:
        if table.number in seen_numbers:
            problems.append(f"table {table.number} appears twice")
        seen_numbers.add(table.number)
        for seat, entry in table.occupants:
            places.setdefault(entry, []).append(f"table {table.number} seat {seat}")
    active = set(active_entries)
    for entry, where in places.items():
        if len(where) > 1:
            problems.append(f"entry {entry} holds {len(where)} seats: {', '.join(where)}")
        if entry not in active:
            problems.append(f"entry {entry} is seated at {where[0]} but not active")
    problems.extend(f"entry {entry} has no seat" for entry in sorted(active - places.keys()))
    counts = [(table.count, table.number) for table in tables if table.occupants]
    if counts:
        fewest, most = min(counts), max(counts)
        if most[0] - fewest[0] > threshold:
            problems.append(
                f"table {fewest[1]} has {fewest[0]} players, {most[0] - fewest[0]} fewer "
                f"than table {most[1]} (at most {threshold} allowed)"
            )
    return problems
