"""The figures printed on a blind schedule and shown on the clock for one level (D4).

Screens and printed schedules take SB, BB, ante, minimum and maximum raise from here only.
The raise figures come from replaying a real hand with the engine (a full table, deep
stacks, the first player to act before the flop), so they can never disagree with a ruling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from tdsystem.engine.betting import HandState
from tdsystem.engine.errors import RuleError
from tdsystem.engine.spec import HandSpec, PlayerSpec

_ANTE_WORDS = {
    "each": "every player antes {ante}",
    "big-blind": "the big blind antes {ante} for the table",
    "big-blind-ante-first": "the big blind antes {ante} for the table",
    "button": "the button antes {ante} for the table",
}


_DEEP = 10**18  # stacks no level's figures can reach: nobody is ever short


@dataclass(frozen=True, slots=True)
class LevelValues:
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str
    min_raise_to: int
    max_raise_to: int | None  # pot-limit only; no limit has none, fixed limit one size
    assumption: str  # the table the raise figures rest on, in words


def level_values(
    *,
    structure: str,
    small_blind: int,
    big_blind: int,
    ante: int = 0,
    ante_type: str = "each",
    bets: tuple[int, int] | None = None,
    table_size: int = 9,
    pot_limit_preflop: str = "true-pot",
) -> LevelValues:
    """SB, BB, ante and the first player's minimum and maximum raise for one level.

    Raises ``RuleError`` on values no table could play (a small blind above the big blind,
    fewer than two seats...).
    """
    if type(table_size) is not int or table_size < 2:
        raise RuleError(f"table_size: a table has at least 2 seats, got {table_size!r}")
    if bets is not None and not isinstance(bets, tuple | list):
        raise RuleError(f"bets: the small and the big bet, got {bets!r}")
    if type(small_blind) is not int or small_blind <= 0:
        raise RuleError(f"small_blind: must be a positive whole number, got {small_blind!r}")
    spec = HandSpec(
        structure=structure,
        blinds=(small_blind, big_blind),
        players=tuple(PlayerSpec(f"seat {i + 1}", _DEEP) for i in range(table_size)),
        ante=ante,
        ante_type=ante_type,
        # A schedule row may carry bets whatever the game; only fixed limit uses them.
        # HandSpec refuses any length but two, so the cast states what it checks.
        bets=cast("tuple[int, int]", tuple(bets))
        if bets is not None and structure == "fixed-limit"
        else None,
        pot_limit_preflop=pot_limit_preflop,
    )
    options = HandState(spec).next_action()
    assert options is not None and options.min_raise_to is not None  # deep stacks, no action yet
    words = [f"first to act preflop, {table_size} players"]
    words.append(_ANTE_WORDS[ante_type].format(ante=ante) if ante else "no ante")
    if structure == "pot-limit":
        words.append(
            "small blind counted as called" if pot_limit_preflop == "assumed-call" else "true pot"
        )
    return LevelValues(
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type=ante_type,
        min_raise_to=options.min_raise_to,
        max_raise_to=options.max_raise_to if structure == "pot-limit" else None,
        assumption=", ".join(words),
    )
