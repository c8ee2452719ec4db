"""Satellites: seats in a target event instead of prize money (standard library only).

A seat is worth the target's whole entry price (its buy-in and fee: the ticket pays
everything a player would pay at the desk). The pool buys as many whole seats as it
can; what is left is paid in cash to the next place, the first without a seat. The
amounts add up to the pool exactly, as every split of the engine does.
"""

from __future__ import annotations

from decimal import Decimal

from .payouts import PayoutError


def seats_and_remainder(pool: Decimal, seat_value: Decimal) -> tuple[int, Decimal]:
    """How many whole seats the pool buys, and the cash left over (less than a seat)."""
    pool, seat_value = Decimal(pool), Decimal(seat_value)
    if seat_value <= 0:
        raise PayoutError("a seat must be worth more than nothing")
    if pool < 0:
        raise PayoutError("the prize pool cannot be negative")
    seats = int(pool // seat_value)
    return seats, pool - seats * seat_value


def satellite_prizes(pool: Decimal, seat_value: Decimal) -> tuple[Decimal, ...]:
    """The prize of each paid place: a seat's value for each seat, then the remainder.

    Empty when the pool buys no seat (the event is then paid in cash by its own plan).
    A remainder of nothing pays no extra place.
    """
    seats, remainder = seats_and_remainder(pool, seat_value)
    if seats == 0:
        return ()
    prizes = [Decimal(seat_value)] * seats
    if remainder:
        prizes.append(remainder)
    return tuple(prizes)
