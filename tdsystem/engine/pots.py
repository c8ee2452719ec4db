"""Main and side pots (D8, D10).

An all-in player can win from each opponent at most what they put in, so the chips are cut
at every all-in level: each slice is a pot that only the players who reached it (or who
are still active and may yet call) can win. Traditional antes are live chips like any
other, which gives the partial-ante rule of D8 for free; a button or big blind ante is
dead money for the whole table and starts the main pot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[str, ...]  # in the order of the players in the hand


def split_pots(
    contributions: Sequence[int],
    in_hand: Sequence[bool],
    active: Sequence[bool],
    dead: int = 0,
) -> list[tuple[int, tuple[int, ...]]]:
    """Cut the chips into pots, main pot first, as ``(amount, eligible seat indices)``.

    ``contributions`` are each seat's live chips for the hand (dead antes excluded and given
    in ``dead``), ``in_hand`` is false for folded seats, ``active`` true for seats that still
    have chips and may yet call, so they are eligible at every level. Neighbouring slices
    with the same eligible players merge into one pot.
    """
    pots: list[list] = []
    if dead:
        pots.append([dead, tuple(i for i, live in enumerate(in_hand) if live)])
    previous = 0
    seats = list(zip(range(len(contributions)), contributions, in_hand, active, strict=True))
    for level in sorted(set(contributions)):
        if level <= 0:
            continue
        reached = 0
        eligible = []
        for i, chips, live, may_call in seats:
            if chips >= level:
                reached += 1
                if live:
                    eligible.append(i)
            elif may_call:
                eligible.append(i)
        amount = (level - previous) * reached
        previous = level
        key = tuple(eligible)
        if pots and (pots[-1][1] == key or not key):
            # Chips nobody in the hand can claim at their level (folded players above
            # every remaining all-in) stay with the pot below: folding gave them up.
            pots[-1][0] += amount
        elif key:
            pots.append([amount, key])
        else:
            pots.append([amount, tuple(i for i, live in enumerate(in_hand) if live)])
    return [(amount, key) for amount, key in pots]
