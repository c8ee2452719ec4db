"""The shot clock (action clock): the policy an event follows, when it is on, the
extensions each player holds, and a running clock read at any moment.

Pure: time comes in as `now` (an aware datetime), nothing is read from a clock or a
database. The policy is stored with the event's rule set (rulesets.Settings, the
`shot_clock_*` settings; `rulesets.shot_clock` builds it); the table page, the API and
the services read a running clock through `reading`, so what the players see is always
worked out from the stored start, never from a counter.

TDA Rule 29: a player the floor calls the clock on has 25 seconds, then a 5-second
countdown; at zero the hand is dead if facing a bet, else checked; a tie goes to the
player. That floor clock is available at any table whatever the policy (`floor_run`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from tdsystem.engine.explain import gettext_noop

# The streets of a hand, in order (stud and draw games use the first for every street
# when the policy gives one time).
PREFLOP, FLOP, TURN, RIVER = "preflop", "flop", "turn", "river"
STREETS = (PREFLOP, FLOP, TURN, RIVER)

# When the action clock is on.
STARTS_OFF = "never"  # never: only the floor's clock (TDA 29)
STARTS_AT_START = "from-start"  # from the first hand
STARTS_AT_LEVEL = "from-level"  # from level N
STARTS_OFF_MONEY = "tables-off-money"  # N tables off the money (0: in the money)
STARTS_AT_PLAYERS = "from-players"  # N players left
STARTS = (STARTS_OFF, STARTS_AT_START, STARTS_AT_LEVEL, STARTS_OFF_MONEY, STARTS_AT_PLAYERS)

# What a new day does to the extensions.
DAY_KEEP = "keep-left"  # nothing: the player keeps what is left
DAY_RESET = "top-up"  # topped up to the count
DAY_ADD = "add-count"  # the count again on top of what is left (Wynn: 4, plus 4 on Day 2...)
DAY_RULES = (DAY_KEEP, DAY_RESET, DAY_ADD)

# The outcome at zero.
AT_ZERO_TDA = "tda-29"  # TDA 29: dead if facing a bet, else checked
AT_ZERO_DEAD = "dead-always"  # the hand is dead in any case
AT_ZERO = (AT_ZERO_TDA, AT_ZERO_DEAD)
OUTCOME_DEAD, OUTCOME_CHECKED = "dead", "checked"

# What the player faces when the clock starts.
FACING_NONE = "none"  # may check
FACING_BET = "bet"  # a bet (the blinds pre-flop)
FACING_RAISE = "raise"  # a raise
FACING = (FACING_NONE, FACING_BET, FACING_RAISE)

# Which clock runs: the policy's action clock, or the one the floor calls (TDA 29).
KIND_ACTION, KIND_FLOOR = "action", "floor"
KINDS = (KIND_ACTION, KIND_FLOOR)
FLOOR_SECONDS, FLOOR_COUNTDOWN = 25, 5

# The bounds of each number, said once: the rule sets' RANGES and the checks below.
SECONDS = (5, 600)  # a time per action, an extension
WARNING = (1, 599)
EXTENSIONS = (0, 50)
LEVEL = (1, 1000)
TABLES_OFF = (0, 100)
PLAYERS = (2, 100_000)
RESET_PLAYERS = (0, 100_000)  # 0: no reset at a number of players
WARNINGS_MAX = 3


class ShotClockError(ValueError):
    """A policy, a start or an extension refused. `msgid` (marked for the catalogues) and
    `params` say it again in the reader's language; `field` names the policy field at
    fault (None: the request was fine, the state refuses it); str() is the English."""

    def __init__(
        self, msgid: str, field: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        self.msgid = msgid
        self.params = dict(params or {})
        self.field = field
        super().__init__(msgid % self.params if self.params else msgid)


def _within(name: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ShotClockError(
            gettext_noop("%(name)s: a whole number from %(low)s to %(high)s"),
            name,
            {"name": name, "low": low, "high": high},
        )


@dataclass(frozen=True)
class Policy:
    """An event's shot clock. The defaults: off (the floor's clock only)."""

    starts: str = STARTS_OFF
    starts_at: int = 0  # the level, tables off the money or players left `starts` names
    seconds: tuple[int, ...] = (30,)  # one for every street, or pre-flop, flop, turn, river
    facing_raise: int = 0  # the time once facing a raise; 0: the street's
    warnings: tuple[int, ...] = (10, 3)  # seconds left when the clock sounds
    extension_seconds: int = 30
    extensions: int = 0  # each player's count
    reset_day: str = DAY_KEEP
    reset_players: int = 0  # topped up once the field is down to this many; 0: never
    reset_final_table: bool = False  # topped up at the final table
    at_zero: str = AT_ZERO_TDA

    def __post_init__(self) -> None:
        for name, choice, options in (
            ("starts", self.starts, STARTS),
            ("reset_day", self.reset_day, DAY_RULES),
            ("at_zero", self.at_zero, AT_ZERO),
        ):
            if choice not in options:
                raise ShotClockError(
                    gettext_noop("%(name)s: one of %(choices)s"),
                    name,
                    {"name": name, "choices": ", ".join(options)},
                )
        bounds = {
            STARTS_AT_LEVEL: LEVEL,
            STARTS_OFF_MONEY: TABLES_OFF,
            STARTS_AT_PLAYERS: PLAYERS,
        }.get(self.starts, (0, PLAYERS[1]))
        _within("starts_at", self.starts_at, bounds)
        if len(self.seconds) not in (1, len(STREETS)):
            raise ShotClockError(
                gettext_noop("%(name)s: one time for every street, or four (pre-flop to river)"),
                "seconds",
                {"name": "seconds"},
            )
        for value in self.seconds:
            _within("seconds", value, SECONDS)
        if self.facing_raise:
            _within("facing_raise", self.facing_raise, SECONDS)
        if len(self.warnings) > WARNINGS_MAX:
            raise ShotClockError(
                gettext_noop("%(name)s: at most %(most)s warning points"),
                "warnings",
                {"name": "warnings", "most": WARNINGS_MAX},
            )
        shortest = min(self.seconds + ((self.facing_raise,) if self.facing_raise else ()))
        for value in self.warnings:
            _within("warnings", value, WARNING)
            if value >= shortest:
                raise ShotClockError(
                    gettext_noop("%(name)s: each warning comes before the shortest time, %(s)s s"),
                    "warnings",
                    {"name": "warnings", "s": shortest},
                )
        if len(set(self.warnings)) != len(self.warnings):
            raise ShotClockError(
                gettext_noop("%(name)s: each warning point once"), "warnings", {"name": "warnings"}
            )
        _within("extension_seconds", self.extension_seconds, SECONDS)
        _within("extensions", self.extensions, EXTENSIONS)
        _within("reset_players", self.reset_players, RESET_PLAYERS)
        if not isinstance(self.reset_final_table, bool):
            raise ShotClockError(
                gettext_noop("%(name)s: true or false"),
                "reset_final_table",
                {"name": "reset_final_table"},
            )

    @property
    def on_ever(self) -> bool:
        return self.starts != STARTS_OFF

    def seconds_for(self, street: str, facing: str) -> int:
        """The time a player has on `street` facing `facing`, before extensions."""
        if facing == FACING_RAISE and self.facing_raise:
            return self.facing_raise
        if len(self.seconds) == 1:
            return self.seconds[0]
        return self.seconds[STREETS.index(street)]


@dataclass(frozen=True)
class Progress:
    """Where the tournament is, as far as the shot clock cares."""

    level: int  # the current (or last played) level's number, 0 before the first
    players_left: int
    paid: int  # places paid; 0: not known yet
    seats: int  # players per table
    final_table: bool
    day: int = 1


def is_on(policy: Policy, progress: Progress) -> bool:
    """Whether the action clock runs at every table now (the floor's is always there)."""
    if policy.starts == STARTS_AT_START:
        return True
    if policy.starts == STARTS_AT_LEVEL:
        return progress.level >= policy.starts_at
    if policy.starts == STARTS_OFF_MONEY:
        if progress.paid <= 0:
            return False
        return progress.players_left <= progress.paid + policy.starts_at * progress.seats
    if policy.starts == STARTS_AT_PLAYERS:
        return progress.players_left <= policy.starts_at
    return False


# Extensions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowance:
    """A player's extensions: how many are left, and which top-ups they had (a top-up at
    a number of players or the final table happens once; a day's once per day)."""

    left: int
    day: int
    players_reset: bool = False
    final_reset: bool = False


def allowance_new(policy: Policy, progress: Progress) -> Allowance:
    """A player's first allowance: the count, the reset points already passed marked as
    had (a player seated after them has a full count anyway)."""
    return Allowance(
        policy.extensions,
        progress.day,
        players_reset=_players_reached(policy, progress),
        final_reset=policy.reset_final_table and progress.final_table,
    )


def _players_reached(policy: Policy, progress: Progress) -> bool:
    return bool(policy.reset_players) and progress.players_left <= policy.reset_players


def allowance_at(policy: Policy, allowance: Allowance, progress: Progress) -> Allowance:
    """The allowance brought up to where the tournament is: the day's top-up (or addition)
    for each new day, and the top-ups at N players and at the final table once each.
    Applying it twice changes nothing; where the player sits never matters."""
    left = allowance.left
    if progress.day > allowance.day:
        days = progress.day - allowance.day
        if policy.reset_day == DAY_RESET:
            left = max(left, policy.extensions)
        elif policy.reset_day == DAY_ADD:
            left += policy.extensions * days
    players_reset = allowance.players_reset
    if not players_reset and _players_reached(policy, progress):
        left, players_reset = max(left, policy.extensions), True
    final_reset = allowance.final_reset
    if policy.reset_final_table and not final_reset and progress.final_table:
        left, final_reset = max(left, policy.extensions), True
    return Allowance(left, max(allowance.day, progress.day), players_reset, final_reset)


def allowance_use(allowance: Allowance) -> Allowance:
    """One extension used; ShotClockError when none is left."""
    if allowance.left <= 0:
        raise ShotClockError(gettext_noop("no extensions left"))
    return replace(allowance, left=allowance.left - 1)


@dataclass(frozen=True)
class Use:
    """The player asks for an extension."""


@dataclass(frozen=True)
class Move:
    """The player changes table or seat (balancing, a break, a redraw)."""

    table: int
    seat: int


@dataclass(frozen=True)
class Reach:
    """The tournament moves on: a new day, fewer players, the final table."""

    progress: Progress


Step = Use | Move | Reach


def extensions_left(policy: Policy, start: Progress, steps: Iterable[Step]) -> tuple[int, int]:
    """(left, refused) after `steps` from a player's first allowance at `start`: each Use
    takes one, or is refused when none is left; a Reach applies its top-ups; a Move
    changes nothing (the extensions are the player's, not the seat's)."""
    allowance, refused = allowance_new(policy, start), 0
    for step in steps:
        if isinstance(step, Use):
            try:
                allowance = allowance_use(allowance)
            except ShotClockError:
                refused += 1
        elif isinstance(step, Reach):
            allowance = allowance_at(policy, allowance, step.progress)
    return allowance.left, refused


# A running clock ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A clock started on a player: when, how long they have (extensions added), the
    warning points, and what they face (the outcome at zero depends on it)."""

    kind: str
    started_at: datetime
    seconds: int
    facing: str
    warnings: tuple[int, ...] = ()
    extended: int = 0  # the extensions' seconds added

    @property
    def total(self) -> int:
        return self.seconds + self.extended

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(seconds=self.total)


def run_start(
    policy: Policy, *, street: str, facing: str, now: datetime, floor: bool = False
) -> Run:
    """A clock on the player to act. `floor`: the floor's call (TDA 29, 25 + 5 seconds,
    whatever the policy); else the policy's action clock."""
    if street not in STREETS:
        raise ShotClockError(
            gettext_noop("street: one of %(choices)s"), "street", {"choices": ", ".join(STREETS)}
        )
    if facing not in FACING:
        raise ShotClockError(
            gettext_noop("facing: one of %(choices)s"), "facing", {"choices": ", ".join(FACING)}
        )
    if floor:
        return Run(KIND_FLOOR, now, FLOOR_SECONDS + FLOOR_COUNTDOWN, facing, (FLOOR_COUNTDOWN,))
    return Run(
        KIND_ACTION,
        now,
        policy.seconds_for(street, facing),
        facing,
        tuple(sorted(policy.warnings, reverse=True)),
    )


def run_extend(policy: Policy, run: Run, now: datetime) -> Run:
    """An extension added to a running clock; refused once it has expired (a tie, exactly
    at zero, goes to the player)."""
    if reading(run, now).expired:
        raise ShotClockError(gettext_noop("the clock has run out: too late for an extension"))
    return replace(run, extended=run.extended + policy.extension_seconds)


@dataclass(frozen=True)
class Reading:
    remaining: float  # seconds, never below 0
    warning: int | None  # the last warning point passed (the smallest at or above what is left)
    expired: bool


def reading(run: Run, now: datetime) -> Reading:
    """The clock at `now`. Expired only once past zero: at exactly zero, a tie, the
    player's action stands (TDA 29)."""
    left = (run.ends_at - now).total_seconds()
    passed = [w for w in run.warnings if left <= w]
    return Reading(max(left, 0.0), min(passed) if passed else None, left < 0)


def outcome(policy: Policy, run: Run) -> str:
    """The hand at zero: dead, or checked. The floor's clock always follows TDA 29."""
    if run.kind == KIND_ACTION and policy.at_zero == AT_ZERO_DEAD:
        return OUTCOME_DEAD
    return OUTCOME_CHECKED if run.facing == FACING_NONE else OUTCOME_DEAD
