"""Where the apps built on events plug into its clock.

Seating and results import events, never the other way: what the clock needs from them
(is anyone seated? what does the screen show beside the clock? what happens once the
event is finished?) is registered here, from an AppConfig.ready (tdsystem/venue does it
for what spans the apps). Each list is read when the clock asks; registering twice is
harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tdsystem.core.actors import Actor

    from .models import Event

# Asked before a start nobody confirmed: the question to put to the director ("Nobody is
# seated yet. Start the clock anyway?"), or None when the start may go ahead.
StartCheck = Callable[["Event"], "str | None"]
# The part of the clock JSON the apps above add (move slips, payouts, chip leader), given
# the event and its field figures; kept in the short screen cache with them.
ScreenPanel = Callable[["Event", dict], dict]
# Run after the clock's transaction that finished the event (the clock lock let go).
AfterFinish = Callable[..., object]
# Asked before an undo would set a stopped clock running again: why the clock must stay
# paused ("Hand-for-hand holds the clock paused..."), or None.
ClockHold = Callable[["Event"], "str | None"]

_Hook = TypeVar("_Hook")

start_checks: list[StartCheck] = []
screen_panels: list[ScreenPanel] = []
after_finish: list[AfterFinish] = []
clock_holds: list[ClockHold] = []


def register(
    *,
    start_check: StartCheck | None = None,
    screen_panel: ScreenPanel | None = None,
    finished: AfterFinish | None = None,
    clock_hold: ClockHold | None = None,
) -> None:
    _add(start_checks, start_check)
    _add(screen_panels, screen_panel)
    _add(after_finish, finished)
    _add(clock_holds, clock_hold)


def _add(found: list[_Hook], hook: _Hook | None) -> None:
    if hook is not None and hook not in found:
        found.append(hook)


def start_question(event: Event) -> str | None:
    """The first question a start must ask before it runs, or None."""
    for check in start_checks:
        question = check(event)
        if question:
            return question
    return None


def clock_hold(event: Event) -> str | None:
    """Why the event's clock must stay paused (an app above holds it), or None."""
    for hold in clock_holds:
        reason = hold(event)
        if reason:
            return reason
    return None


def screen_panel(event: Event, figures: dict) -> dict:
    """What the registered apps show beside the clock (empty when none is installed)."""
    shown: dict = {}
    for panel in screen_panels:
        shown.update(panel(event, figures))
    return shown


def event_finished(*, event_id: int, actor: Actor) -> None:
    for follow_up in after_finish:
        follow_up(event_id=event_id, actor=actor)
