"""Entry rules: when a new entry, a re-entry, a rebuy or an add-on is allowed.

Pure functions of an event's rules (`EntryRules`), where the clock is (`Moment`) and what
the player has bought so far. Each answers None (allowed) or a `Refusal`: a code and its
parameters, which the pages translate, and the English sentence.

Levels are counted, breaks are not: "until level 6" means until level 6 ends, so the
break after level 6 is already past it (late registration closes the same way, see
`clock.late_registration_end`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .rulesets import CLOSE_AT_FINAL_TABLE, CLOSE_AT_MONEY

NOT_STARTED, RUNNING, PAUSED, FINISHED = "not-started", "running", "paused", "finished"

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def ordinal_break(number: int) -> str:
    """ "the first break", ..., "break 7"."""
    if 1 <= number <= len(_ORDINALS):
        return f"the {_ORDINALS[number - 1]} break"
    return f"break {number}"


@dataclass(frozen=True)
class EntryRules:
    """What an event allows. Every "until level" is a level number; 0 has its own meaning
    given beside each field. Limits of 0 are no limit."""

    late_registration_end_level: int = 0  # 0: entries until the clock starts
    reentry_allowed: bool = False
    reentry_max: int = 0  # re-entries per player; 0: no limit
    reentry_until_level: int = 0  # 0: as long as late registration is open
    rebuy_until_level: int = 0  # 0: no rebuys
    rebuy_threshold: int = 0  # a rebuy needs a stack at or below this many chips
    rebuy_max: int = 0  # rebuys per player; 0: no limit
    addon_break: int = 0  # the add-on is taken at this break (1: the first); 0: no add-on

    def __post_init__(self) -> None:
        for name in (
            "late_registration_end_level",
            "reentry_max",
            "reentry_until_level",
            "rebuy_until_level",
            "rebuy_threshold",
            "rebuy_max",
            "addon_break",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number, 0 or more: {value!r}")


@dataclass(frozen=True)
class Moment:
    """Where the clock is: `level` is the level being played, or during a break the last
    level played (0 before level 1); `break_number` is the break being played (1: the
    first), None during a level."""

    status: str
    level: int
    break_number: int | None = None

    @property
    def on_break(self) -> bool:
        return self.break_number is not None


def moment(is_level: Sequence[bool], index: int, status: str) -> Moment:
    """The Moment of segment `index` of a schedule (`is_level[i]`: a level, else a break)."""
    if not is_level:
        return Moment(status, 0)
    index = max(0, min(index, len(is_level) - 1))
    played = is_level[: index + 1]
    levels = sum(1 for kind in played if kind)
    if is_level[index]:
        return Moment(status, levels)
    return Moment(status, levels, sum(1 for kind in played if not kind))


@dataclass(frozen=True)
class Refusal:
    code: str
    params: dict[str, object] = field(default_factory=dict)
    message: str = ""

    def __str__(self) -> str:
        return self.message


def _within(at: Moment, last: int) -> bool:
    """Whether level `last` has not ended yet (the break after it is past it)."""
    if at.on_break:
        return at.level < last
    return at.level <= last


def entry_refusal(rules: EntryRules, at: Moment) -> Refusal | None:
    """Why a new entry is not taken now (late registration), or None."""
    if at.status == FINISHED:
        return Refusal("event-finished", {}, "the event has finished")
    last = rules.late_registration_end_level
    if last == 0:
        if at.status == NOT_STARTED:
            return None
        return Refusal(
            "registration-closed-start",
            {},
            "registration closed when the clock started (no late registration)",
        )
    if at.status != NOT_STARTED and not _within(at, last):
        return Refusal(
            "registration-closed",
            {"level": last},
            f"late registration closed at the end of level {last}",
        )
    return None


@dataclass(frozen=True)
class FieldNow:
    """Where the field is, for what closes late registration and re-entries before their
    level ends: `left` players still in, `out` players out, `paid` places the prize pool
    pays for the field as it is, `final_table` the final table's seats, and whether the
    day's last hands are being played."""

    left: int
    out: int
    paid: int = 0
    final_table: int = 0
    last_hands: bool = False


