"""Where the apps built on events plug into its clock and its console.

Seating and results import events, never the other way: what the clock needs from them
(is anyone seated? what does the screen show beside the clock? what happens once the
event is finished?) and what the console shows around the clock's panel are registered
here, from an AppConfig.ready (tdsystem/venue does it for what spans the apps). Each list
is read when asked; registering twice is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, TypeVar

if TYPE_CHECKING:
    from django.http import HttpRequest

    from tdsystem.core.actors import Actor

    from .models import Event

# Asked before a start nobody confirmed: the question to put to the director ("Nobody is
# seated yet. Start the clock anyway?"), or None when the start may go ahead.
StartCheck = Callable[["Event"], "str | None"]
# The part of the clock JSON the apps above add (move slips, payouts, chip leader), given
# the event and its field figures; kept in the short screen cache with them.
ScreenPanel = Callable[["Event", dict], dict]
# The field beside the clock, from what results keeps counted: given the event's id and its
# main event's (its own when it is one).
FieldCounts = Callable[[int, int], "Field"]
# Run after the clock's transaction that finished the event (the clock lock let go).
AfterFinish = Callable[..., object]
# A part of the event's console another app serves (seating's flights, its end of the day):
# its HTML for this request, "" when it has nothing to show; by where it sits
# (CONSOLE_PLACES). Rendered into the console, not loaded once it has opened: a part coming
# in above the clock's buttons would push them under a click about to land on one.
ConsolePanel = Callable[["Event", "HttpRequest"], str]
CONSOLE_PLACES = ("above_clock", "below_clock")
# Asked before an undo would set a stopped clock running again: why the clock must stay
# paused ("Hand-for-hand holds the clock paused..."), or None.
ClockHold = Callable[["Event"], "str | None"]

_Hook = TypeVar("_Hook")


class Field(NamedTuple):
    """The field as the clock shows it (`field_counts`)."""

    entries: int  # the event's own (a main event's Day 2 entries carried are not again)
    whole_entries: int  # the whole event's: the main event's and its flights'
    players_left: int  # the event's own
    pool: Decimal  # the whole event's, before bounties
    chips: int  # in play at the event: bought, less taken out of play


start_checks: list[StartCheck] = []
screen_panels: list[ScreenPanel] = []
after_finish: list[AfterFinish] = []
clock_holds: list[ClockHold] = []
field_counters: list[FieldCounts] = []
console_panels: dict[str, list[ConsolePanel]] = {place: [] for place in CONSOLE_PLACES}


def register(
    *,
    start_check: StartCheck | None = None,
    screen_panel: ScreenPanel | None = None,
    finished: AfterFinish | None = None,
    clock_hold: ClockHold | None = None,
    field_counts: FieldCounts | None = None,
    console_panel: tuple[str, ConsolePanel] | None = None,
) -> None:
    _add(start_checks, start_check)
    _add(screen_panels, screen_panel)
    _add(after_finish, finished)
    _add(clock_holds, clock_hold)
    _add(field_counters, field_counts)
    if console_panel is not None:
        place, panel = console_panel
        _add(console_panels[place], panel)


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


def field_counts(event_id: int, main_id: int) -> Field:
    """The field beside the clock (`FieldCounts`): the app that keeps it counted answers
    (results); the clock shows no field without one."""
    if not field_counters:
        raise LookupError("no installed app counts the field (tdsystem.results)")
    return field_counters[0](event_id, main_id)


def event_finished(*, event_id: int, actor: Actor) -> None:
    for follow_up in after_finish:
        follow_up(event_id=event_id, actor=actor)


def console_panels_at(place: str, event: Event, request: HttpRequest) -> list[Callable[[], str]]:
    """The parts the console shows at `place`, each rendered only where the page shows it
    (the template calls it): whether the place is shown is the console's to say."""
    return [partial(render, event, request) for render in console_panels[place]]
