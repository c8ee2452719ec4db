"""A bust-out decided as a pure function: the report and what the event stands at in,
the places, slots, prizes, antes paid, bounties and the winner out.

The results service reads everything a report decides on in one snapshot
(`results/services/snapshot.py`), calls `decide` here and writes the outcome, as the clock
service does with `engine/clock.py`. Nothing here reads the database or the time.

The places follow from the players left and the groups of players out on one hand, each
group placed by the event's rule set (`group_places`); the prizes from the payout plan's
prize of each place (`payouts.prizes_for`, or each player's average over the orders the
rule allows when ranges overlap across tables); the bounties from the heads of the players
out and who eliminated them (`bounties.knockout`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from . import bounties as bountyrules
from . import payouts as rules
from . import rulesets

# How places are placed ---------------------------------------------------------------------


@dataclass(frozen=True)
class Out:
    """A player out in a group: the stack the places compare, and the report's table."""

    entry: int
    stack: int
    table: int


@dataclass(frozen=True)
class GroupPlaces:
    """One group's places and slots.

    `odds` (each player's chance of each place) is there when the players' ranges overlap:
    players at different tables tie while each table's bigger stack stays above its smaller
    (WSOP R126), so A above B at table 1 and C at table 2 take 1-2, 2-3 and 1-3 of the
    three places. Their prizes are then what each would win on average over every order
    the rule allows, all equally likely (the tables' orders interleaved every way).
    """

    finishes: tuple[rules.Finish, ...]
    slots: Mapping[int, int]
    odds: Mapping[int, Mapping[int, Fraction]] | None = None

    def prizes(self, by_place: Sequence[Decimal], unit: Decimal) -> dict[int, Decimal]:
        if self.odds is None:
            return rules.prizes_for(self.finishes, by_place, Decimal(unit))
        return expected_prizes(self.odds, self.finishes, by_place, Decimal(unit))


def slots_of(finishes: Sequence[rules.Finish]) -> dict[int, int]:
    """Each finisher's own place within a tie's range, in entry order."""
    taken: dict[tuple[int, int], int] = {}
    slots = {}
    for finish in sorted(finishes, key=lambda f: (f.place, f.entry)):
        key = (finish.place, finish.place_to)
        slots[finish.entry] = finish.place + taken.get(key, 0)
        taken[key] = taken.get(key, 0) + 1
    return slots


def group_places(
    left: int,
    members: Sequence[Out],
    settings: rulesets.Settings,
    paid: int,
    *,
    hand_for_hand: bool,
) -> GroupPlaces:
    """The places of players out on one hand with `left` players in before it.

    At one table the bigger starting stack places higher and equal stacks tie (every set).
    During hand-for-hand the group holds every table's players out on that hand: ranked
    together by stack (`other_tables` "stack") or tied across tables ("tie"). On the hand
    that bursts the bubble, `bubble_share` makes them all share the places they cover.
    Raises the engine's PayoutError for an impossible group.
    """
    pairs = sorted((m.entry, m.stack) for m in members)
    by_stack = rules.finishing_places(left, pairs)  # also checks the group can be
    best = left - len(members) + 1
    if hand_for_hand and settings.bubble_share and best <= paid < left:
        shared = tuple(rules.Finish(e, best, left) for e, _ in pairs)
        return GroupPlaces(shared, slots_of(shared))
    tables = {m.table for m in members}
    if not hand_for_hand or settings.other_tables != rulesets.OTHER_TABLES_TIE or len(tables) < 2:
        return GroupPlaces(tuple(by_stack), slots_of(by_stack))
    return tied_across_tables(left, members)


def places_in_order(
    entries: int,
    groups: Sequence[tuple[bool, Sequence[Out]]],
    settings: rulesets.Settings,
    paid: int,
) -> list[GroupPlaces]:
    """Every group's places, the groups in the order they happened (hand-for-hand or not).

    The first group takes the last places of `entries`; the places are a function of the
    field size and the groups only, so working them out again gives the same answer."""
    placed = []
    left = entries
    for hand_for_hand, members in groups:
        if not members:
            continue
        placed.append(group_places(left, members, settings, paid, hand_for_hand=hand_for_hand))
        left -= len(members)
    return placed


