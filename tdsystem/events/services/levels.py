"""Changing an event's levels, before it starts or while it runs.

One way in (the console's editor and the API): `event_levels_edit`. It takes the event's
and the clock's locks the way a clock action does, settles the clock first, then:

- a planned event's structure changes freely;
- a started one keeps the levels already played exactly as they were; the current level
  keeps its blinds, ante and kind, but its duration may change: the time already played
  stays played and the time left moves by the difference. A change that would leave no
  time (or less) in the current level is refused: "next level" is the director's
  action for that, and a refusal changes nothing;
- a finished event's structure does not change.

The clock's version moves on every edit, so the screens (whose cached schedule is keyed by
it) show the new levels at their next poll, and the end-of-level task is sent again for
the new end.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record, text_of
from tdsystem.core.models import LogEntry
from tdsystem.core.servertime import server_now
from tdsystem.engine import clock as clockrules
from tdsystem.structures.editing import (
    LEVEL_FIELDS,
    LevelsError,
    checked_or_refuse,
    levels_replace,
    stored_rows,
)
from tdsystem.structures.models import Betting

from ..models import Clock, Event
from .clock import (
    LEVELS_EDIT,
    _locked_clock,
    _schedule_after_commit,
    _settle_locked,
    _state,
    _write,
    clock_undoable,
    level_durations,
)

# An undone level edit, logged (not itself offered for undo: edit the levels again).
LEVELS_UNDO = "structure.undo"
# What the current level keeps: only its duration (and its note) may change.
CURRENT_FIXED = ("kind", "small_blind", "big_blind", "ante", "small_bet", "big_bet")


def row_label(rows: list[dict], index: int) -> str:
    """ "level 3" or "the break after level 4", as the director reads it."""
    number = sum(1 for r in rows[: index + 1] if r["kind"] == "level")
    if rows[index]["kind"] == "break":
        if number == 0:
            return _("the break before level 1")
        return _("the break after level %(number)s") % {"number": number}
    return _("level %(number)s") % {"number": number}


def _same(a: dict, b: dict, fields=LEVEL_FIELDS) -> bool:
    return all(a.get(k) == b.get(k) for k in fields)


def _check_started(old: list[dict], new: list[dict], index: int) -> None:
    """Refuse a change of a played level, or of the current level's blinds."""
    if len(new) <= index:
        raise LevelsError(
            [
                _("%(level)s is being played: it and the levels before it cannot be removed")
                % {"level": row_label(old, index)}
            ]
        )
    for i in range(index):
        if not _same(old[i], new[i]):
            raise LevelsError(
                [_("%(level)s has been played: it cannot change") % {"level": row_label(old, i)}]
            )
    if not _same(old[index], new[index], CURRENT_FIXED):
        raise LevelsError(
            [
                _(
                    "%(level)s is being played: only its duration can change, not its "
                    "blinds, ante or kind"
                )
                % {"level": row_label(old, index)}
            ]
        )


def _new_clock(
    state: clockrules.ClockState, old_seconds: int, new_seconds: int, now: datetime, label: str
) -> clockrules.ClockState:
    """The clock with the current level's time left moved by the change of its duration."""
    delta_ms = (new_seconds - old_seconds) * 1000
    bumped = clockrules.ClockState(
        state.status, state.level_index, state.ends_at, state.remaining_ms, state.version + 1
    )
    if delta_ms == 0:
        return bumped
    left = clockrules.remaining_ms(state, now) + delta_ms
    if left <= 0:
        played = (old_seconds * 1000 - clockrules.remaining_ms(state, now)) // 1000
        raise LevelsError(
            [
                _(
                    "%(level)s has been played for %(played)s: a duration of %(minutes)s "
                    "minutes leaves no time. Use “Next level” to end it now."
                )
                % {
                    "level": label,
                    "played": f"{max(0, played) // 60}:{max(0, played) % 60:02}",
                    "minutes": f"{new_seconds / 60:g}",
                }
            ],
            field="duration",
        )
    if state.status == clockrules.RUNNING:
        assert state.ends_at is not None
        ends_at = state.ends_at + timedelta(milliseconds=delta_ms)
        return clockrules.ClockState(state.status, state.level_index, ends_at, None, bumped.version)
    return clockrules.ClockState(state.status, state.level_index, None, left, bumped.version)


