"""Seating values: tables, placements, moves and plans.

Standard library only. Every value is frozen; functions that change seating return new
values. Seats are numbered 1..seats clockwise, so "the next seat" is the next number,
wrapping from the last seat to seat 1.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TypeVar

MIN_SEATS = 2
MAX_SEATS = 10


class SeatingError(ValueError):
    """A seating request that the rules or the tables cannot satisfy."""


class ButtonRule(StrEnum):
    """How the button and blinds move after players leave a table (D11, TDA 32)."""

    DEAD = "dead"
    MOVING = "moving"


class Reason(StrEnum):
    """Why a player changes seat."""

    BALANCE = "balance"
    BREAK = "break"
    REDRAW = "redraw"
    RESERVED = "reserved"  # to a seat kept for the player (TDA 9), or out of it


def button_rule(value: str) -> ButtonRule:
    """Read a button rule setting, raising SeatingError on an unknown value."""
    try:
        return ButtonRule(value)
    except ValueError:
        raise SeatingError(f"unknown button rule {value!r}: use 'dead' or 'moving'") from None


@dataclass(frozen=True)
class Table:
    """One table between hands.

    `occupants` holds (seat, entry) pairs sorted by seat; a mapping seat -> entry is
    accepted too and normalised. `button`, `small_blind` and `big_blind` are the seats of
    the current or last hand: all three set once the table has dealt, all None before.
    The button and the small blind may be empty seats (dead button, dead small blind);
    the big blind seat may be empty only because its player left after posting.
    """

    number: int
    seats: int
    occupants: tuple[tuple[int, int], ...] = ()
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise SeatingError(
                f"table {self.number} has {self.seats} seats: a table has "
                f"{MIN_SEATS} to {MAX_SEATS}"
            )
        raw = tuple(
            self.occupants.items() if isinstance(self.occupants, Mapping) else self.occupants
        )
        # Column by column, so the usual valid table is checked without a Python loop over
        # its players (a break at a festival flight builds hundreds of tables); the loop
        # below names the first problem of a bad one.
        try:
            seat_column, entry_column = zip(*raw, strict=True) if raw else ((), ())
        except ValueError:
            raise SeatingError(
                f"table {self.number}: each occupant is a (seat, entry) pair"
            ) from None
        seats, entries = tuple(map(int, seat_column)), tuple(map(int, entry_column))
        pairs = tuple(sorted(zip(seats, entries, strict=True)))
        valid = not pairs or (
            min(seats) >= 1
            and max(seats) <= self.seats
            and len(set(seats)) == len(seats)
            and len(set(entries)) == len(entries)
        )
        if valid:
            object.__setattr__(self, "occupants", pairs)
            self._check_positions()
            return
        seen = set()
        previous_seat = 0
        for seat, entry in pairs:
            self._check_seat(seat, "a player")
            if seat == previous_seat:
                raise SeatingError(f"table {self.number} seat {seat} holds two players")
            if entry in seen:
                raise SeatingError(f"entry {entry} holds two seats at table {self.number}")
            seen.add(entry)
            previous_seat = seat
        object.__setattr__(self, "occupants", pairs)
        self._check_positions()

    def _check_seat(self, seat: int, what: str) -> None:
        if not 1 <= seat <= self.seats:
            raise SeatingError(
                f"table {self.number} has no seat {seat} for {what} (seats 1-{self.seats})"
            )

    def _check_positions(self) -> None:
        button, small, big = self.button, self.small_blind, self.big_blind
        if button is None and small is None and big is None:
            return
        if button is None or small is None or big is None:
            raise SeatingError(
                f"table {self.number}: the button, small blind and big blind are set together"
            )
        self._check_seat(button, "the button")
        self._check_seat(small, "the small blind")
        self._check_seat(big, "the big blind")
        # Heads-up the button posts the small blind, so only those two may coincide.
        if big in (button, small):
            raise SeatingError(f"table {self.number}: the big blind shares a seat")

    @property
    def count(self) -> int:
        return len(self.occupants)

    @property
    def started(self) -> bool:
        """True once a hand has been dealt (the positions are known)."""
        return self.big_blind is not None

    @property
    def occupied_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, _ in self.occupants)

    @property
    def empty_seats(self) -> tuple[int, ...]:
        taken = set(self.occupied_seats)
        return tuple(seat for seat in range(1, self.seats + 1) if seat not in taken)

    @property
    def entries(self) -> tuple[int, ...]:
        return tuple(entry for _, entry in self.occupants)

    def seat_of(self, entry: int) -> int | None:
        for seat, seated in self.occupants:
            if seated == entry:
                return seat
        return None

    def entry_at(self, seat: int) -> int | None:
        for taken, entry in self.occupants:
            if taken == seat:
                return entry
        return None

    def with_entry(self, entry: int, seat: int) -> Table:
        """This table with `entry` seated at the empty `seat`."""
        if self.entry_at(seat) is not None:
            raise SeatingError(f"table {self.number} seat {seat} is taken")
        return replace(self, occupants=(*self.occupants, (seat, entry)))

    def without_entry(self, entry: int) -> Table:
        """This table with `entry` gone; the positions stay where the last hand put them."""
        remaining = tuple(pair for pair in self.occupants if pair[1] != entry)
        if len(remaining) == len(self.occupants):
            raise SeatingError(f"entry {entry} is not seated at table {self.number}")
        return replace(self, occupants=remaining)

    def emptied(self) -> Table:
        """This table with nobody seated and no positions: broken, or not yet opened."""
        return replace(self, occupants=(), button=None, small_blind=None, big_blind=None)


@dataclass(frozen=True, slots=True)
class Counted:
    """A table in play known by its head count only: no seats, no positions.

    Planning at a large field starts from these (one row a table) and reads a table in
    full (`Load`) only when its seats matter: the table that breaks, the tables its
    players draw seats at, the tables that give and take a balancing move.
    """

    number: int
    seats: int
    count: int


Load = Callable[[Collection[int]], Iterable[Table]]
"""Reads the tables of these numbers in full, in one go (the service's seat map)."""


@dataclass(frozen=True)
class Reserved:
    """A seat kept for a player with special needs (TDA 9): seat number `seat`, at table
    `table` when one is named, else at whichever table the player is seated."""

    seat: int
    table: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.seat <= MAX_SEATS:
            raise SeatingError(f"no seat {self.seat} to reserve (seats 1-{MAX_SEATS})")

    def kept_by(self, table: Table, seat: int) -> bool:
        """True when sitting at `table` seat `seat` keeps this reservation."""
        return seat == self.seat and self.table in (None, table.number)


@dataclass(frozen=True)
class Holds:
    """The players the seating may not move at will.

    `reserved` maps an entry to its reserved seat: the draws seat it there, balancing
    never moves it, and when its table breaks it keeps the seat number at another table.
    `unmovable` entries keep their seat while tables are balanced (do not move); a break
    of their table still moves them.
    """

    reserved: Mapping[int, Reserved] = field(default_factory=dict)
    unmovable: frozenset[int] = frozenset()

    def held(self, entry: int) -> bool:
        """True when balancing must choose someone other than `entry`."""
        return entry in self.reserved or entry in self.unmovable


NO_HOLDS = Holds()


@dataclass(frozen=True)
class Placement:
    """A seat given to an entry that had none (initial draw, late registration, re-entry).

    `dealt_in` is False when the seat lies between the small blind and the button of the
    coming hand: the player waits until the button passes (TDA 8-A).
    """

    entry: int
    table: int
    seat: int
    dealt_in: bool = True


@dataclass(frozen=True)
class Move:
    """A seated entry changing seat.

    `dealt_in` is False when the new seat lies between the small blind and the button of
    the coming hand at the new table (TDA 10); the player waits for the button to pass.
    """

    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: Reason
    dealt_in: bool = True


@dataclass(frozen=True)
class Draw:
    """The result of a seat draw: who sits where, and the tables with their first button."""

    placements: tuple[Placement, ...]
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class Plan:
    """Seat changes to carry out, and the tables as they will be once they are done.

    `broken` lists the tables that close (their players are among the moves); they appear
    in `tables` emptied. Each entry moves at most once in a plan.
    """

    broken: tuple[int, ...]
    moves: tuple[Move, ...]
    tables: tuple[Table, ...]


_T = TypeVar("_T", bound="Table | Counted")


def tables_by_number(tables: Iterable[_T]) -> dict[int, _T]:
    """Index tables by number, refusing a number that appears twice."""
    indexed: dict[int, _T] = {}
    for table in tables:
        if table.number in indexed:
            raise SeatingError(f"table {table.number} appears twice")
        indexed[table.number] = table
    return indexed


def apply_moves(tables: Sequence[Table], moves: Iterable[Move]) -> tuple[Table, ...]:
    """Carry out `moves` on `tables`, keeping the order of `tables`.

    Everyone leaves before anyone sits down, so moves that free and fill the same seat
    apply in any order. Positions do not change: a table with a new player still knows
    where its last hand's blinds were.
    """
    indexed = tables_by_number(tables)
    moves = tuple(moves)
    for move in moves:
        table = indexed.get(move.from_table)
        if table is None or table.entry_at(move.from_seat) != move.entry:
            raise SeatingError(
                f"entry {move.entry} is not at table {move.from_table} seat {move.from_seat}"
            )
        indexed[move.from_table] = table.without_entry(move.entry)
    for move in moves:
        table = indexed.get(move.to_table)
        if table is None:
            raise SeatingError(f"no table {move.to_table} for entry {move.entry}")
        indexed[move.to_table] = table.with_entry(move.entry, move.to_seat)
    return tuple(indexed[table.number] for table in tables)
