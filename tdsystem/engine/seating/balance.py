"""Balancing and breaking tables after players leave or join (TDA 10 and 11).

A table is in play while someone sits at it; empty tables are broken or not yet open
and are left alone. Planning costs O(tables) per step and touches only the tables whose
players move, so it stays cheap for events with thousands of entries.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Sequence

from .buttons import balance_seat, is_dealt_in, next_big_blind_seat
from .model import (
    ButtonRule,
    Move,
    Plan,
    Reason,
    SeatingError,
    Table,
    button_rule,
    tables_by_number,
)


def break_sequence(tables: Sequence[Table], break_order: Sequence[int] = ()) -> list[int]:
    """The tables in play in the order they break.

    The event's `break_order` first; tables it does not list follow, highest number
    first (the usual habit of closing the far end of the room).
    """
    in_play = {table.number for table in tables if table.occupants}
    listed = [number for number in dict.fromkeys(break_order) if number in in_play]
    rest = sorted(in_play.difference(listed), reverse=True)
    return listed + rest


class _Planner:
    """Working state of one plan: the tables so far and each entry's journey."""

    def __init__(self, tables: Sequence[Table], rule: str) -> None:
        self.original = tuple(tables)
        self.tables = tables_by_number(self.original)
        self.rule = button_rule(rule)
        # entry -> [from_table, from_seat, to_table, to_seat, reason]
        self.journeys: dict[int, list] = {}
        self.broken: list[int] = []

    def in_play(self) -> list[Table]:
        return [table for table in self.tables.values() if table.occupants]

    def move(
        self, entry: int, source: Table, seat: int, target: int, to_seat: int, reason: Reason
    ) -> None:
        self.tables[source.number] = self.tables[source.number].without_entry(entry)
        self.tables[target] = self.tables[target].with_entry(entry, to_seat)
        journey = self.journeys.get(entry)
        if journey is None:
            self.journeys[entry] = [source.number, seat, target, to_seat, reason]
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
                is_dealt_in(self.tables[to_table], to_seat, self.rule),
            )
            for entry, (from_table, from_seat, to_table, to_seat, reason) in self.journeys.items()
        )
        final = tuple(self.tables[table.number] for table in self.original)
        return Plan(tuple(self.broken), moves, final)


def _rank(sequence: Sequence[int]) -> Callable[[Table], int]:
    position = {number: index for index, number in enumerate(sequence)}
    return lambda table: position[table.number]


def _check_threshold(threshold: int) -> None:
    if threshold < 1:
        raise SeatingError("the balance threshold is at least one player")


def _balance(planner: _Planner, threshold: int, rank: Callable[[Table], int]) -> None:
    """Move players until no table is more than `threshold` short of the largest.

    The giving table is a largest one, the first of those in the break order (its
    players would move at the break anyway). The receiving table is a shortest one,
    the last of those to break, so the player is unlikely to move again soon. The
    player who would post the big blind next moves to the receiving table's worst
    position (TDA 11-A).
    """
    while True:
        playing = planner.in_play()
        if len(playing) < 2:
            return
        most = max(table.count for table in playing)
        short = [table for table in playing if table.count < most - threshold]
        if not short:
            return
        giver = min((table for table in playing if table.count == most), key=rank)
        short.sort(key=lambda table: (table.count, -rank(table)))
        for receiver in short:
            try:
                to_seat = balance_seat(
                    receiver, planner.rule, movers=planner.balanced_in(receiver.number)
                )
            except SeatingError:
                continue  # full (a smaller table) or only the small blind is free
            break
        else:
            return
        seat = next_big_blind_seat(giver, planner.rule)
        entry = giver.entry_at(seat)
        assert entry is not None
        planner.move(entry, giver, seat, receiver.number, to_seat, Reason.BALANCE)


