"""The clock at the start of a day of play: a festival's Day 2 resumes at the level the
flights ended (docs/festivals.md), with that level's full time, for the director to start
with the clock's button."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.engine import clock as clockrules

from ..models import Clock
from .clock import _level_label, _locked_clock, _state, _write, level_durations


def clock_day_start(*, event_id: int, level_index: int, actor: Actor) -> Clock:
    """Put a clock that has not run yet at `level_index`, not started, with the level's
    full time. Raises ClockError (nothing changes) for a clock that has run or a level the
    structure does not have."""
    with transaction.atomic():
        event, clock = _locked_clock(event_id)
        durations = level_durations(event)
        if clock.status != Clock.Status.NOT_STARTED:
            raise clockrules.ClockError(
                _("the clock of %(name)s has run already: it cannot start a day")
                % {"name": event.name}
            )
        if not 0 <= level_index < len(durations):
            raise clockrules.ClockError(
                _("the structure has no level #%(number)s") % {"number": level_index + 1}
            )
        before = _state(clock)
        new = clockrules.ClockState(
            clockrules.NOT_STARTED,
            level_index,
            None,
            durations[level_index] * 1000,
            clock.version + 1,
        )
        if not _write(clock, new, before.version):
            raise clockrules.ClockError(_("the clock changed meanwhile: try again"))
        log_record(
            event=event,
            actor=actor,
            action="clock.day",
            summary=Text(
                gettext_noop("Day %(day)s starts at %(level)s"),
                day=event.day,
                level=_level_label(event, level_index),
            ),
            at=timezone.now(),
            data={"level": level_index, "from": before.level_index, "version": new.version},
        )
    return clock
