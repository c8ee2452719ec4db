"""The level clock as pure functions of stored state and the current time.

The state is what the database stores: a status, the level index, when the level ends
(running) or how much is left (paused, not started), and a version. Every function takes
`now` and returns a new state; nothing here reads the time or sleeps. Screens compute the
time left from the same state, so a late worker never makes a screen wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypedDict, Unpack

NOT_STARTED = "not-started"
RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"

# The most a level may have left: a day. A longer time is a typing slip (minutes taken for
# seconds), and every way in (console, API, tasks) meets the same limit here. It also keeps
# a running level's end within a day of now, however often time is added: an end pushed
# out of the years a database and Python hold would take every screen of the event down.
MAX_LEFT_SECONDS = 24 * 3600


class ClockError(ValueError):
    """A clock action that cannot be applied in the clock's current state."""


@dataclass(frozen=True)
class ClockState:
    status: str
    level_index: int
    ends_at: datetime | None  # set while running
    remaining_ms: int | None  # set while paused or not started
    version: int = 0


@dataclass(frozen=True)
class Transition:
    """A level change that happened (or should have happened) at `at`."""

    from_index: int
    to_index: int | None  # None: the last level ran out
    at: datetime


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def initial(durations: Sequence[int]) -> ClockState:
    if not durations:
        raise ClockError("the structure has no levels")
    return ClockState(NOT_STARTED, 0, None, durations[0] * 1000, 0)


def remaining_ms(state: ClockState, now: datetime) -> int:
    """Milliseconds left in the current level at `now` (never negative)."""
    if state.status == RUNNING:
        assert state.ends_at is not None
        return max(0, _ms(state.ends_at - now))
    return max(0, state.remaining_ms or 0)


def settle(
    state: ClockState, durations: Sequence[int], now: datetime
) -> tuple[ClockState, list[Transition]]:
    """Apply every level change due by `now`, each at its scheduled time.

    A clock that nobody advanced for three levels comes back with three transitions.
    When the last level runs out the clock stops at 0:00 on that level (paused), so the
    director decides what happens next instead of the clock inventing a level.
    """
    if state.status != RUNNING:
        return state, []
    assert state.ends_at is not None
    transitions: list[Transition] = []
    index, ends_at = state.level_index, state.ends_at
    while ends_at <= now:
        if index + 1 >= len(durations):
            transitions.append(Transition(index, None, ends_at))
            return ClockState(PAUSED, index, None, 0, state.version + 1), transitions
        transitions.append(Transition(index, index + 1, ends_at))
        index += 1
        ends_at = ends_at + timedelta(seconds=durations[index])
    if not transitions:
        return state, []
    return ClockState(RUNNING, index, ends_at, None, state.version + 1), transitions


class _Changes(TypedDict, total=False):
    """The fields of a `ClockState` an action may change (the version always moves)."""

    status: str
    level_index: int
    ends_at: datetime | None
    remaining_ms: int | None


def _bump(state: ClockState, **changes: Unpack[_Changes]) -> ClockState:
    return replace(state, version=state.version + 1, **changes)


def start(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status != NOT_STARTED:
        raise ClockError("the clock has already been started")
    left = state.remaining_ms if state.remaining_ms is not None else durations[0] * 1000
    return _bump(
        state, status=RUNNING, ends_at=now + timedelta(milliseconds=left), remaining_ms=None
    )


def pause(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status != RUNNING:
        raise ClockError(f"the clock is {state.status}, not running")
    assert state.ends_at is not None
    return _bump(state, status=PAUSED, ends_at=None, remaining_ms=remaining_ms(state, now))


def resume(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status != PAUSED:
        raise ClockError(f"the clock is {state.status}, not paused")
    left = state.remaining_ms or 0
    if left <= 0:
        raise ClockError("no time is left in this level: go to the next level or add time")
    return _bump(
        state, status=RUNNING, ends_at=now + timedelta(milliseconds=left), remaining_ms=None
    )


def _goto(state: ClockState, index: int, durations: Sequence[int], now: datetime) -> ClockState:
    full = durations[index] * 1000
    if state.status == RUNNING:
        return _bump(state, level_index=index, ends_at=now + timedelta(milliseconds=full))
    return _bump(state, level_index=index, remaining_ms=full)


def next_level(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status == FINISHED:
        raise ClockError("the event is finished")
    if state.level_index + 1 >= len(durations):
        raise ClockError("this is the last level of the structure")
    return _goto(state, state.level_index + 1, durations, now)


def previous_level(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status == FINISHED:
        raise ClockError("the event is finished")
    if state.level_index == 0:
        raise ClockError("this is already the first level")
    return _goto(state, state.level_index - 1, durations, now)


def add_time(
    state: ClockState, durations: Sequence[int], now: datetime, seconds: int
) -> ClockState:
    """Add (positive) or remove (negative) time from the current level."""
    if state.status == FINISHED:
        raise ClockError("the event is finished")
    if seconds == 0:
        raise ClockError("add or remove at least one second")
    if abs(seconds) > MAX_LEFT_SECONDS:
        raise ClockError("add or remove at most 24 hours at once")
    left = remaining_ms(state, now)
    if left + seconds * 1000 <= 0:
        raise ClockError(
            f"cannot remove {-seconds} s: only {left // 1000} s are left in this level "
            "(use next level instead)"
        )
    if left + seconds * 1000 > MAX_LEFT_SECONDS * 1000:
        raise ClockError(
            f"the time left may be at most 24 hours: {left // 1000} s are left in this level"
        )
    if state.status == RUNNING:
        assert state.ends_at is not None
        return _bump(state, ends_at=state.ends_at + timedelta(seconds=seconds))
    return _bump(state, remaining_ms=left + seconds * 1000)


def set_remaining(
    state: ClockState, durations: Sequence[int], now: datetime, seconds: int
) -> ClockState:
    if state.status == FINISHED:
        raise ClockError("the event is finished")
    if seconds <= 0:
        raise ClockError("the time left must be at least one second")
    if seconds > MAX_LEFT_SECONDS:
        raise ClockError("the time left may be at most 24 hours")
    if state.status == RUNNING:
        return _bump(state, ends_at=now + timedelta(seconds=seconds))
    return _bump(state, remaining_ms=seconds * 1000)


def finish(state: ClockState, durations: Sequence[int], now: datetime) -> ClockState:
    if state.status == FINISHED:
        raise ClockError("the event is already finished")
    return _bump(state, status=FINISHED, ends_at=None, remaining_ms=remaining_ms(state, now))


ACTIONS = {
    "start": start,
    "pause": pause,
    "resume": resume,
    "next": next_level,
    "previous": previous_level,
}


def late_registration_end(is_level: Sequence[bool], last: int) -> int | None:
    """The index of the segment at whose end late registration closes: the end of level
    `last` (levels are counted, breaks are not). None when `last` is 0 (no late
    registration: entries until the clock starts) or past the schedule (it never closes)."""
    if last < 1:
        return None
    positions = [index for index, level in enumerate(is_level) if level]
    return positions[last - 1] if last <= len(positions) else None