def tied_across_tables(left: int, members: Sequence[Out]) -> GroupPlaces:
    """Players at different tables tie; at one table the bigger stack places higher.

    The orders the rule allows are the tables' own orders interleaved in every way (equal
    stacks at a table in either order). In a random interleaving the positions a table of
    `size` players gets are a random `size`-subset of the group's `n`, so its r-th player
    is at position p with chance C(p-1, r-1) C(n-p, size-r) / C(n, size).
    """
    n = len(members)
    best = left - n + 1
    at: dict[int, list[Out]] = {}
    for m in members:
        at.setdefault(m.table, []).append(m)
    odds: dict[int, dict[int, Fraction]] = {}
    for outs in at.values():
        ranked = sorted(outs, key=lambda o: -o.stack)
        size, i = len(ranked), 0
        while i < size:
            j = i
            while j + 1 < size and ranked[j + 1].stack == ranked[i].stack:
                j += 1
            ranks = range(i + 1, j + 2)  # the ranks an equal-stack tie covers at its table
            ways_all = math.comb(n, size) * len(ranks)
            for o in ranked[i : j + 1]:
                chances = {}
                for p in range(1, n + 1):
                    ways = sum(math.comb(p - 1, r - 1) * math.comb(n - p, size - r) for r in ranks)
                    if ways:
                        chances[best + p - 1] = Fraction(ways, ways_all)
                odds[o.entry] = chances
            i = j + 1
    finishes = tuple(rules.Finish(e, min(odds[e]), max(odds[e])) for e in sorted(odds))
    # One order the rule allows (the bigger stack first) gives each player a slot in range.
    order = sorted(members, key=lambda m: (-m.stack, m.entry))
    slots = {m.entry: best + k for k, m in enumerate(order)}
    if all((f.place, f.place_to) == (best, left) for f in finishes):
        return GroupPlaces(finishes, slots_of(finishes))  # one tie: the usual split
    return GroupPlaces(finishes, slots, odds)


def expected_prizes(
    odds: Mapping[int, Mapping[int, Fraction]],
    finishes: Sequence[rules.Finish],
    by_place: Sequence[Decimal],
    unit: Decimal,
) -> dict[int, Decimal]:
    """Each player's average prize, floored to the unit; the units left over go to the
    largest remainders (then entry order), so the group's prizes add up exactly."""

    def prize(place: int) -> Decimal:
        return by_place[place - 1] if place <= len(by_place) else Decimal(0)

    exact = {
        e: sum((Fraction(prize(p)) * w for p, w in chances.items()), Fraction(0))
        for e, chances in odds.items()
    }
    first = min(f.place for f in finishes)
    last = max(f.place_to for f in finishes)
    total = sum((prize(p) for p in range(first, last + 1)), Decimal(0))
    step = Fraction(unit)
    units = {e: math.floor(x / step) for e, x in exact.items()}
    out = {e: units[e] * unit for e in exact}
    rest = total - sum(out.values(), Decimal(0))
    for e in sorted(exact, key=lambda e: (-(exact[e] - units[e] * step), e)):
        if rest <= 0:
            break
        extra = min(unit, rest)
        out[e] += extra
        rest -= extra
    return out


# One report decided ------------------------------------------------------------------------


@dataclass(frozen=True)
class AnteDue:
    """The big blind ante of the hand being reported, when the rule set ranks a player out
    by the stack after it (`stack_after_ante`) and the hand is the one the table plays."""

    seat: int  # the big blind's seat
    ante: int
    big_blind: int
    blind_first: bool  # the blind is posted first and the ante from what is left


@dataclass(frozen=True)
class Player:
    """A player the floor reports out: the seat, and the stack before the hand if given."""

    entry: int
    seat: int | None
    stack: int | None


@dataclass(frozen=True)
class Report:
    table: int
    players: tuple[Player, ...]
    short_big_blind: bool = False  # out under the house rule: no hand played, no ante


@dataclass(frozen=True)
class Heads:
    """The bounties of the report: the event's kind, who eliminated the players out
    (clockwise from the button: the leftover units of a split go first to the first), and
    each head now (of the players out, and of the one left when the report leaves one)."""

    kind: bountyrules.BountyType
    eliminators: tuple[int, ...]
    heads: Mapping[int, Decimal]
    unit: Decimal


@dataclass(frozen=True)
class Knock:
    """One row of what the bounties moved: `paid` in cash to the eliminator, `to_head`
    onto the eliminator's head (PKO). A player out with no eliminator in a bounty event,
    and the winner, are their own eliminator: they collect their head."""

    eliminated: int
    eliminator: int
    paid: Decimal
    to_head: Decimal = Decimal(0)


