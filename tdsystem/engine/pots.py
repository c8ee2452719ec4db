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
    in ``dead``), ``in_hand`` is false for folded seats, ``active`` true for the seats in the
    hand that still have chips and may yet call, so they are eligible at every level.
    Neighbouring slices with the same eligible players merge into one pot.
    """
    if in_hand == active:
        # Nobody in the hand is all-in, so nobody's chips are capped: one pot, which every
        # seat in the hand may win (what the cuts below come to with no all-in level).
        total = sum(contributions)
        if not total:
            return [(dead, _in_hand(in_hand))] if dead else []
        return [(dead + total, _in_hand(in_hand))]
    pots: list[list] = []
    if dead:
        pots.append([dead, _in_hand(in_hand)])
    # Without ``strict``: the lists are one per seat, and a keyword argument makes the call slow.
    seats = list(zip(range(len(contributions)), contributions, in_hand, active))  # noqa: B905
    # Who may win the chips at a level changes only at an all-in player's level (in the
    # hand, no chips left), so the chips are cut there, and at the top for what the others
    # put in beyond the last all-in; a folded seat's chips fall into the slices they reach.
    cuts = []
    top = 0
    for _, chips, live, may_call in seats:
        if chips > top:
            top = chips
        if live and not may_call and chips > 0:
            cuts.append(chips)
    cuts.sort()
    if top and (not cuts or top > cuts[-1]):
        cuts.append(top)
    previous = 0
    for level in cuts:
        if level == previous:
            continue  # two all-ins for the same amount
        amount = 0
        eligible = []
        for i, chips, live, may_call in seats:
            if chips >= level:
                amount += level - previous
                if live:
                    eligible.append(i)
            else:
                if chips > previous:
                    amount += chips - previous
                if may_call:
                    eligible.append(i)
        previous = level
        key = tuple(eligible)
        if pots and (pots[-1][1] == key or not key):
            # Chips nobody in the hand can claim at their level (folded players above
            # every remaining all-in) stay with the pot below: folding gave them up.
            pots[-1][0] += amount
        else:
            pots.append([amount, key or _in_hand(in_hand)])
    return [(amount, key) for amount, key in pots]


def _in_hand(in_hand: Sequence[bool]) -> tuple[int, ...]:
    return tuple([i for i, live in enumerate(in_hand) if live])