def event_levels_edit(
    *,
    event_id: int,
    rows: list[dict],
    actor: Actor,
    confirm_warnings: bool = False,
    expected_version: int | None = None,
    now: datetime | None = None,
) -> tuple[Event, list[str]]:
    """Replace the event's levels from `rows` (the import's row format). Raises
    LevelsError (a StructureError; nothing changes) naming what is refused.

    `expected_version` is the clock's version the editor was opened at: an edit made from
    an older page (the clock moved on, or someone else saved) is refused, not merged.
    """
    event, warnings, _logged = _levels_edit(
        event_id=event_id,
        rows=rows,
        actor=actor,
        confirm_warnings=confirm_warnings,
        expected_version=expected_version,
        now=now or server_now(),
    )
    return event, warnings


def event_levels_undo(
    *, event_id: int, entry_id: int, actor: Actor, now: datetime | None = None
) -> LogEntry:
    """Put back the levels as they were before the newest level edit (the console's Undo).

    The levels go back through the rules of an edit: a level played since the edit, or a
    current level whose time would run out, refuses the undo (LevelsError, nothing
    changes). Undoing a change of the current level's duration moves its time left back.
    """
    now = now or server_now()
    with transaction.atomic():
        event, _clock = _locked_clock(event_id)
        entry = (
            LogEntry.objects.select_for_update(no_key=True)
            .filter(event=event, pk=entry_id, action=LEVELS_EDIT)
            .first()
        )
        if entry is None:
            raise LevelsError([_("Only a level edit can be undone here.")])
        if entry.undone_at:
            raise LevelsError([_("This level edit was undone already.")])
        if clock_undoable(event) != entry:
            raise LevelsError(
                [_("Only the newest change of the clock or of the levels can be undone.")]
            )
        _event, _warnings, undo = _levels_edit(
            event_id=event_id,
            rows=entry.data["old"],
            actor=actor,
            confirm_warnings=True,  # the levels were in use before the edit
            expected_version=None,
            now=now,
            undoing=entry,
        )
        entry.undone_at = now
        entry.save(update_fields=["undone_at"])
    return undo


def _levels_edit(
    *,
    event_id: int,
    rows: list[dict],
    actor: Actor,
    confirm_warnings: bool,
    expected_version: int | None,
    now: datetime,
    undoing: LogEntry | None = None,
) -> tuple[Event, list[str], LogEntry]:
    with transaction.atomic():
        event, clock = _locked_clock(event_id)
        _settle_locked(event, clock, level_durations(event), now)
        if clock.status == Clock.Status.FINISHED or event.status == Event.Status.FINISHED:
            raise LevelsError([_("the event is finished: its levels no longer change")])
        if expected_version is not None and clock.version != expected_version:
            raise LevelsError(
                [
                    _(
                        "the clock or the levels changed since this page was opened (a level "
                        "change, a clock action or another edit): look again and save again"
                    )
                ],
                field="version",
            )
        checked = checked_or_refuse(
            rows,
            fixed_limit=event.betting == Betting.FIXED_LIMIT,
            confirm_warnings=confirm_warnings,
        )
        new = checked.levels
        old = stored_rows(event.structure)
        before = _state(clock)
        index = clock.level_index
        if clock.status == Clock.Status.NOT_STARTED:
            index = min(index, len(new) - 1)
            left = before.remaining_ms
            if (
                index >= len(old)
                or old[index]["duration_seconds"] != new[index]["duration_seconds"]
            ):
                left = new[index]["duration_seconds"] * 1000
            after = clockrules.ClockState(before.status, index, None, left, before.version + 1)
        else:
            _check_started(old, new, index)
            after = _new_clock(
                before,
                old[index]["duration_seconds"],
                new[index]["duration_seconds"],
                now,
                row_label(old, index),
            )
        levels_replace(event.structure, new)
        if not _write(clock, after, before.version):
            raise LevelsError([_("the clock changed meanwhile: try again")], field="version")
        summary = Text(gettext_noop("Levels edited (%(rows)s rows)"), rows=len(new))
        if undoing is not None:
            summary = Text(gettext_noop("Undone: %(action)s"), action=text_of(undoing))
        logged = log_record(
            event=event,
            actor=actor,
            action=LEVELS_UNDO if undoing is not None else LEVELS_EDIT,
            summary=summary,
            at=now,
            data={
                **({"undone": undoing.pk} if undoing is not None else {}),
                "structure_id": event.structure_id,
                "old": old,
                "new": stored_rows(event.structure),
                "level_index": index,
                "clock_before": {
                    "status": before.status,
                    "remaining_ms": clockrules.remaining_ms(before, now),
                },
                "version": after.version,
                "warnings_confirmed": len(checked.warnings),
            },
        )
        _schedule_after_commit(clock, now)
    return event, checked.warnings, logged
