"""Seating services: the event's tables, entries and buys, the seat draw, hands, move slips.

Seating decisions are the engine's (tdsystem.engine.seating); these functions turn rows
into engine values, call it, and write the result back inside one transaction that
locks the event's row first (see seatmap.py for the lock order). Balancing, breaking
and redraws after eliminations live in balancing.py.

One module per concept: tables.py (venue tables, the event's tables, release, break
order), registration.py (entries, duplicate names, lists, re-entries, buys), draw.py
(the seat draw), flights.py (a festival's flights and Day 2), hands.py (hand finished,
buttons) and moves.py (move slips). Callers use the names below from this package; a
test that replaces a name a service looks up replaces it in the module that holds the
service.
"""

from __future__ import annotations

from ..errors import SeatingError
from .draw import seats_draw
from .flights import Combined, day2_combine, flight_add
from .hands import HAND_MAX, TableHalted, table_hand_finish
from .moves import move_acknowledge, moves_acknowledge
from .registration import (
    DuplicateName,
    Enrolment,
    describe_entry,
    entry_purchase,
    entry_reenter,
    import_duplicates,
    member_id_taken,
    player_register,
    players_import,
    registration_closed_reason,
    same_names,
)
from .reservations import (
    Reservation,
    entry_do_not_move,
    entry_reserve,
    entry_reserve_clear,
)
from .tables import (
    MAX_TABLE_SEATS,
    MIN_TABLE_SEATS,
    tables_free,
    tables_free_label,
    tables_release,
    tables_release_all,
    tables_reorder,
    tables_seats,
    tables_setup,
    tables_taken,
    venue_tables_lock,
)

__all__ = [
    "HAND_MAX",
    "MAX_TABLE_SEATS",
    "MIN_TABLE_SEATS",
    "Combined",
    "DuplicateName",
    "Enrolment",
    "Reservation",
    "SeatingError",
    "TableHalted",
    "day2_combine",
    "describe_entry",
    "entry_do_not_move",
    "entry_purchase",
    "entry_reenter",
    "entry_reserve",
    "entry_reserve_clear",
    "flight_add",
    "import_duplicates",
    "member_id_taken",
    "move_acknowledge",
    "moves_acknowledge",
    "player_register",
    "players_import",
    "registration_closed_reason",
    "same_names",
    "seats_draw",
    "table_hand_finish",
    "tables_free",
    "tables_free_label",
    "tables_release",
    "tables_release_all",
    "tables_reorder",
    "tables_seats",
    "tables_setup",
    "tables_taken",
    "venue_tables_lock",
]
