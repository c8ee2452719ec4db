"""Bounties: knockout and progressive knockout (PKO) payments (standard library only).

Every entry carries a bounty ("head") of the event's bounty amount. When a player is out:

- knockout: the head, a fixed amount, is paid to the eliminator;
- progressive knockout: half the eliminated player's head is paid to the eliminator and
  half is added to the eliminator's own head, so heads grow as players knock others out.
  The cash half is rounded down to the unit; what rounding leaves goes onto the head, so
  it is never lost: the winner collects it at the end.

Several eliminators of one player (a split pot) share each part equally in whole units;
the units left over go one each to the eliminators in the order given, first first (the
service gives them clockwise from the button, as the odd chip of a split pot goes).

A player out with no eliminator (the house rule's short big blind) keeps their own head,
as the winner does in PKO: the last player collects the head on their own shoulders, the
common practice of knockout events. So the bounties paid, the heads still in play and the
winner's head always add up to the bounty pool exactly.

Money is `decimal.Decimal`, in whole multiples of `unit` (the currency's smallest unit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from typing import Literal

BountyType = Literal["none", "knockout", "progressive"]
NONE: BountyType = "none"
KNOCKOUT: BountyType = "knockout"
PROGRESSIVE: BountyType = "progressive"
BOUNTY_TYPES: tuple[BountyType, ...] = (NONE, KNOCKOUT, PROGRESSIVE)


class BountyError(ValueError):
    """A bounty that cannot be worked out as asked."""


@dataclass(frozen=True)
class Knockout:
    """What one elimination moves: cash paid and head added, by eliminator."""

    paid: dict[int, Decimal]
    to_head: dict[int, Decimal]

    @property
    def total(self) -> Decimal:
        return sum(self.paid.values(), Decimal(0)) + sum(self.to_head.values(), Decimal(0))


def _check_amount(amount: Decimal, unit: Decimal, what: str) -> None:
    if not unit.is_finite() or unit <= 0:
        raise BountyError("the unit must be above 0")
    if not amount.is_finite() or amount < 0:
        raise BountyError(f"{what} cannot be negative")
    if amount % unit:
        raise BountyError(f"{what} {amount} is not a whole number of {unit}")


def split(amount: Decimal, shares: int, unit: Decimal) -> tuple[Decimal, ...]:
    """`amount` in `shares` equal parts of whole units; the units left over go one each
    to the first parts. The parts add up to `amount` exactly."""
    if shares < 1:
        raise BountyError("a bounty is split between at least one player")
    _check_amount(amount, unit, "the amount")
    units = int(amount / unit)
    base, extra = divmod(units, shares)
    return tuple(unit * (base + (1 if i < extra else 0)) for i in range(shares))


def half_paid(head: Decimal, unit: Decimal) -> Decimal:
    """The cash half of a PKO head, rounded down to the unit."""
    _check_amount(head, unit, "the head")
    return (head / 2 / unit).to_integral_value(rounding=ROUND_FLOOR) * unit


def knockout(
    *, kind: BountyType, head: Decimal, eliminators: Sequence[int], unit: Decimal
) -> Knockout:
    """What the elimination of a player whose head is `head` pays to `eliminators`.

    Eliminators are told apart by their ids (entries), in the order the leftover units
    go. An empty list means nobody knocked the player out: nothing moves here (the
    player keeps their head, see `own_head`).
    """
    if kind not in BOUNTY_TYPES:
        raise BountyError(f"unknown bounty type {kind!r}")
    if len(set(eliminators)) != len(eliminators):
        raise BountyError("an eliminator is named twice")
    _check_amount(head, unit, "the head")
    if kind == NONE or not eliminators:
        return Knockout({e: Decimal(0) for e in eliminators}, {e: Decimal(0) for e in eliminators})
    n = len(eliminators)
    if kind == KNOCKOUT:
        cash = split(head, n, unit)
        return Knockout(
            dict(zip(eliminators, cash, strict=True)), dict.fromkeys(eliminators, Decimal(0))
        )
    paid = half_paid(head, unit)
    cash = split(paid, n, unit)
    grow = split(head - paid, n, unit)
    return Knockout(
        dict(zip(eliminators, cash, strict=True)), dict(zip(eliminators, grow, strict=True))
    )


def pool(*, amount: Decimal, entries: int) -> Decimal:
    """The bounty pool: one head of `amount` per entry."""
    if entries < 0:
        raise BountyError("the number of entries cannot be negative")
    return amount * entries


@dataclass(frozen=True)
class Ledger:
    """Bounties as they stand: cash won by entry, heads of the players still in play."""

    won: dict[int, Decimal]
    heads: dict[int, Decimal]

    def total(self) -> Decimal:
        return sum(self.won.values(), Decimal(0)) + sum(self.heads.values(), Decimal(0))


def ledger_start(*, amount: Decimal, entries: Sequence[int], unit: Decimal) -> Ledger:
    _check_amount(amount, unit, "the bounty")
    return Ledger({}, dict.fromkeys(entries, amount))


def ledger_knockout(
    ledger: Ledger,
    *,
    kind: BountyType,
    out: Sequence[int],
    eliminators: Sequence[int],
    unit: Decimal,
) -> tuple[Ledger, dict[int, Knockout]]:
    """The ledger after the players `out` were knocked out by `eliminators` (who each
    share every one of them), and what each knockout moved. With no eliminator, each
    player out keeps their head (paid to themselves)."""
    won, heads = dict(ledger.won), dict(ledger.heads)
    missing = [e for e in (*out, *eliminators) if e not in heads]
    if missing:
        raise BountyError(f"entry {missing[0]} has no head in play")
    if set(out) & set(eliminators):
        raise BountyError("a player cannot eliminate themselves")
    moved: dict[int, Knockout] = {}
    for player in out:
        head = heads.pop(player)
        if not eliminators:
            won[player] = won.get(player, Decimal(0)) + head
            moved[player] = Knockout({player: head}, {})
            continue
        ko = knockout(kind=kind, head=head, eliminators=eliminators, unit=unit)
        for e in eliminators:
            won[e] = won.get(e, Decimal(0)) + ko.paid[e]
            heads[e] += ko.to_head[e]
        moved[player] = ko
    return Ledger(won, heads), moved


def own_head(ledger: Ledger, *, entry: int) -> Ledger:
    """The winner (or a player out with no eliminator) collects their own head."""
    if entry not in ledger.heads:
        raise BountyError(f"entry {entry} has no head in play")
    won, heads = dict(ledger.won), dict(ledger.heads)
    won[entry] = won.get(entry, Decimal(0)) + heads.pop(entry)
    return Ledger(won, heads)
