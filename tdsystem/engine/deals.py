"""Deals among the last players: ICM (Malmuth-Harville) and chip-chop (standard library only).

The players left agree to share the prizes of the places they still hold instead of
playing them out. Two ways to share are offered:

- ICM, the Malmuth-Harville model: a player finishes first with probability chips / all
  chips; given who has finished above, the next place goes to each of the others in
  proportion to their chips. A player's amount is the expected prize under that model.
- Chip-chop: every player gets the smallest prize still to be paid (the last place among
  the players left), and the rest is shared in proportion to chips.

Either way, an amount may be kept back to play on for (`play_for`): it is taken off the top
prize(s) before the deal and paid to whoever wins the played-on part.

The work is exact (`fractions.Fraction`); only the final amounts are rounded, to the event's
unit: each player gets the exact share rounded down to the unit, and the units left over go
one each to the largest remainders (ties: the bigger stack, then the order given). So the
amounts add up exactly, and a bigger stack never gets less than a smaller one. Equal stacks
get equal amounts whenever the units left over fall evenly; otherwise they differ by one
unit, the earlier listed player holding it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

ICM = "icm"
CHIP_CHOP = "chip-chop"
METHODS = (ICM, CHIP_CHOP)

# ICM is worked over the sets of players who may have finished above a place: n * 2**n
# exact steps (10 players: about 10,000; 12: about 49,000, each on fractions whose
# denominators grow with n). Ten covers every final table this system seats.
MAX_ICM_PLAYERS = 10


class DealError(ValueError):
    """A deal that cannot be worked out from what was given."""


@dataclass(frozen=True)
class DealPlan:
    """A worked-out deal, in the order the players were given.

    `amounts` are rounded to `unit` and add up to `total - play_for`; `exact` are the shares
    before rounding; `prizes` are the prizes by place after `play_for` was taken off.
    """

    method: str
    stacks: tuple[int, ...]
    amounts: tuple[Decimal, ...]
    exact: tuple[Fraction, ...]
    prizes: tuple[Fraction, ...]
    total: Decimal
    play_for: Decimal
    unit: Decimal


def icm_equities(
    stacks: Sequence[int], prizes: Sequence[Fraction | Decimal | int]
) -> tuple[Fraction, ...]:
    """Each player's expected prize under Malmuth-Harville, exactly.

    `prizes` are by place (1st first); places past the prizes given pay nothing, prizes past
    the players are never reached. Works over subsets: `reach[done]` is the probability that
    exactly the players in `done` took the places 1..len(done), so place len(done)+1 goes to
    each other player i with probability reach[done] * stack_i / chips not in `done`.
    """
    n = len(stacks)
    _check_stacks(stacks)
    if n > MAX_ICM_PLAYERS:
        raise DealError(f"ICM is worked out for at most {MAX_ICM_PLAYERS} players, not {n}")
    paid = [Fraction(p) for p in prizes][:n]
    total_chips = sum(stacks)
    equity = [Fraction(0)] * n
    reach: dict[int, Fraction] = {0: Fraction(1)}
    chips_done: dict[int, int] = {0: 0}
    for place, prize in enumerate(paid):
        following: dict[int, Fraction] = {}
        for done, prob in reach.items():
            left = total_chips - chips_done[done]
            for i in range(n):
                bit = 1 << i
                if done & bit:
                    continue
                p = prob * Fraction(stacks[i], left)
                equity[i] += p * prize
                if place + 1 < len(paid):
                    nxt = done | bit
                    following[nxt] = following.get(nxt, Fraction(0)) + p
                    chips_done[nxt] = chips_done[done] + stacks[i]
        reach = following
    return tuple(equity)


def take_play_for(prizes: Sequence[Fraction], play_for: Fraction) -> tuple[Fraction, ...]:
    """The prizes after `play_for` is taken off the top: the first prize is cut down to the
    second's level, then both together down to the third's, and so on, so the prizes stay
    in order (a smaller cut touches only the first prize)."""
    cut = list(prizes)
    if play_for <= 0:
        return tuple(cut)
    for k in range(1, len(cut) + 1):
        level = (sum(cut[:k]) - play_for) / k
        if k == len(cut) or level >= cut[k]:
            return tuple([level] * k + cut[k:])
    raise AssertionError("unreachable")  # pragma: no cover


def deal_plan(
    *,
    method: str,
    stacks: Sequence[int],
    prizes: Sequence[Decimal],
    unit: Decimal,
    play_for: Decimal = Decimal(0),
) -> DealPlan:
    """Work out a deal: `stacks` of the players left, `prizes` of places 1..len(stacks).

    Fewer prizes than players is refused (a player would be dealt a share of nothing); the
    prizes must be in order (1st the largest) and, like `play_for`, whole units.
    """
    if method not in METHODS:
        raise DealError(f"choose one of: {', '.join(METHODS)}")
    _check_stacks(stacks)
    n = len(stacks)
    if len(prizes) < n:
        raise DealError(f"{n} players left but only {len(prizes)} paid place(s) to share")
    places = [Decimal(p) for p in prizes[:n]]
    if not unit.is_finite() or unit <= 0:
        raise DealError("the rounding unit must be above 0")
    if any(p < 0 for p in places) or any(a < b for a, b in itertools.pairwise(places)):
        raise DealError("the prizes must be by place, the largest first, none below 0")
    if places[-1] <= 0:
        raise DealError(f"place {n} pays nothing: more players left than paid places")
    total = sum(places, Decimal(0))
    if not play_for.is_finite() or play_for < 0:
        raise DealError("the amount to play for cannot be below 0")
    if play_for > total:
        raise DealError(f"the amount to play for is more than the {total} left to pay")
    for value, what in ((total, "the prizes"), (play_for, "the amount to play for")):
        if value % unit:
            raise DealError(f"{what} must be whole units of {unit}")
    cut = take_play_for([Fraction(p) for p in places], Fraction(play_for))
    exact = icm_equities(stacks, cut) if method == ICM else _chip_chop(stacks, cut)
    amounts = round_to_unit(exact, stacks, total - play_for, unit)
    return DealPlan(
        method=method,
        stacks=tuple(stacks),
        amounts=amounts,
        exact=exact,
        prizes=cut,
        total=total,
        play_for=play_for,
        unit=unit,
    )


def _chip_chop(stacks: Sequence[int], prizes: Sequence[Fraction]) -> tuple[Fraction, ...]:
    floor = prizes[-1]
    rest = sum(prizes) - floor * len(stacks)
    chips = sum(stacks)
    return tuple(floor + rest * Fraction(s, chips) for s in stacks)


def round_to_unit(
    exact: Sequence[Fraction], stacks: Sequence[int], total: Decimal, unit: Decimal
) -> tuple[Decimal, ...]:
    """Round each share down to the unit, then hand the units left over one each to the
    largest remainders (ties: the bigger stack, then the earlier listed), so the amounts
    add up to `total` exactly."""
    step = Fraction(unit)
    units = [int(x // step) for x in exact]
    left = int(Fraction(total) / step) - sum(units)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - units[i] * step), -stacks[i], i))
    for i in order[:left]:
        units[i] += 1
    return tuple(unit * u for u in units)


def _check_stacks(stacks: Sequence[int]) -> None:
    if not stacks:
        raise DealError("no players to deal")
    if any(isinstance(s, bool) or s < 1 for s in stacks):
        raise DealError("every player in a deal needs a chip count above 0")