@dataclass(frozen=True)
class Situation:
    """What the event stands at, as the snapshot read it under the event's lock."""

    left: int  # players in before the report
    settings: rulesets.Settings
    prizes: tuple[Decimal, ...]  # the prize of each paid place
    unit: Decimal  # the payout plan's rounding
    # The prizes stored were worked out for this field and pool, and the report's group is
    # the last: the group's places can be worked out alone. Otherwise every place is
    # worked out again after the write (`standings_refresh`).
    current: bool
    hand_for_hand: bool = False
    others: tuple[Out, ...] = ()  # the players of the group reported before (hand-for-hand)
    ante: AnteDue | None = None
    still_in: tuple[int, ...] = ()  # the entries in, read when only one is to be left
    heads: Heads | None = None  # None: nobody named an eliminator and no bounties are played


@dataclass(frozen=True)
class Placing:
    place: int
    place_to: int
    slot: int
    prize: Decimal


@dataclass(frozen=True)
class Outcome:
    stacks: Mapping[int, int | None]  # the stacks the places compare (after the ante)
    antes: Mapping[int, int]  # the big blind ante paid, by entry
    # The group's placings, its earlier players' included; None when every place must be
    # worked out again (`Situation.current` is false).
    placings: Mapping[int, Placing] | None
    players_left: int
    winner: int | None = None
    winner_prize: Decimal | None = None
    rebalance: bool = False  # the tables are balanced after it (no winner yet)
    knocks: tuple[Knock, ...] = ()  # the bounties, in the order of the players out


def antes_paid(ante: AnteDue | None, players: Sequence[Player]) -> dict[int, int]:
    """The big blind ante a player out on this hand paid: {entry: chips}. The stack is the
    one before the hand; the big blind paid the ante, or what was left of it."""
    if ante is None:
        return {}
    big = next((p for p in players if p.seat == ante.seat), None)
    if big is None or big.stack is None:
        return {}
    if ante.blind_first:
        paid = min(ante.ante, max(0, big.stack - ante.big_blind))
    else:
        paid = min(ante.ante, big.stack)
    return {big.entry: paid} if paid else {}


def decide(situation: Situation, report: Report) -> Outcome:
    """The outcome of one report. Raises PayoutError when the group cannot be placed (more
    players out than are in, a stack below zero)."""
    players = report.players
    if len(players) >= situation.left:
        raise rules.PayoutError(
            f"{len(players)} players cannot bust when {situation.left} are left: one must win"
        )
    antes = {} if report.short_big_blind else antes_paid(situation.ante, players)
    stacks = {
        p.entry: (p.stack - antes.get(p.entry, 0) if p.stack is not None else None) for p in players
    }
    left = situation.left - len(players)
    placings = None
    if situation.current:
        members = [*situation.others]
        members += [Out(p.entry, stacks[p.entry] or 0, report.table) for p in players]
        placed = group_places(
            situation.left + len(situation.others),
            members,
            situation.settings,
            len(situation.prizes),
            hand_for_hand=situation.hand_for_hand,
        )
        won = placed.prizes(situation.prizes, situation.unit)
        placings = {
            f.entry: Placing(f.place, f.place_to, placed.slots[f.entry], won[f.entry])
            for f in placed.finishes
        }
    out = [p.entry for p in players]
    if left > 1:
        knocks = knocks_of(situation.heads, out, None)
        return Outcome(stacks, antes, placings, left, rebalance=True, knocks=knocks)
    (winner,) = set(situation.still_in) - set(out)
    prize = situation.prizes[0] if situation.prizes else Decimal(0)
    knocks = knocks_of(situation.heads, out, winner)
    return Outcome(stacks, antes, placings, left, winner, prize, knocks=knocks)


def knocks_of(heads: Heads | None, out: Sequence[int], winner: int | None) -> tuple[Knock, ...]:
    """What the bounties move when the players `out` are eliminated by `heads.eliminators`
    (each shares every one of them), and, when `winner` is the one left, the winner's own
    head with what it won here. Outside a bounty event, the eliminators are kept with
    nothing paid (who knocked whom out stays on the record)."""
    if heads is None:
        return ()
    kind, elim = heads.kind, heads.eliminators
    if kind == bountyrules.NONE:
        return tuple(Knock(p, e, Decimal(0)) for p in out for e in elim)
    knocks: list[Knock] = []
    for player in out:
        head = heads.heads[player]
        if not elim:  # out with no eliminator (a short big blind): the player keeps the head
            knocks.append(Knock(player, player, head))
            continue
        ko = bountyrules.knockout(kind=kind, head=head, eliminators=elim, unit=heads.unit)
        knocks += [Knock(player, e, ko.paid[e], ko.to_head[e]) for e in elim]
    if winner is not None:
        grown = sum((k.to_head for k in knocks if k.eliminator == winner), Decimal(0))
        knocks.append(Knock(winner, winner, heads.heads[winner] + grown))
    return tuple(knocks)
