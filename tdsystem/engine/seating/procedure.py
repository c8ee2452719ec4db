"""The rule set's balancing procedure: which table gives the player, and the tolerance.

TDA 11-C asks only for a predetermined procedure; the WSOP rules (R67) name it by field
size and tighten the balance late in the event. `Procedure` carries the rule set's
choices (engine/rulesets.py, `Settings`), and `giver` applies them:

- "largest" (TDA 11-C, today's procedure): a table with the most players, the first of
  those in the break order.
- "next-full" (WSOP, large fields): the next numbered table at full capacity, counting on
  from the short table's number (and round from the lowest number). When no table is
  full, the tables with the most players count as full.
- "break-order" (WSOP, smaller fields): the next table in the breaking order.

Whichever rule chooses, the giving table must be able to spare the player without being
short itself, so balancing always ends; the tables with the most players always can.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..rulesets import (
    BALANCE_FROM,
    BALANCE_FROM_BREAK_ORDER,
    BALANCE_FROM_LARGEST,
    BALANCE_FROM_NEXT_FULL,
)
from .model import Counted, SeatingError, Table

_Table = TypeVar("_Table", bound=Table | Counted)


@dataclass(frozen=True)
class Procedure:
    """How a rule set balances: the giving table by field size, the tolerance by tables.

    `from_large` applies at and above `large_tables` tables in play, `from_small` below.
    At `within_one_at` tables in play or fewer (0: never) the tables balance within one
    player, whatever the event's threshold.
    """

    from_large: str = BALANCE_FROM_LARGEST
    from_small: str = BALANCE_FROM_LARGEST
    large_tables: int = 20
    within_one_at: int = 0

    def __post_init__(self) -> None:
        for source in (self.from_large, self.from_small):
            if source not in BALANCE_FROM:
                raise SeatingError(
                    f"unknown balancing source {source!r}: one of {', '.join(BALANCE_FROM)}"
                )

    def source(self, tables: int) -> str:
        """Which rule chooses the giving table with `tables` tables in play."""
        return self.from_large if tables >= self.large_tables else self.from_small

    def threshold(self, tables: int, threshold: int) -> int:
        """The tolerance with `tables` in play: one at `within_one_at` tables or fewer,
        else the event's `threshold`."""
        if threshold < 1:
            raise SeatingError("the balance threshold is at least one player")
        return 1 if tables <= self.within_one_at else threshold


TDA = Procedure()


def giver(
    playing: Sequence[_Table],
    receiver: Table | Counted,
    *,
    threshold: int,
    source: str,
    rank: Callable[[Table | Counted], int],
) -> _Table:
    """The table that gives `receiver` a player, by rule `source`.

    `threshold` is the tolerance now and `rank` a table's place in the break sequence.
    Head counts are enough (`Counted`): the choice reads no seat.
    Only a table that stays within the tolerance after giving may give: it has more than
    `most - threshold` players. The receiver, short, is never one of them.
    """
    most = max(table.count for table in playing)
    able = [table for table in playing if table.count - 1 >= most - threshold]
    if source == BALANCE_FROM_BREAK_ORDER:
        return min(able, key=rank)
    largest = [table for table in able if table.count == most]
    if source == BALANCE_FROM_NEXT_FULL:
        full = [table for table in able if table.count >= table.seats] or largest
        return min(full, key=lambda table: (table.number < receiver.number, table.number))
    if source != BALANCE_FROM_LARGEST:
        raise SeatingError(f"unknown balancing source {source!r}")
    return min(largest, key=rank)
