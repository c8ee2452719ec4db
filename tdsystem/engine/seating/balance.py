"""Balancing and breaking tables after players leave or join (TDA 10 and 11).

A table is in play while someone sits at it; empty tables are broken or not yet open
and are left alone. Planning costs O(tables) per step and touches only the tables whose
players move, so it stays cheap for events with thousands of entries. It may start from
head counts (`Counted`) and read in full (`load`) only the tables whose seats it needs:
the same plan, without building every table of a festival flight.
"""

from __future__ import annotations

import heapq
import random
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from .buttons import balance_seat, is_dealt_in, next_big_blind_seat
from .model import (
    NO_HOLDS,
    ButtonRule,
    Counted,
    Holds,
    Load,
    Move,
    Plan,
    Reason,
    Reserved,
    SeatingError,
    Table,
    button_rule,
    tables_by_number,
)
from .procedure import TDA, Procedure, giver


def break_sequence(tables: Sequence[Table | Counted], break_order: Sequence[int] = ()) -> list[int]:
    """The tables in play in the order they break.

    The event's `break_order` first; tables it does not list follow, highest number
    first (the usual habit of closing the far end of the room).
    """
    in_play = {table.number for table in tables if table.count}
    listed = [number for number in dict.fromkeys(break_order) if number in in_play]
    rest = sorted(in_play.difference(listed), reverse=True)
    return listed + rest


class _Planner:
    """Working state of one plan: the tables so far and each entry's journey.

    A table given as a head count (`Counted`) is read in full by `load` the first time
    its seats matter (`full`); until then only its number, seats and count are used.
    """

    def __init__(
        self,
        tables: Sequence[Table | Counted],
        rule: str,
        holds: Holds = NO_HOLDS,
        procedure: Procedure = TDA,
        skip_empty: bool = False,
        by_position: bool = False,
        load: Load | None = None,
    ) -> None:
        self.original = tuple(tables)
        self.tables: dict[int, Table | Counted] = tables_by_number(self.original)
        self.load = load
        self.rule = button_rule(rule)
        self.holds = holds
        self.procedure = procedure
        self.skip_empty = skip_empty  # the dead button moves over empty seats (buttons.py)
        self.by_position = by_position  # stud: balance by seat position (`_position_move`)
        # entry -> [from_table, from_seat, to_table, to_seat, reason]
        self.journeys: dict[int, list] = {}
        self.broken: list[int] = []

    def in_play(self) -> list[Table | Counted]:
        return [table for table in self.tables.values() if table.count]

    def full(self, numbers: Iterable[int]) -> None:
        """Read the tables of these numbers in full where only their count is known, in
        one call of `load`."""
        missing = [n for n in dict.fromkeys(numbers) if isinstance(self.tables[n], Counted)]
        if not missing:
            return
        if self.load is None:
            raise SeatingError(f"table {missing[0]} is known by its head count only")
        read = {table.number: table for table in self.load(missing)}
        for number in missing:
            table, counted = read.get(number), self.tables[number]
            if table is None or table.count != counted.count or table.seats != counted.seats:
                raise SeatingError(f"table {number} is not as its head count says")
            self.tables[number] = table

    def table(self, number: int) -> Table:
        """The table `number` in full (read now if need be)."""
        self.full((number,))
        table = self.tables[number]
        assert isinstance(table, Table)
        return table

    def move(
        self, entry: int, source: Table, seat: int, target: int, to_seat: int, reason: Reason
    ) -> None:
        self.tables[source.number] = self.table(source.number).without_entry(entry)
        self.seat(entry, source.number, seat, target, to_seat, reason)

    def seat(
        self, entry: int, from_table: int, seat: int, target: int, to_seat: int, reason: Reason
    ) -> None:
        """Seat `entry`, who has left `from_table` seat `seat`, at `target` seat `to_seat`."""
        self.tables[target] = self.table(target).with_entry(entry, to_seat)
        journey = self.journeys.get(entry)
        if journey is None:
            self.journeys[entry] = [from_table, seat, target, to_seat, reason]
        else:
            # Moved twice in one plan (broken table, then balanced): the player makes
            # one trip, for the first reason.
            journey[2:4] = [target, to_seat]

    def balanced_in(self, table: int) -> list[int]:
        """Seats at `table` of the players this plan balances in so far."""
        return [
            to_seat
            for _, _, to_table, to_seat, reason in self.journeys.values()
            if to_table == table and reason is Reason.BALANCE
        ]

    def plan(self) -> Plan:
        moves = tuple(
            Move(
                entry,
                from_table,
                from_seat,
                to_table,
                to_seat,
                reason,
                # Without blinds (stud) nobody waits for a button.
                self.by_position
                or is_dealt_in(
                    self.table(to_table), to_seat, self.rule, skip_empty=self.skip_empty
                ),
            )
            for entry, (from_table, from_seat, to_table, to_seat, reason) in self.journeys.items()
        )
        # The tables read in full; those known by their count only are as they were.
        final = tuple(
            table
            for table in (self.tables[table.number] for table in self.original)
            if isinstance(table, Table)
        )
        return Plan(tuple(self.broken), moves, final)


