"""Halting a short table until it is balanced (TDA 11-D, TDA 2026 12-D, WSOP R67).

A table `short_by` or more players short of the table with the most players stops dealing
until balancing brings it players. When it stops is the rule set's `halting`:

- "blinds-impacted" (TDA): the short table plays on while the coming hand's button, small
  blind and big blind still fall on seated players, and halts as soon as one of them would
  fall on an empty seat. The TDA's illustration: 9-handed, table A has 5 players and table
  B, the largest, has 8; A halts as soon as its big blind would be an empty seat.
- "at-once" (WSOP): a table short by that many halts at once.

"Would fall" is judged by the dead button's progression (TDA 32), whatever the table's
button rule: the button takes the last small blind's seat, the small blind the last big
blind's, and the big blind the next seat clockwise. The coming dead button and small blind
are those seats (`buttons.next_hand`); where the next seat is empty the big blind passes
over it, which is the impact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..rulesets import HALT_BLINDS_IMPACTED, HALTING
from .model import SeatingError, Table

HALT_SHORT_BY = 3


class Position(StrEnum):
    BUTTON = "button"
    SMALL_BLIND = "small blind"
    BIG_BLIND = "big blind"


@dataclass(frozen=True)
class Impact:
    """A position of the coming hand that would fall on an empty seat."""

    position: Position
    seat: int


@dataclass(frozen=True)
class Halt:
    """A table that stops dealing until balanced, and why.

    `short` players fewer than table `largest`; `impacts` the positions of the coming hand
    that would fall on empty seats (empty under "at-once" when none would, and for a table
    of one player, which cannot deal anyway).
    """

    table: int
    short: int
    largest: int
    impacts: tuple[Impact, ...] = ()


def _checked(halting: str, short_by: int) -> None:
    if halting not in HALTING:
        raise SeatingError(f"unknown halting rule {halting!r}: one of {', '.join(HALTING)}")
    if short_by < 1:
        raise SeatingError(f"a table halts 1 or more players short, not {short_by}")


def blinds_impacted(table: Table) -> tuple[Impact, ...]:
    """The positions of the table's coming hand that would fall on an empty seat.

    Each position steps on as the dead button has it (`buttons.next_hand`): the button to
    the last small blind's seat, the small blind to the last big blind's, the big blind to
    the next seat. An empty seat among these is an impact: a dead button or small blind,
    or a big blind that passes over the seat. Judged so at a table going heads-up too,
    where the heads-up rule then moves the positions (the impact is why). None before the
    first hand (nobody knows where the button goes yet) or with fewer than two players
    (there is no coming hand).
    """
    if table.button is None or table.small_blind is None or table.big_blind is None:
        return ()
    if table.count < 2:
        return ()
    steps = (
        (Position.BUTTON, table.small_blind),
        (Position.SMALL_BLIND, table.big_blind),
        (Position.BIG_BLIND, table.big_blind % table.seats + 1),
    )
    return tuple(Impact(position, seat) for position, seat in steps if table.entry_at(seat) is None)


def shortfalls(
    counts: Iterable[tuple[int, int]], *, short_by: int = HALT_SHORT_BY
) -> dict[int, tuple[int, int]]:
    """The tables `short_by` or more players short of the largest, judged from head counts.

    `counts` holds (table number, players) of the tables in play (tables nobody sits at
    are left out). Returns table -> (players short, the largest table's number); among
    tables of equal size the lowest number is the largest.
    """
    playing = [(number, count) for number, count in counts if count > 0]
    if not playing:
        return {}
    most, largest = max(playing, key=lambda pair: (pair[1], -pair[0]))[::-1]
    return {
        number: (most - count, largest)
        for number, count in sorted(playing)
        if most - count >= short_by
    }


def halt(
    table: Table,
    *,
    short: int,
    largest: int,
    halting: str = HALT_BLINDS_IMPACTED,
) -> Halt | None:
    """Whether `table`, already short enough (see `shortfalls`), halts under `halting`."""
    impacts = blinds_impacted(table)
    if halting == HALT_BLINDS_IMPACTED and not impacts and table.count >= 2:
        return None
    return Halt(table.number, short, largest, impacts)


def halts(
    tables: Sequence[Table],
    *,
    halting: str = HALT_BLINDS_IMPACTED,
    short_by: int = HALT_SHORT_BY,
    field: Iterable[tuple[int, int]] | None = None,
) -> list[Halt]:
    """The tables among `tables` that halt, by number.

    `field` holds (table number, players) of every table in play when `tables` are only
    some of them (those short enough, whose seats the caller read); by default the
    tables themselves are the field.
    """
    _checked(halting, short_by)
    if field is None:
        field = [(table.number, table.count) for table in tables]
    short = shortfalls(field, short_by=short_by)
    found = []
    for table in sorted(tables, key=lambda t: t.number):
        if table.number in short:
            how_many, largest = short[table.number]
            stopped = halt(table, short=how_many, largest=largest, halting=halting)
            if stopped is not None:
                found.append(stopped)
    return found


def tables_to_halt(
    tables: Sequence[Table],
    *,
    halting: str = HALT_BLINDS_IMPACTED,
    short_by: int = HALT_SHORT_BY,
) -> list[int]:
    """The numbers of the tables that halt (see `halts`)."""
    return [h.table for h in halts(tables, halting=halting, short_by=short_by)]
