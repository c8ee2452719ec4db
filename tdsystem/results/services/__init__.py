"""Results services: bust-outs and undo, places and prizes, hand-for-hand, chip counts.

Split by concept; every function takes keyword-only arguments and raises ResultsError
(nothing changed) when it cannot do what is asked.
"""

from __future__ import annotations

from .bustouts import Recorded, bustout_record, bustout_short_big_blind
from .chips import MAX_CHIPS, chip_count_record
from .handforhand import (
    MINUTES_PER_HAND_MAX,
    HandReport,
    handforhand_hand_finish,
    handforhand_start,
    handforhand_stop,
)
from .payouts import TABLE_NAMES, payout_plan_update, standings_update
from .undo import Undone, bustout_undo

__all__ = [
    "MAX_CHIPS",
    "MINUTES_PER_HAND_MAX",
    "TABLE_NAMES",
    "HandReport",
    "Recorded",
    "Undone",
    "bustout_record",
    "bustout_short_big_blind",
    "bustout_undo",
    "chip_count_record",
    "handforhand_hand_finish",
    "handforhand_start",
    "handforhand_stop",
    "payout_plan_update",
    "standings_update",
]