def _rank(sequence: Sequence[int]) -> Callable[[Table | Counted], int]:
    position = {number: index for index, number in enumerate(sequence)}
    return lambda table: position[table.number]


def _check_threshold(threshold: int) -> None:
    if threshold < 1:
        raise SeatingError("the balance threshold is at least one player")


def _balance(planner: _Planner, threshold: int, rank: Callable[[Table | Counted], int]) -> None:
    """Move players until no table is more than the tolerance short of the largest.

    The tolerance is `threshold`, or one player late in the event if the procedure says
    so (`Procedure.threshold`). The receiving table is a shortest one, the last of those
    to break, so the player is unlikely to move again soon. The giving table follows the
    rule set's procedure (`procedure.giver`; by default a largest table, the first of
    those in the break order: its players would move at the break anyway). The player
    who would post the big blind next moves to the receiving table's worst position
    (TDA 11-A); in stud (`by_position`) the player moves by position (`_position_move`).
    """
    while True:
        playing = planner.in_play()
        if len(playing) < 2:
            return
        tolerance = planner.procedure.threshold(len(playing), threshold)
        most = max(table.count for table in playing)
        short = [table for table in playing if table.count < most - tolerance]
        if not short:
            return
        short.sort(key=lambda table: (table.count, -rank(table)))
        if planner.by_position:
            if not _balance_by_position(planner, playing, short, tolerance, rank):
                return
            continue
        source = planner.procedure.source(len(playing))
        for candidate in short:
            # The giving table follows from the counts: read with the receiver at once.
            giving = giver(playing, candidate, threshold=tolerance, source=source, rank=rank)
            planner.full((candidate.number, giving.number))
            receiver = planner.table(candidate.number)
            try:
                to_seat = balance_seat(
                    receiver,
                    planner.rule,
                    movers=planner.balanced_in(receiver.number),
                    skip_empty=planner.skip_empty,
                )
            except SeatingError:
                continue  # full (a smaller table) or only the small blind is free
            break
        else:
            return
        giving = planner.table(giving.number)
        mover = _mover(giving, planner)
        if mover is None:
            return  # everyone at the giving table keeps their seat
        seat, entry = mover
        planner.move(entry, giving, seat, receiver.number, to_seat, Reason.BALANCE)


def _balance_by_position(
    planner: _Planner,
    playing: list[Table | Counted],
    short: list[Table | Counted],
    tolerance: int,
    rank: Callable[[Table | Counted], int],
) -> bool:
    """One balancing move in stud: to the first short table with an empty seat (the
    shortest, the last to break), from the giving table the procedure names, by position
    (`_position_move`). False when no short table has an empty seat or nobody at the
    giving table may move: balancing stops there."""
    candidate = next((table for table in short if table.count < table.seats), None)
    if candidate is None:
        return False
    source = planner.procedure.source(len(playing))
    giving = giver(playing, candidate, threshold=tolerance, source=source, rank=rank)
    planner.full((candidate.number, giving.number))
    receiver, giving = planner.table(candidate.number), planner.table(giving.number)
    move = _position_move(giving, receiver, planner.holds)
    if move is None:
        return False
    seat, entry, to_seat = move
    planner.move(entry, giving, seat, receiver.number, to_seat, Reason.BALANCE)
    return True


