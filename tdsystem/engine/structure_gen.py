"""A proposed blind structure from a starting stack, a field size, a target length and a chip set.

The progression: the big blind grows geometrically, each level about ``ratio`` times the one
before, from ``start_big_blinds`` big blinds deep at level 1 to the level where the model
below ends the tournament at the target time. The small blind is half the big blind, and
every figure is rounded to the chips in play: a multiple of the smallest chip, in a step of
1, 2 or 5 times that chip small enough to keep the rounding under about a tenth of the small
blind. Blinds rise at every level, even when rounding would hold them still, and never more
than double from one level to the next.

The smallest chip is coloured up only at a break, when the next level's small blind is at
least ``COLOUR_UP_AT`` times the next chip up: from then on no blind or ante needs it.

The projection (``projected_finish``): the tournament ends at the end of the first level at
which the average stack of the last two players (all chips in play / 2) is under
``finish_big_blinds`` big blinds (20 by default). It assumes no rebuys or add-ons (the chips
in play are entries x starting stack), and that the field shrinks with the blinds, so the
big blind relative to the chips in play is what sets the end; it ignores the pace of play.

Pure: no Django; bad input raises ``RuleError``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from tdsystem.engine.errors import RuleError

ANTE_TYPES = ("none", "each", "big-blind", "big-blind-ante-first", "button")
EACH_ANTE_SHARE = 8  # an every-player ante is about an eighth of the big blind
COLOUR_UP_AT = 4  # a chip is the smallest in play once the small blind is 4 of it
RATIO_MIN = 1.08
RATIO_MAX = 2.0
LEVELS_MAX = 300
EXTRA_DOWN_TO = 5  # levels go on past the projection until the last two hold 5 BB each
EXTRA_AT_LEAST = 2


@dataclass(frozen=True, slots=True)
class GeneratorInputs:
    """What a structure is generated from: the form's fields, all of them, in one value.

    Made only of valid values: a bad one raises ``RuleError`` naming its field."""

    starting_stack: int
    entries: int
    target_minutes: int
    level_minutes: int
    ante_type: str
    chips: tuple[int, ...]  # the chips in play, in any order
    break_every: int = 4  # levels between breaks; 0: no breaks
    break_minutes: int = 15
    start_big_blinds: int = 100  # the big blinds in a starting stack at level 1
    finish_big_blinds: int = 20  # the projection's end (the module's docstring)

    def __post_init__(self) -> None:
        _whole(self.starting_stack, "starting_stack")
        _whole(self.entries, "entries", least=2)
        _whole(self.target_minutes, "target_minutes")
        _whole(self.level_minutes, "level_minutes")
        _whole(self.break_every, "break_every", least=0)
        _whole(self.break_minutes, "break_minutes")
        _whole(self.start_big_blinds, "start_big_blinds", least=2)
        _whole(self.finish_big_blinds, "finish_big_blinds")
        if self.ante_type not in ANTE_TYPES:
            raise RuleError(f"ante_type: one of {', '.join(ANTE_TYPES)}, got {self.ante_type!r}")
        chain = _chip_chain(self.chips)
        if self.starting_stack % chain[0]:
            raise RuleError(
                f"starting_stack: {self.starting_stack} is not a multiple of the smallest chip "
                f"{chain[0]}"
            )
        object.__setattr__(self, "chips", tuple(self.chips))

    @property
    def chain(self) -> tuple[int, ...]:
        """The chips in play, smallest first, each a multiple of the one before."""
        return _chip_chain(self.chips)


@dataclass(frozen=True, slots=True)
class Row:
    """A level (``number`` from 1) or a break (``number`` 0) of a proposed structure."""

    kind: str  # "level" or "break"
    number: int
    minutes: int
    starts_at: int  # minutes from the start, breaks included
    smallest_chip: int  # in play during the level; on a break, in play after it
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    colour_up: tuple[int, ...] = ()  # on a break: the chips taken out of play


@dataclass(frozen=True, slots=True)
class Proposal:
    rows: tuple[Row, ...]
    ratio: float  # the big blind's growth per level
    ratio_limited: str  # "" or "fastest" / "slowest": the target could not be met
    total_chips: int
    finish_big_blinds: int
    final_level: int  # the level the projection ends at
    projected_minutes: int  # from the start to the end of that level
    target_minutes: int

    @property
    def levels(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.kind == "level")


def projected_finish(
    rows: Sequence[Row], *, total_chips: int, finish_big_blinds: int
) -> tuple[int, int]:
    """(level number, minutes from the start to its end) at which the last two players'
    average stack, ``total_chips / 2``, first falls under ``finish_big_blinds`` big blinds.
    The last level when none does."""
    last = None
    for row in rows:
        if row.kind != "level":
            continue
        last = row
        if total_chips < 2 * finish_big_blinds * row.big_blind:
            break
    if last is None:
        raise RuleError("the structure has no levels")
    return last.number, last.starts_at + last.minutes


def _whole(value: object, what: str, *, least: int = 1) -> int:
    if type(value) is not int or value < least:
        raise RuleError(f"{what}: a whole number of at least {least}, got {value!r}")
    return value


def _chip_chain(chips: Sequence[int]) -> tuple[int, ...]:
    chain = tuple(sorted(set(chips)))
    if not chain:
        raise RuleError("chips: name the chips in play")
    for chip in chain:
        _whole(chip, "chips")
    for small, big in itertools.pairwise(chain):
        if big % small:
            raise RuleError(f"chips: {big} is not a multiple of {small}")
    return chain


def _step(unit: int, small_blind: float) -> int:
    """The rounding step: the unit, or the largest round number (1, 2 or 5 x 10^k) that is a
    multiple of it and at most a fifth of the small blind (25 -> 50, 100, 200, 500...)."""
    step = unit
    for k in range(19):
        for m in (1, 2, 5):
            nice = m * 10**k
            if nice > small_blind / 5:
                return step
            if nice > step and nice % unit == 0:
                step = nice
    return step


def _round(value: float, step: int) -> int:
    return max(step, math.floor(value / step + 0.5) * step)


def _unit_for(chain: tuple[int, ...], small_blind: float, current: int) -> int:
    unit = current
    for chip in chain:
        if chip > current and chip * COLOUR_UP_AT <= small_blind:
            unit = chip
    return unit


def _ratio(start_bb: float, final_bb: float, levels: int) -> tuple[float, str]:
    if levels <= 1:
        return RATIO_MAX, "fastest" if final_bb > start_bb else ""
    # The boundary falls half a level before the last one: rounding either way keeps it there.
    ratio = (final_bb / start_bb) ** (1 / (levels - 1.5))
    if ratio > RATIO_MAX:
        return RATIO_MAX, "fastest"
    if ratio < RATIO_MIN:
        return RATIO_MIN, "slowest"
    return ratio, ""


def _levels_in(target: int, level_minutes: int, break_every: int, break_minutes: int) -> int:
    """The most levels that end by the target, breaks between them counted."""
    n = 1
    while True:
        nxt = n + 1
        breaks = (nxt - 1) // break_every if break_every else 0
        if nxt * level_minutes + breaks * break_minutes > target or nxt >= LEVELS_MAX:
            return n
        n = nxt


def structure_generate(inputs: GeneratorInputs) -> Proposal:
    """Propose levels and breaks whose projected finish is as near the target as the
    growth limits allow (see the module's docstring for the progression and the model)."""
    starting_stack, entries = inputs.starting_stack, inputs.entries
    target_minutes, level_minutes = inputs.target_minutes, inputs.level_minutes
    break_every, break_minutes = inputs.break_every, inputs.break_minutes
    start_big_blinds, finish_big_blinds = inputs.start_big_blinds, inputs.finish_big_blinds
    ante_type = inputs.ante_type
    chain = inputs.chain
    total = starting_stack * entries
    start_bb = max(2 * chain[0], starting_stack / start_big_blinds)
    final_bb = total / (2 * finish_big_blinds)
    wanted = _levels_in(target_minutes, level_minutes, break_every, break_minutes)
    ratio, limited = _ratio(start_bb, final_bb, wanted)

    unit = chain[0]
    for chip in chain:
        if starting_stack % chip == 0 and chip * COLOUR_UP_AT <= start_bb / 2:
            unit = chip
    rows: list[Row] = []
    clock = 0
    sb = ante = 0
    number = 0
    final_level = 0
    while True:
        number += 1
        ideal_sb = start_bb * ratio ** (number - 1) / 2
        if number > 1 and break_every and (number - 1) % break_every == 0:
            new_unit = _unit_for(chain, ideal_sb, unit)
            gone = tuple(c for c in chain if unit <= c < new_unit)
            unit = new_unit
            rows.append(Row("break", 0, break_minutes, clock, unit, colour_up=gone))
            clock += break_minutes
        step = _step(unit, ideal_sb)
        candidate = _round(ideal_sb, step)
        if candidate <= sb:
            candidate = (sb // step + 1) * step
        if sb and candidate > 2 * sb:
            candidate = _at_most_double(sb, step, unit)
        sb = candidate
        bb = 2 * sb
        ante = _ante(ante_type, bb, unit, ante)
        rows.append(Row("level", number, level_minutes, clock, unit, sb, bb, ante))
        clock += level_minutes
        if not final_level and total < 2 * finish_big_blinds * bb:
            final_level = number
        extra = final_level and number - final_level >= EXTRA_AT_LEAST
        if (extra and total < 2 * EXTRA_DOWN_TO * bb) or number >= LEVELS_MAX:
            break
    final, minutes = projected_finish(rows, total_chips=total, finish_big_blinds=finish_big_blinds)
    return Proposal(
        rows=tuple(rows),
        ratio=ratio,
        ratio_limited=limited,
        total_chips=total,
        finish_big_blinds=finish_big_blinds,
        final_level=final,
        projected_minutes=minutes,
        target_minutes=target_minutes,
    )


def _at_most_double(sb: int, step: int, unit: int) -> int:
    """Rounding on few chips can overshoot (25 to 75): the most in the chips in play that
    does not double the small blind, still above it."""
    for size in (step, unit):
        capped = 2 * sb // size * size
        if capped > sb:
            return capped
    return (sb // unit + 1) * unit


def _ante(ante_type: str, big_blind: int, unit: int, before: int) -> int:
    if ante_type == "none":
        return 0
    if ante_type != "each":
        return big_blind  # one player antes for the table: the big blind's worth
    ante = math.floor(big_blind / EACH_ANTE_SHARE / unit + 0.5) * unit
    if ante < before:
        ante = -(-before // unit) * unit  # never lower than before, in the chips in play
    return min(ante, big_blind)
