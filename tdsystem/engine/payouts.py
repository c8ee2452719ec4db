"""Prize pools, payout tables, finishing places and prize splits (standard library only).

Money is `decimal.Decimal`. Every function that divides money rounds to the event's unit
(e.g. 1, 5 or 0.01) and hands the units left over to the best places, so the amounts always
add up to the pool exactly: no money is lost or invented.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal


class PayoutError(ValueError):
    """A payout table or split that cannot be made."""


# Published-style tables: percentages of the pool by place, for small fields. Larger
# fields use `standard_table`, which pays about the top `paid_fraction` of the field.
FIXED_TABLES: dict[str, tuple[Decimal, ...]] = {
    "winner-takes-all": (Decimal(100),),
    "top-2": (Decimal(65), Decimal(35)),
    "top-3": (Decimal(50), Decimal(30), Decimal(20)),
    "top-4": (Decimal(40), Decimal(30), Decimal(20), Decimal(10)),
    "top-5": (Decimal(38), Decimal(25), Decimal(17), Decimal(12), Decimal(8)),
}
STANDARD_TABLES = ("top-10-percent", "top-15-percent", "top-20-percent")


def standard_table(entries: int, paid_fraction: float = 0.15) -> tuple[Decimal, ...]:
    """Percentages for about the top `paid_fraction` of `entries` (at least the winner).

    Shares fall off as 1 / place**0.9: steep at the top, flat near the bubble, the shape of
    most published tournament payouts. Percentages have 4 decimals and sum to 100.
    """
    if entries < 1:
        raise PayoutError("no entries: nothing to pay")
    if not 0 < paid_fraction <= 1:
        raise PayoutError("the paid fraction must be between 0 and 1")
    places = max(1, min(entries, math.ceil(entries * paid_fraction)))
    if places == 1:
        return (Decimal(100),)
    weights = [1 / (i**0.9) for i in range(1, places + 1)]
    total = sum(weights)
    raw = [Decimal(str(round(100 * w / total, 4))) for w in weights]
    raw[0] += Decimal(100) - sum(raw)  # rounding crumbs to the winner
    return tuple(raw)


def table_for(name: str, entries: int) -> tuple[Decimal, ...]:
    if name in FIXED_TABLES:
        table = FIXED_TABLES[name]
        return table[: max(1, min(len(table), entries))] if entries < len(table) else table
    if name in STANDARD_TABLES:
        return standard_table(entries, int(name.split("-")[1]) / 100)
    raise PayoutError(
        f"unknown payout table {name!r}: use one of {', '.join([*FIXED_TABLES, *STANDARD_TABLES])}"
    )


PERCENT_STEP = Decimal("0.0001")


def check_custom(percentages: Sequence[Decimal | str | int | float]) -> tuple[Decimal, ...]:
    try:
        values = tuple(Decimal(str(p)) for p in percentages)
    except ArithmeticError:
        raise PayoutError("percentages must be numbers") from None
    if not values:
        raise PayoutError("a payout table needs at least one place")
    # NaN would fail every comparison below with InvalidOperation; a huge or very long
    # number would be rounded by the decimal context and could pass the sum.
    if not all(v.is_finite() for v in values):
        raise PayoutError("percentages must be numbers (not NaN or infinity)")
    if any(v <= 0 for v in values):
        raise PayoutError("every paid place needs a percentage above 0")
    if any(v > 100 for v in values):
        raise PayoutError("a percentage cannot be more than 100")
    if any(v != v.quantize(PERCENT_STEP) for v in values):
        raise PayoutError("a percentage has at most 4 decimals (33.3333)")
    if any(a < b for a, b in itertools.pairwise(values)):
        raise PayoutError("a lower place may not pay more than a higher one")
    if sum(values) != 100:
        raise PayoutError(f"the percentages add up to {sum(values)}, not 100")
    return values


def _units(amount: Decimal, unit: Decimal) -> int:
    return int((amount / unit).to_integral_value(rounding=ROUND_FLOOR))


def split_pool(pool: Decimal, percentages: Sequence[Decimal], unit: Decimal) -> list[Decimal]:
    """Prize per place: each floored to the unit, leftover units to the best places."""
    if unit <= 0:
        raise PayoutError("the rounding unit must be above 0")
    if pool < 0:
        raise PayoutError("the prize pool cannot be negative")
    shares = [pool * p / 100 for p in percentages]
    amounts = [_units(s, unit) * unit for s in shares]
    leftover_units = _units(pool - sum(amounts), unit)
    # Hand out leftover units by the largest rounding loss, ties to the better place.
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), i))
    for i in order[:leftover_units]:
        amounts[i] += unit
    amounts[0] += pool - sum(amounts)  # less than one unit: the winner's
    return amounts


# Rounding units a director is offered when the one asked for leaves a place unpaid.
USUAL_UNITS = tuple(
    Decimal(u)
    for u in (
        *("0.01", "0.05", "0.1", "0.25", "0.5", "1", "2", "5", "10", "20", "25", "50"),
        *("100", "200", "250", "500", "1000", "5000", "10000", "100000"),
    )
)


def auto_unit(buy_in: Decimal) -> Decimal:
    """The rounding unit a room would choose for an event of this buy-in: the largest
    usual unit at most a tenth of it (15,000 -> 1,000; 100 -> 10; 55 -> 5; 5.50 -> 0.5), 1
    for a free event. Prizes of a few buy-ins each then read as round amounts."""
    tenth = Decimal(buy_in) / 10
    fitting = [unit for unit in USUAL_UNITS if unit <= tenth]
    return fitting[-1] if fitting and buy_in > 0 else Decimal(1)


def unpaid_place(pool: Decimal, percentages: Sequence[Decimal], unit: Decimal) -> int | None:
    """The first paid place (1-based) that rounding to `unit` leaves with nothing, or None.

    A place is paid when its percentage is above 0; with no pool yet no place is unpaid."""
    if pool <= 0:
        return None
    amounts = split_pool(pool, percentages, unit)
    for place, (share, amount) in enumerate(zip(percentages, amounts, strict=True), start=1):
        if share > 0 and amount <= 0:
            return place
    return None


def largest_paying_unit(
    pool: Decimal, percentages: Sequence[Decimal], *, below: Decimal
) -> Decimal | None:
    """The largest usual unit under `below` that pays every paid place, or None."""
    for unit in reversed(USUAL_UNITS):
        if unit < below and unpaid_place(pool, percentages, unit) is None:
            return unit
    return None


@dataclass(frozen=True)
class Finish:
    entry: int
    place: int  # the best place of the range the player shares
    place_to: int  # equal to place unless tied


def finishing_places(players_before: int, busted: Sequence[tuple[int, int]]) -> list[Finish]:
    """Places of players busted on the same hand (or the same hand-for-hand hand).

    `busted`: (entry, chips at the start of the hand). The player who started the hand with
    more chips finishes higher; equal starting stacks tie and share the places they cover.
    """
    if not busted:
        return []
    if len({e for e, _ in busted}) != len(busted):
        raise PayoutError("a player is listed twice in one bust-out")
    if len(busted) >= players_before:
        raise PayoutError(
            f"{len(busted)} players cannot bust when {players_before} are left: one must win"
        )
    if any(stack < 0 for _, stack in busted):
        raise PayoutError("a starting stack cannot be negative")
    ranked = sorted(busted, key=lambda b: -b[1])
    worst = players_before
    best = players_before - len(busted) + 1
    finishes: list[Finish] = []
    place = best
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][1] == ranked[i][1]:
            j += 1
        for entry, _ in sorted(ranked[i : j + 1]):
            finishes.append(Finish(entry, place, place + (j - i)))
        place += j - i + 1
        i = j + 1
    assert place == worst + 1
    return finishes


def prizes_for(
    finishes: Sequence[Finish], prizes_by_place: Sequence[Decimal], unit: Decimal
) -> dict[int, Decimal]:
    """Prize of each finisher; tied players split the prizes of the places they share.

    A split that does not divide into whole units gives the odd units to the tied players
    in entry order (deterministic, and the total stays exact).
    """

    def prize(place: int) -> Decimal:
        return prizes_by_place[place - 1] if place <= len(prizes_by_place) else Decimal(0)

    out: dict[int, Decimal] = {}
    groups: dict[tuple[int, int], list[int]] = {}
    for f in finishes:
        groups.setdefault((f.place, f.place_to), []).append(f.entry)
    for (first, last), entries in groups.items():
        total = sum((prize(p) for p in range(first, last + 1)), Decimal(0))
        share = _units(total / len(entries), unit) * unit
        rest = total - share * len(entries)
        for entry in sorted(entries):
            extra = min(unit, rest) if rest > 0 else Decimal(0)
            out[entry] = share + extra
            rest -= extra
    return out


def fit_table(percentages: Sequence[Decimal], entries: int) -> tuple[Decimal, ...]:
    """The table cut to the places that can exist: at most one per entry.

    A custom table of ten places in a field of six pays six: the cut places' share goes to
    the kept places in proportion to theirs (4 decimals, the crumbs to the winner), so the
    table still adds up to 100 and no money is left for places nobody can take.
    """
    if entries < 1:
        raise PayoutError("no entries: nothing to pay")
    values = tuple(Decimal(p) for p in percentages)
    if len(values) <= entries:
        return values
    kept = values[:entries]
    total = sum(kept)
    scaled = [(p * 100 / total).quantize(Decimal("0.0001"), rounding=ROUND_FLOOR) for p in kept]
    scaled[0] += Decimal(100) - sum(scaled)
    return tuple(scaled)


def places_for_groups(entries: int, groups: Sequence[Sequence[tuple[int, int]]]) -> list[Finish]:
    """Places of every bust-out so far, from the field size and the bust-outs in order.

    `groups` are the simultaneous bust-outs in the order they happened, each a list of
    (entry, chips at the start of the hand). The first group takes the last places of
    `entries`; a late entry (a bigger field) moves every earlier place down by one, an
    undone bust-out moves the later ones down: the places are a function of these two
    inputs only, so recomputing them after any change gives the same answer as if the
    field had been known from the start.
    """
    finishes: list[Finish] = []
    left = entries
    for group in groups:
        if not group:
            continue
        finishes.extend(finishing_places(left, group))
        left -= len(group)
    return finishes


def place_label(place: int, place_to: int) -> str:
    """ "5" or, for players who tie, "5-6"."""
    return str(place) if place == place_to else f"{place}-{place_to}"