def _break_next(planner: _Planner, sequence: Sequence[int], rng: random.Random) -> bool:
    """Break the next table in `sequence` if its players fit elsewhere (TDA 10).

    Its players draw empty seats at random, any seat including the blinds and the
    button; each seat goes to a table with the fewest players at that moment, so the
    remaining tables stay as even as their seats allow.
    """
    playing = planner.in_play()
    if len(playing) < 2:
        return False
    numbers = {table.number for table in playing}
    closing = planner.tables[next(number for number in sequence if number in numbers)]
    players = sum(table.count for table in playing)
    room = sum(table.seats for table in playing) - closing.seats
    if players > room:
        return False
    # Random tie-breaks make the choice among equally short tables part of the draw.
    heap = [
        (table.count, rng.random(), table.number)
        for table in playing
        if table is not closing and table.count < table.seats
    ]
    heapq.heapify(heap)
    free: dict[int, list[int]] = {}
    slots: list[tuple[int, int]] = []
    for _ in range(closing.count):
        count, _, number = heapq.heappop(heap)
        empty = free.setdefault(number, list(planner.tables[number].empty_seats))
        slots.append((number, empty.pop(rng.randrange(len(empty)))))
        if empty:
            heapq.heappush(heap, (count + 1, rng.random(), number))
    players_moving = list(closing.occupants)
    rng.shuffle(players_moving)
    for (seat, entry), (number, to_seat) in zip(players_moving, slots, strict=True):
        planner.move(entry, closing, seat, number, to_seat, Reason.BREAK)
    planner.tables[closing.number] = planner.tables[closing.number].emptied()
    planner.broken.append(closing.number)
    return True


def plan_balance(
    tables: Sequence[Table],
    *,
    threshold: int = 1,
    break_order: Sequence[int] = (),
    rule: str = ButtonRule.DEAD,
) -> Plan:
    """Balance the tables (TDA 11): none ends more than `threshold` short of the largest.

    With the default threshold of one, a table is short at two fewer players than the
    largest. See `_balance` for the procedure choosing the tables (TDA 11-C).
    """
    _check_threshold(threshold)
    planner = _Planner(tables, rule)
    _balance(planner, threshold, _rank(break_sequence(tables, break_order)))
    return planner.plan()


def plan_break(
    tables: Sequence[Table],
    *,
    break_order: Sequence[int] = (),
    rng: random.Random,
    rule: str = ButtonRule.DEAD,
) -> Plan:
    """Break the next table in the break order when its players fit elsewhere (TDA 10).

    They fit when the players in play number no more than the seats of the other tables
    in play. Returns an empty plan otherwise.
    """
    planner = _Planner(tables, rule)
    _break_next(planner, break_sequence(tables, break_order), rng)
    return planner.plan()


def settled(
    counts: Sequence[tuple[int, int, int]],
    *,
    break_order: Sequence[int] = (),
    threshold: int = 1,
) -> bool:
    """True when `plan_after_elimination` has nothing to do, judged from head counts.

    `counts` holds (table number, seats, players) for the tables in play. Nothing is to
    do when no table can break (the players do not fit the other tables' seats) and no
    table is more than `threshold` short of the largest. False means a plan may move
    someone (seat positions decide), so the caller reads the seats and plans: a cheap
    test first, for the most common bust-out, which changes nothing.
    """
    _check_threshold(threshold)
    playing = [(number, seats, count) for number, seats, count in counts if count > 0]
    if len(playing) < 2:
        return True
    numbers = {number for number, _, _ in playing}
    listed = [n for n in dict.fromkeys(break_order) if n in numbers]
    closing = (listed or sorted(numbers, reverse=True))[0]
    seats_of = {number: seats for number, seats, _ in playing}
    players = sum(count for _, _, count in playing)
    if players <= sum(seats_of.values()) - seats_of[closing]:
        return False
    most = max(count for _, _, count in playing)
    return all(count >= most - threshold for _, _, count in playing)


def plan_after_elimination(
    tables: Sequence[Table],
    *,
    break_order: Sequence[int] = (),
    threshold: int = 1,
    rng: random.Random,
    rule: str = ButtonRule.DEAD,
) -> Plan:
    """Everything the seating needs after a change of players: breaks, then balance.

    Call it after every bust-out, and after a late entry or re-entry is seated. Breaks
    repeat while the players fit into one table fewer (several players may have left
    together), then the remaining tables are balanced.
    """
    _check_threshold(threshold)
    planner = _Planner(tables, rule)
    sequence = break_sequence(tables, break_order)
    while _break_next(planner, sequence, rng):
        pass
    _balance(planner, threshold, _rank(sequence))
    return planner.plan()