def _position_move(giver: Table, receiver: Table, holds: Holds) -> tuple[int, int, int] | None:
    """Stud (TDA 11-A, "Stud: players move by position"): (seat, entry, seat taken).

    The player at the giving table in the seat that matches one of the short table's empty
    seats moves to it, keeping the position: the lowest such empty seat whose player at
    the giving table may move. When none matches (those seats are empty at the giving
    table, or their players are held), the short table's lowest empty seat is filled by
    the next player clockwise from that seat number at the giving table who may move.
    Reserved and do-not-move players are passed over. None when everyone stays.
    """
    empty = receiver.empty_seats
    for seat in empty:
        entry = giver.entry_at(seat)
        if entry is not None and not holds.held(entry):
            return seat, entry, seat
    target = empty[0]
    seats = giver.occupied_seats
    start = bisect_left(seats, target)
    for seat in seats[start:] + seats[:start]:
        entry = giver.entry_at(seat)
        if entry is not None and not holds.held(entry):
            return seat, entry, target
    return None


def _mover(giver: Table, planner: _Planner) -> tuple[int, int] | None:
    """The (seat, entry) of the player `giver` sends to balance another table.

    The player who would post the big blind next (TDA 11-A). One who keeps their seat
    (a reserved seat, TDA 9, or "do not move") stays; the procedure goes on clockwise
    to the player who posts the big blind after them. None when everyone stays.
    """
    seats = giver.occupied_seats
    start = bisect_left(seats, next_big_blind_seat(giver, planner.rule))
    for seat in seats[start:] + seats[:start]:
        entry = giver.entry_at(seat)
        if entry is not None and not planner.holds.held(entry):
            return seat, entry
    return None


def _break_next(planner: _Planner, sequence: Sequence[int], rng: random.Random) -> bool:
    """Break the next table in `sequence` if its players fit elsewhere (TDA 10).

    Its players draw empty seats at random, any seat including the blinds and the
    button; each seat goes to a table with the fewest players at that moment, so the
    remaining tables stay as even as their seats allow. A player with a reserved seat
    keeps its seat number at another table first (`_keep_reserved`).
    """
    playing = planner.in_play()
    if len(playing) < 2:
        return False
    numbers = {table.number for table in playing}
    number = next(number for number in sequence if number in numbers)
    players = sum(table.count for table in playing)
    room = sum(table.seats for table in playing) - planner.tables[number].seats
    if players > room:
        return False
    closing = planner.table(number)
    others = [table.number for table in playing if table.number != closing.number]
    movers = [(closing.number, seat, entry) for seat, entry in closing.occupants]
    if any(entry in planner.holds.reserved for _, _, entry in movers):
        movers = _keep_reserved(planner, closing.number, others, rng)
    # Random tie-breaks make the choice among equally short tables part of the draw.
    heap = [
        (table.count, rng.random(), table.number)
        for table in (planner.tables[number] for number in others)
        if table.count < table.seats
    ]
    heapq.heapify(heap)
    # Which table and which of its empty seats (by place) each seat drawn is: the counts
    # decide, so only the tables drawn at are read in full, after the draw.
    room_left: dict[int, int] = {}
    draws: list[tuple[int, int]] = []
    for _ in range(len(movers)):
        count, _, number = heapq.heappop(heap)
        table = planner.tables[number]
        left = room_left.setdefault(number, table.seats - table.count)
        draws.append((number, rng.randrange(left)))
        room_left[number] = left - 1
        if left > 1:
            heapq.heappush(heap, (count + 1, rng.random(), number))
    planner.full(number for number, _ in draws)
    free: dict[int, list[int]] = {}
    slots: list[tuple[int, int]] = []
    for number, place in draws:
        empty = free.setdefault(number, list(planner.table(number).empty_seats))
        slots.append((number, empty.pop(place)))
    rng.shuffle(movers)
    for (from_table, seat, entry), (number, to_seat) in zip(movers, slots, strict=True):
        if from_table == closing.number:
            planner.move(entry, closing, seat, number, to_seat, Reason.BREAK)
        else:  # the player whose seat a reserved player took; has left it already
            planner.seat(entry, from_table, seat, number, to_seat, Reason.BREAK)
    planner.tables[closing.number] = planner.table(closing.number).emptied()
    planner.broken.append(closing.number)
    return True


