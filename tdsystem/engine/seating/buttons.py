"""The button and the blinds of one table, hand after hand (D11, TDA 32 and 34-B).

A table stores the positions of its current or last hand. `next_hand` gives the next
hand's positions from those and the players seated now, whoever left or arrived since.

`skip_empty` is the rule set's `dead_button_skips_empty` (TDA 2026 36-B, reported): a
dead button with several empty seats before the small blind moves over them to the seat
just before the small blind, so a newcomer there is dealt in at once. The blinds move as
without it.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right, insort
from collections.abc import Collection, Sequence
from dataclasses import replace

from .model import ButtonRule, SeatingError, Table, button_rule

Positions = tuple[int, int, int]
"""(button, small blind, big blind) seats of one hand."""


def _next_occupied(occupied: Sequence[int], seat: int) -> int:
    """The first occupied seat clockwise strictly after `seat` (occupied is sorted)."""
    index = bisect_right(occupied, seat)
    return occupied[index] if index < len(occupied) else occupied[0]


def _previous_occupied(occupied: Sequence[int], seat: int) -> int:
    """The first occupied seat counter-clockwise strictly before `seat`."""
    return occupied[bisect_left(occupied, seat) - 1]


def _distance(start: int, end: int, seats: int) -> int:
    """How many steps clockwise from `start` to `end`."""
    return (end - start) % seats


def _strictly_between(seat: int, start: int, end: int, seats: int) -> bool:
    """True when `seat` lies clockwise after `start` and before `end`."""
    return 0 < _distance(start, seat, seats) < _distance(start, end, seats)


def _waiting(
    seats: int,
    occupied: Sequence[int],
    last: Positions,
    rule: ButtonRule,
    skip_empty: bool = False,
) -> list[int]:
    """Occupied seats whose players sit out the coming hand, waiting for the button.

    Dead button: the seats strictly between the last hand's blinds. Nobody was dealt in
    there (the big blind went to the first player after the small blind), so these
    players arrived since; the coming button and small blind pass them by (TDA 8-A, 10).
    Moving button: also the seats strictly between the last button and small blind,
    since the button moves to the next live player and would otherwise land on a
    newcomer there and make the last blinds post again. If waiting would leave fewer
    than two players to deal to, nobody waits.

    At every table size only a seat strictly between the coming button and small blind
    waits. Under the dead button the last big blind posts the small blind and the big blind
    moves on to the next seated player; when that player sits on the last small blind's
    seat (after a heads-up hand, or when too few are left beyond the blinds), the button
    cannot stay there: it goes to the player just before the small blind, a newcomer
    included, and nobody is passed by. After a heads-up hand the moving button always
    lands just before the small blind, so nobody waits either. With `skip_empty`, a dead
    button (the last small blind's seat is empty now) moves to the seat just before the
    coming small blind, so nobody lies between them and nobody waits.
    """
    button, small_blind, big_blind = last
    if rule is ButtonRule.MOVING:
        if button == small_blind:
            return []
        start = button
    else:
        start = small_blind
        coming_big = _next_occupied(occupied, big_blind)
        if not _strictly_between(big_blind, small_blind, coming_big, seats):
            return []
        if skip_empty and small_blind not in occupied:
            return []
    waiting = [
        seat
        for seat in occupied
        if seat != small_blind and _strictly_between(seat, start, big_blind, seats)
    ]
    return waiting if len(occupied) - len(waiting) >= 2 else []


def _positions(
    seats: int,
    occupied: Sequence[int],
    last: Positions,
    rule: ButtonRule,
    skip_empty: bool = False,
) -> Positions:
    """The next hand's positions, from the last hand's and the seats occupied now."""
    if len(occupied) < 2:
        raise SeatingError("a hand needs two players")
    waiting = _waiting(seats, occupied, last, rule, skip_empty)
    live = [seat for seat in occupied if seat not in waiting] if waiting else occupied
    button, small_blind, big_blind = last
    if len(live) == 2:
        # Heads-up under either rule: the big blind keeps moving forward, so nobody posts
        # it twice in a row, and the other player takes the button and the small blind.
        new_big = _next_occupied(live, big_blind)
        other = live[0] if live[1] == new_big else live[1]
        return other, other, new_big
    if rule is ButtonRule.MOVING:
        new_button = _next_occupied(live, button)
        new_small = _next_occupied(live, new_button)
        new_big = _next_occupied(live, new_small)
        if new_big != big_blind:
            return new_button, new_small, new_big
        # Only when newcomers between the last button and big blind are dealt in (too few
        # others to play): they would take the button and small blind, and the big blind
        # would post again. The big blind moves forward instead, the others follow it.
        new_big = _next_occupied(live, big_blind)
        new_small = _previous_occupied(live, new_big)
        return _previous_occupied(live, new_small), new_small, new_big
    new_big = _next_occupied(live, big_blind)
    new_small = big_blind
    new_button = small_blind
    if not 0 < _distance(new_button, new_small, seats) < _distance(new_button, new_big, seats):
        # Only when both blinds left and newcomers sat between them: the big blind would
        # reach the old small blind seat. The button goes to the player just before the
        # small blind, the nearest seat keeping button, small blind, big blind in order.
        new_button = _previous_occupied(live, new_small)
    elif skip_empty and new_button not in occupied:
        # A dead button moves over the empty seats (and any newcomer, dealt in behind it)
        # to the seat just before the small blind; the blinds are as ever (TDA 2026 36-B).
        new_button = (new_small - 2) % seats + 1
    return new_button, new_small, new_big


def _last_positions(table: Table) -> Positions:
    if table.button is None or table.small_blind is None or table.big_blind is None:
        raise SeatingError(f"table {table.number} has not dealt a hand yet: use start_hands")
    return table.button, table.small_blind, table.big_blind


def _coming_positions(table: Table, rule: str, skip_empty: bool = False) -> Positions:
    return _positions(
        table.seats, table.occupied_seats, _last_positions(table), button_rule(rule), skip_empty
    )


def start_hands(table: Table, rng: random.Random) -> Table:
    """Set the first hand's button and blinds of a new or redrawn table.

    The button goes to a seated player drawn at random (the high-card draw); the next
    two players post the blinds, or heads-up the button posts the small blind.
    """
    occupied = table.occupied_seats
    if len(occupied) < 2:
        raise SeatingError(f"table {table.number} needs two players to deal")
    button = rng.choice(occupied)
    small_blind = button if len(occupied) == 2 else _next_occupied(occupied, button)
    big_blind = _next_occupied(occupied, small_blind)
    return replace(table, button=button, small_blind=small_blind, big_blind=big_blind)


def next_hand(table: Table, rule: str = ButtonRule.DEAD, *, skip_empty: bool = False) -> Table:
    """The table with the positions of its next hand.

    `table.occupants` are the players seated now; the positions are the last hand's.

    Dead button (TDA 32, the default): the big blind moves to the next occupied seat, the
    small blind to the seat that was the big blind (dead if its player left) and the
    button to the seat that was the small blind (possibly an empty seat). Moving button:
    the button moves to the next seated player and the blinds follow it. Under both,
    heads-up the button posts the small blind and the big blind keeps moving forward, so
    going from three players to two never gives anyone the big blind twice (TDA 34-B).
    With `skip_empty` a dead button moves on to the seat just before the small blind.
    """
    button, small_blind, big_blind = _coming_positions(table, rule, skip_empty)
    return replace(table, button=button, small_blind=small_blind, big_blind=big_blind)


def next_big_blind_seat(table: Table, rule: str = ButtonRule.DEAD) -> int:
    """The seat that posts the big blind in the next hand.

    Before the first hand there is no big blind yet; the lowest occupied seat stands in,
    so balancing a table that has not dealt still follows a fixed procedure.
    """
    if not table.occupants:
        raise SeatingError(f"table {table.number} has nobody seated")
    if not table.started:
        return table.occupied_seats[0]
    return _coming_positions(table, rule)[2]


def is_dealt_in(
    table: Table, seat: int, rule: str = ButtonRule.DEAD, *, skip_empty: bool = False
) -> bool:
    """Whether the player now at `seat` gets a hand next (TDA 8-A and 10).

    Not when the seat lies between the button and the small blind of the coming hand:
    the button would pass that player by without a blind posted, so the player waits
    for it, and the coming hand's positions skip the seat (see `_waiting`).
    """
    if not table.started or table.count < 2:
        return True
    last = _last_positions(table)
    waiting = _waiting(table.seats, table.occupied_seats, last, button_rule(rule), skip_empty)
    return seat not in waiting


def balance_seat(
    table: Table,
    rule: str = ButtonRule.DEAD,
    *,
    movers: Collection[int] = (),
    skip_empty: bool = False,
) -> int:
    """The worst position at `table` for a player moved in to balance (TDA 11-A).

    That is the empty seat whose player posts the big blind soonest: the first empty
    seat clockwise after the big blind (so the newcomer may post the big blind right
    away, even having just posted one elsewhere), never the coming hand's small blind.
    `movers` are seats of players already balanced in by the same plan: the new seat
    must not make one of them the small blind either (possible under the moving
    button). Before the first hand, the lowest empty seat.
    """
    rule = button_rule(rule)
    empty = table.empty_seats
    if not empty:
        raise SeatingError(f"table {table.number} is full")
    if not table.started or table.count == 0:
        return empty[0]
    last = _last_positions(table)
    big_blind = last[2]
    clockwise = sorted(empty, key=lambda seat: _distance(big_blind, seat, table.seats) or 99)
    best: tuple[int, int] | None = None
    for seat in clockwise:
        occupied = list(table.occupied_seats)
        insort(occupied, seat)
        _, small_blind, new_big = _positions(table.seats, occupied, last, rule, skip_empty)
        if small_blind == seat or small_blind in movers:
            continue
        # Hands until this seat posts the big blind: it moves one seated player a hand.
        wait = 0
        if seat != new_big:
            wait = 1 + sum(
                1 for other in occupied if _strictly_between(other, new_big, seat, table.seats)
            )
        if wait == 0:
            return seat
        if best is None or wait < best[0]:
            best = (wait, seat)
    if best is None:
        raise SeatingError(f"table {table.number} has no empty seat but the small blind")
    return best[1]