def field_refusal(close: str, field_now: FieldNow) -> Refusal | None:
    """Why the field takes no new entry nor re-entry now, whatever the event's level, or
    None. `close` is the rule set's `entries_close`.

    The day's last hands take none (WSOP R125). Once players are out, a heads-up event
    takes none; then, by the rule set, nor does a field whose players left are all in the
    money (every place paid so far would move and be paid again) or down to its final
    table. Before anyone is out nothing closes here: the event's level decides."""
    if field_now.last_hands:
        return Refusal("last-hands", {}, "the day's last hands are being played")
    if field_now.out <= 0:
        return None
    if field_now.left <= 2:
        return Refusal("closed-heads-up", {}, "the event is heads-up")
    if close == CLOSE_AT_MONEY and field_now.paid and field_now.left <= field_now.paid:
        return Refusal(
            "closed-in-the-money",
            {"paid": field_now.paid},
            f"the field is in the money ({field_now.paid} places paid)",
        )
    if close == CLOSE_AT_FINAL_TABLE and field_now.left <= field_now.final_table:
        return Refusal(
            "closed-final-table",
            {"size": field_now.final_table},
            "the field is down to its final table",
        )
    return None


def reentry_refusal(rules: EntryRules, at: Moment, *, who: str, reentries: int) -> Refusal | None:
    """Why `who` (a player out of the event who has re-entered `reentries` times) may not
    re-enter now, or None."""
    if not rules.reentry_allowed:
        return Refusal("reentry-not-allowed", {}, "this event does not allow re-entries")
    if at.status == FINISHED:
        return Refusal("event-finished", {}, "the event has finished")
    if rules.reentry_max and reentries >= rules.reentry_max:
        return Refusal(
            "reentry-limit",
            {"who": who, "count": reentries, "limit": rules.reentry_max},
            f"{who} has {reentries} re-entries: the limit is {rules.reentry_max}",
        )
    last = rules.reentry_until_level
    if last == 0:
        return entry_refusal(rules, at)
    if at.status != NOT_STARTED and not _within(at, last):
        return Refusal("reentry-closed", {"level": last}, f"re-entries ended with level {last}")
    return None


def rebuy_refusal(
    rules: EntryRules, at: Moment, *, who: str, rebuys: int, stack: int | None
) -> Refusal | None:
    """Why `who` (playing, `rebuys` rebuys so far, `stack` chips now; None: not said) may
    not rebuy now, or None."""
    last = rules.rebuy_until_level
    if last == 0:
        return Refusal("rebuy-none", {}, "this event has no rebuys")
    if at.status == FINISHED:
        return Refusal("event-finished", {}, "the event has finished")
    if at.status != NOT_STARTED and not _within(at, last):
        return Refusal("rebuy-closed", {"level": last}, f"Rebuys ended with level {last}")
    if rules.rebuy_max and rebuys >= rules.rebuy_max:
        return Refusal(
            "rebuy-limit",
            {"who": who, "count": rebuys, "limit": rules.rebuy_max},
            f"{who} has {rebuys} rebuys: the limit is {rules.rebuy_max}",
        )
    threshold = rules.rebuy_threshold
    if stack is None:
        return Refusal(
            "rebuy-stack-unknown",
            {"who": who, "threshold": threshold},
            f"say how many chips {who} has now: a rebuy needs {threshold:,} chips or fewer",
        )
    if stack > threshold:
        return Refusal(
            "rebuy-over-threshold",
            {"who": who, "threshold": threshold, "stack": stack},
            f"a rebuy needs {threshold:,} chips or fewer: {who} has {stack:,}",
        )
    return None


def addon_refusal(rules: EntryRules, at: Moment, *, who: str, addons: int) -> Refusal | None:
    """Why `who` (playing, `addons` add-ons taken) may not take the add-on now, or None."""
    number = rules.addon_break
    if number == 0:
        return Refusal("addon-none", {}, "this event has no add-on")
    if at.status == FINISHED:
        return Refusal("event-finished", {}, "the event has finished")
    if addons:
        return Refusal("addon-taken", {"who": who}, f"{who} has taken the add-on already")
    if at.break_number != number:
        return Refusal(
            "addon-not-now",
            {"break": number},
            f"the add-on is taken at {ordinal_break(number)}",
        )
    return None


def rebuys_open(rules: EntryRules, at: Moment) -> bool:
    """Whether the rebuy period runs now (whatever a player's stack or count)."""
    return rebuy_refusal(rules, at, who="", rebuys=0, stack=0) is None


def addon_open(rules: EntryRules, at: Moment) -> bool:
    """Whether this is the add-on's break."""
    return addon_refusal(rules, at, who="", addons=0) is None