def _keep_reserved(
    planner: _Planner, closing: int, others: Sequence[int], rng: random.Random
) -> list[tuple[int, int, int]]:
    """Seat the breaking table's reserved players at their seat number elsewhere (TDA 9).

    Each goes to the table its reservation names if that seat is free there, else to a
    table with the fewest players among those where the seat number is free. When it is
    taken at every table, the player in that seat at a table with the fewest players
    gives it up and draws a seat with the breaking table's players, unless that player
    is held too (reserved, or do not move). A reserved seat no table can give is drawn
    like any other. Returns who still needs a seat: (table, seat they left, entry).
    """
    reserved = planner.holds.reserved
    planner.full(others)  # a reserved seat number is looked for at every table
    table = planner.table(closing)
    left: list[tuple[int, int, int]] = []
    for seat, entry in table.occupants:
        wanted = reserved.get(entry)
        if wanted is None:
            left.append((closing, seat, entry))
            continue
        number = wanted.seat
        fits = [planner.table(n) for n in others if number <= planner.tables[n].seats]

        def order(t: Table, wanted: Reserved = wanted) -> tuple[bool, int, float]:
            return (t.number != wanted.table, t.count, rng.random())

        free = sorted((t for t in fits if t.entry_at(number) is None), key=order)
        taken = sorted((t for t in fits if _yields(planner.holds, t.entry_at(number))), key=order)
        if free:
            planner.move(entry, table, seat, free[0].number, number, Reason.BREAK)
        elif taken:
            target = taken[0]
            displaced = target.entry_at(number)
            assert displaced is not None
            planner.tables[target.number] = target.without_entry(displaced)
            planner.move(entry, table, seat, target.number, number, Reason.BREAK)
            left.append((target.number, number, displaced))
        else:
            left.append((closing, seat, entry))
    return left


def _yields(holds: Holds, entry: int | None) -> bool:
    return entry is not None and not holds.held(entry)


def plan_balance(
    tables: Sequence[Table],
    *,
    threshold: int = 1,
    break_order: Sequence[int] = (),
    rule: str = ButtonRule.DEAD,
    holds: Holds = NO_HOLDS,
    procedure: Procedure = TDA,
    skip_empty: bool = False,
    by_position: bool = False,
) -> Plan:
    """Balance the tables (TDA 11): none ends more than `threshold` short of the largest.

    With the default threshold of one, a table is short at two fewer players than the
    largest. See `_balance` for the procedure choosing the tables (TDA 11-C; the rule
    set's `procedure`) and `_mover` for the player; players held in `holds` are never
    moved. `skip_empty`: the dead button moves over empty seats (buttons.py).
    `by_position`: a game without blinds (stud) moves players by position
    (`_position_move`) instead of by the coming big blind.
    """
    _check_threshold(threshold)
    planner = _Planner(tables, rule, holds, procedure, skip_empty, by_position)
    _balance(planner, threshold, _rank(break_sequence(tables, break_order)))
    return planner.plan()


