"""The end of a day of play (WSOP R125): the last hands, then bag and tag.

With 7 to 13 minutes left in the day's last level the director draws a random card: its
rank sets how many more hands every table plays (3 to 7 at 9-handed events, 2 to 5 at
others). Late registration, redraws and balancing wait for those hands. Once the field is
down to three tables or fewer there are no last hands: play runs the clock out.

Pure rules: the randomness is an argument (`rng`), nothing is read from a clock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import RuleError

RULE = "WSOP R125"
# At this many tables or fewer the day runs the clock out: no last hands are drawn.
CLOCK_OUT_TABLES = 3

PLAYING, LAST, BAG = "playing", "last", "bag"


def hands_range(seats_per_table: int) -> tuple[int, int]:
    """The ranks the card may show: 3 to 7 for 9-handed events, 2 to 5 for others."""
    if seats_per_table < 2:
        raise RuleError(f"a table seats 2 or more, not {seats_per_table}", rule=RULE)
    return (3, 7) if seats_per_table == 9 else (2, 5)


def last_hands_draw(*, seats_per_table: int, tables_in_play: int, rng: random.Random) -> int:
    """How many more hands every table plays: one card of the range, at random.

    Refused (RuleError) with three tables or fewer in play: the day runs the clock out."""
    if tables_in_play <= CLOCK_OUT_TABLES:
        raise RuleError(
            f"{tables_in_play} tables in play: with {CLOCK_OUT_TABLES} or fewer the day "
            "runs the clock out",
            rule=RULE,
        )
    low, high = hands_range(seats_per_table)
    return rng.randint(low, high)


def day_end_hands(*, seats_per_table: int, tables_in_play: int, rng: random.Random) -> int:
    """The hands every table still plays when the director ends the day: a card drawn
    (`last_hands_draw`) with more than three tables in play; 0 with three or fewer, where
    the day has run the clock out and every table bags at once."""
    if tables_in_play <= CLOCK_OUT_TABLES:
        hands_range(seats_per_table)  # the same refusal of a table of one seat
        return 0
    return last_hands_draw(seats_per_table=seats_per_table, tables_in_play=tables_in_play, rng=rng)


@dataclass(frozen=True)
class Countdown:
    """A table's place in the last hands: `hands` still to play, and what that means:
    PLAYING (more than one), LAST (the last hand) or BAG (done: bag the chips)."""

    hands: int
    state: str


def countdown(hands_left: int) -> Countdown:
    if hands_left < 0:
        raise RuleError(f"hands left cannot be negative: {hands_left}", rule=RULE)
    if hands_left == 0:
        return Countdown(0, BAG)
    return Countdown(hands_left, LAST if hands_left == 1 else PLAYING)


def hand_played(hands_left: int) -> int:
    """The hands left once a table finished one (never below 0: a table done stays done)."""
    return max(hands_left - 1, 0)


def tables_still_playing(hands_left: Mapping[int, int]) -> list[int]:
    """The tables (by number) with hands still to play, in order."""
    return sorted(number for number, left in hands_left.items() if left > 0)