def plan_break(
    tables: Sequence[Table],
    *,
    break_order: Sequence[int] = (),
    rng: random.Random,
    rule: str = ButtonRule.DEAD,
    holds: Holds = NO_HOLDS,
    skip_empty: bool = False,
) -> Plan:
    """Break the next table in the break order when its players fit elsewhere (TDA 10).

    They fit when the players in play number no more than the seats of the other tables
    in play. Returns an empty plan otherwise. Reserved seats in `holds` keep their seat
    number (`_keep_reserved`).
    """
    planner = _Planner(tables, rule, holds, skip_empty=skip_empty)
    _break_next(planner, break_sequence(tables, break_order), rng)
    return planner.plan()


class Spread(NamedTuple):
    """The tables in play that have a player, summed up: all `settled` looks at. A caller
    may count it where the players are (one row of a database's sums) instead of listing
    every table."""

    tables: int  # tables with a player or more
    players: int  # their players
    seats: int  # their seats
    closing_seats: int  # the seats of the one among them that breaks next
    most: int  # the most players at one of them
    fewest: int  # the fewest


def spread(counts: Sequence[tuple[int, int, int]], break_order: Sequence[int] = ()) -> Spread:
    """The `Spread` of (table number, seats, players) head counts; the table that breaks
    next is the first in `break_order` with a player (the highest number when the order
    names none of them)."""
    playing = [(number, seats, count) for number, seats, count in counts if count > 0]
    if not playing:
        return Spread(0, 0, 0, 0, 0, 0)
    numbers = {number for number, _, _ in playing}
    listed = [n for n in dict.fromkeys(break_order) if n in numbers]
    closing = (listed or sorted(numbers, reverse=True))[0]
    seats_of = {number: seats for number, seats, _ in playing}
    players = [count for _, _, count in playing]
    return Spread(
        len(playing),
        sum(players),
        sum(seats_of.values()),
        seats_of[closing],
        max(players),
        min(players),
    )


def settled(
    counts: Sequence[tuple[int, int, int]] | Spread,
    *,
    break_order: Sequence[int] = (),
    threshold: int = 1,
    procedure: Procedure = TDA,
) -> bool:
    """True when `plan_after_elimination` has nothing to do, judged from head counts.

    `counts` holds (table number, seats, players) for the tables in play, or their
    `Spread`. Nothing is to do when no table can break (the players do not fit the other
    tables' seats) and no table is more than the tolerance short of the largest
    (`threshold`, or one player at the procedure's `within_one_at` tables or fewer).
    False means a plan may move someone (seat positions decide), so the caller reads the
    seats and plans: a cheap test first, for the most common bust-out, which changes
    nothing.
    """
    _check_threshold(threshold)
    at = counts if isinstance(counts, Spread) else spread(counts, break_order)
    if at.tables < 2:
        return True
    if at.players <= at.seats - at.closing_seats:
        return False
    tolerance = procedure.threshold(at.tables, threshold)
    return at.fewest >= at.most - tolerance


def plan_after_elimination(
    tables: Sequence[Table | Counted],
    *,
    break_order: Sequence[int] = (),
    threshold: int = 1,
    rng: random.Random,
    rule: str = ButtonRule.DEAD,
    holds: Holds = NO_HOLDS,
    procedure: Procedure = TDA,
    skip_empty: bool = False,
    by_position: bool = False,
    load: Load | None = None,
) -> Plan:
    """Everything the seating needs after a change of players: breaks, then balance.

    Call it after every bust-out, and after a late entry or re-entry is seated. Breaks
    repeat while the players fit into one table fewer (several players may have left
    together), then the remaining tables are balanced. `holds`, `procedure`,
    `skip_empty` and `by_position` as in `plan_balance` and `plan_break`.

    `tables` may give a table by its head count (`Counted`): `load` reads it in full
    when its seats matter, several tables a call. The plan is the one the full tables
    give; its `tables` are then those read in full (every table a move or a break
    changes among them), in the order given.
    """
    _check_threshold(threshold)
    planner = _Planner(tables, rule, holds, procedure, skip_empty, by_position, load)
    sequence = break_sequence(tables, break_order)
    while _break_next(planner, sequence, rng):
        pass
    _balance(planner, threshold, _rank(sequence))
    return planner.plan()
