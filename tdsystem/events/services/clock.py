"""The level clock: the only code that changes an event's clock.

Every clock change runs in a transaction that takes the event's and the clock's locks
(`_locked_clock`), first settles the level changes that were due (each logged at its
scheduled time), then applies the action, bumps the version and logs who did it. Celery
tasks, views and the API all come here.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import SYSTEM_ACTOR, Actor
from tdsystem.core.locking import locks_take
from tdsystem.core.log import Text, log_record, text_of
from tdsystem.core.models import LogEntry
from tdsystem.core.servertime import server_now
from tdsystem.engine import clock as clockrules

from .. import hooks
from ..models import Clock, Event

log = logging.getLogger(__name__)


def level_durations(event: Event) -> list[int]:
    return list(
        event.structure.levels.order_by("position").values_list("duration_seconds", flat=True)
    )


def _state(clock: Clock) -> clockrules.ClockState:
    return clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )


def _level_label(event: Event, index: int) -> Text:
    level = event.structure.levels.filter(position=index).first()
    if level is None:
        return Text(gettext_noop("#%(number)s"), number=index + 1)
    if level.is_break:
        return Text(gettext_noop("break (%(minutes)s min)"), minutes=level.duration_seconds // 60)
    number = event.structure.levels.filter(position__lte=index, kind="level").count()
    return Text(
        gettext_noop("level %(number)s (%(small)s/%(big)s ante %(ante)s)"),
        number=number,
        small=level.small_blind,
        big=level.big_blind,
        ante=level.ante,
    )


def _write(clock: Clock, new: clockrules.ClockState, expected_version: int) -> bool:
    """Compare-and-set: the row changes only if nobody changed it since we read it."""
    rows = Clock.objects.filter(pk=clock.pk, version=expected_version).update(
        status=new.status,
        level_index=new.level_index,
        ends_at=new.ends_at,
        remaining_ms=new.remaining_ms,
        version=new.version,
        updated_at=timezone.now(),
    )
    if rows:
        clock.status, clock.level_index = new.status, new.level_index
        clock.ends_at, clock.remaining_ms, clock.version = (
            new.ends_at,
            new.remaining_ms,
            new.version,
        )
    return bool(rows)


def _sync_event_status(event: Event, clock: Clock) -> None:
    status = {
        Clock.Status.NOT_STARTED: Event.Status.PLANNED,
        Clock.Status.RUNNING: Event.Status.RUNNING,
        Clock.Status.PAUSED: Event.Status.PAUSED,
        Clock.Status.FINISHED: Event.Status.FINISHED,
    }[Clock.Status(clock.status)]
    if event.status != status:
        Event.objects.filter(pk=event.pk).update(status=status)
        event.status = status


def _settle_locked(event: Event, clock: Clock, durations: list[int], now: datetime) -> int:
    new, transitions = clockrules.settle(_state(clock), durations, now)
    if not transitions:
        return 0
    if not _write(clock, new, clock.version):
        return 0
    for t in transitions:
        if t.to_index is None:
            summary = Text(
                gettext_noop("The last level ran out: the clock stopped at 0:00 (%(level)s)"),
                level=_level_label(event, t.from_index),
            )
        else:
            summary = Text(
                gettext_noop("Level change: %(level)s"), level=_level_label(event, t.to_index)
            )
        log_record(
            event=event,
            actor=Actor(label=SYSTEM_ACTOR),
            action="clock.level",
            summary=summary,
            at=t.at,
            data={
                "from": t.from_index,
                "to": t.to_index,
                "scheduled_at": t.at.isoformat(),
                "applied_at": now.isoformat(),
                "late_ms": int((now - t.at).total_seconds() * 1000),
            },
        )
    _sync_event_status(event, clock)
    return len(transitions)


def _locked_clock(event_id: int) -> tuple[Event, Clock]:
    """The event's and its clock's named locks (`tdsystem.core.locking`), then the clock's
    row read after them. The event's too, since a clock change writes the event's status:
    so a clock change and a change of the event's seating or results take turns, in the
    one order, instead of each holding a row the other waits for."""
    locks_take(event=event_id, clock=event_id)
    clock = (
        Clock.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event__structure")
        .get(pk=event_id)
    )
    return clock.event, clock


def clock_settle(*, event_id: int, now: datetime | None = None, schedule: bool = True) -> int:
    """Apply every level change due by now. Returns how many were applied. With
    `schedule=False` (the clock ticker, which wakes at the ends itself) no exact
    end-of-level task is sent."""
    now = now or server_now()
    with transaction.atomic():
        event, clock = _locked_clock(event_id)
        applied = _settle_locked(event, clock, level_durations(event), now)
        if schedule:
            _schedule_after_commit(clock, now)
    return applied


ACTION_LABELS = {
    "start": gettext_noop("Clock started"),
    "pause": gettext_noop("Clock paused"),
    "resume": gettext_noop("Clock resumed"),
    "next": gettext_noop("Next level"),
    "previous": gettext_noop("Previous level"),
    "add_time": gettext_noop("Time changed"),
    "set_time": gettext_noop("Time set"),
    "finish": gettext_noop("Clock stopped: event finished"),
}
# A level step's entry names the level it arrived at, in one sentence.
_STEP_LABELS = {
    "next": gettext_noop("Next level: %(level)s"),
    "previous": gettext_noop("Previous level: %(level)s"),
}


class NobodySeated(clockrules.ClockError):
    """A start a start check questions (nobody seated yet), not confirmed: the console
    asks before starting. The message is the check's question."""


def clock_action(
    *,
    event_id: int,
    action: str,
    actor: Actor,
    seconds: int | None = None,
    now: datetime | None = None,
    confirm_empty: bool = True,
    source: str = "",
) -> Clock:
    """Apply a director's clock action. Raises ClockError (nothing changes) when it can't.

    With `confirm_empty=False` a start is refused (NobodySeated) while a start check in
    `hooks` has a question (no active entry has a seat): the console asks first. Scripts
    and the API start as they are told.

    `source` names what made the change for the person (HANDFORHAND): such a change is
    that source's to take back, not offered for undo (`clock_undoable`).
    """
    if action not in ACTION_LABELS:
        raise clockrules.ClockError(
            _("unknown action %(action)r: use one of %(actions)s")
            % {"action": action, "actions": ", ".join(ACTION_LABELS)}
        )
    if action in ("add_time", "set_time") and seconds is None:
        raise clockrules.ClockError(_("%(action)s needs a number of seconds") % {"action": action})
    now = now or server_now()
    with transaction.atomic():
        event, clock = _locked_clock(event_id)
        durations = level_durations(event)
        _settle_locked(event, clock, durations, now)
        before = _state(clock)
        if action == "start" and not confirm_empty and before.status == clockrules.NOT_STARTED:
            question = hooks.start_question(event)
            if question:
                raise NobodySeated(question)
        if action == "add_time":
            new = clockrules.add_time(before, durations, now, int(seconds or 0))
        elif action == "set_time":
            new = clockrules.set_remaining(before, durations, now, int(seconds or 0))
        elif action == "finish":
            new = clockrules.finish(before, durations, now)
        else:
            new = clockrules.ACTIONS[action](before, durations, now)
        if not _write(clock, new, before.version):
            raise clockrules.ClockError(_("the clock changed meanwhile: try again"))
        summary = Text(ACTION_LABELS[action])
        if action == "add_time":
            added = (seconds or 0) > 0
            summary = Text(
                gettext_noop("%(seconds)s s added")
                if added
                else gettext_noop("%(seconds)s s removed"),
                seconds=abs(seconds or 0),
            )
        elif action == "set_time":
            summary = Text(gettext_noop("Time left set to %(seconds)s s"), seconds=seconds)
        elif action in _STEP_LABELS:
            summary = Text(_STEP_LABELS[action], level=_level_label(event, new.level_index))
        log_record(
            event=event,
            actor=actor,
            action=f"clock.{action}",
            summary=summary,
            at=now,
            data={
                "before": {
                    "level": before.level_index,
                    "status": before.status,
                    "remaining_ms": clockrules.remaining_ms(before, now),
                },
                # The stored state as it was, for an undo (`clock_undo`).
                "previous": _stored(before),
                "seconds": seconds,
                "version": new.version,
                **({"source": source} if source else {}),
            },
        )
        _sync_event_status(event, clock)
        _schedule_after_commit(clock, now)
    if action == "finish":
        # After the clock's transaction (the venue gives the tables back in its own): the
        # event's row is locked only once the clock's lock is let go, so this never waits
        # on a seating change that waits on us.
        hooks.event_finished(event_id=event_id, actor=actor)
    return clock


UNDOABLE = tuple(f"clock.{a}" for a in ACTION_LABELS if a != "finish")
# A change of the event's levels (services/levels.py): it moves the clock's version on, so
# it is the newest clock change the console offers to undo.
LEVELS_EDIT = "structure.edit"
# The `source` of the clock changes hand-for-hand makes (pause, time off, resume).
HANDFORHAND = "hand-for-hand"


def _stored(state: clockrules.ClockState) -> dict:
    return {
        "status": state.status,
        "level_index": state.level_index,
        "ends_at": state.ends_at.isoformat() if state.ends_at else None,
        "remaining_ms": state.remaining_ms,
    }


def clock_undoable(event: Event) -> LogEntry | None:
    """What the console offers to undo on the clock: the newest clock action or level edit
    by a person, if it is not undone yet and was the person's own. (Finishing the event is
    not undone: it releases the tables; a change hand-for-hand made is hand-for-hand's,
    taken back by stopping it.) A level edit is undone by `levels.event_levels_undo`."""
    newest = (
        LogEntry.objects.filter(
            event=event, action__in=(*UNDOABLE, LEVELS_EDIT), actor__isnull=False
        )
        .order_by("-at", "-id")
        .first()
    )
    if newest is None or newest.undone_at:
        return None
    if newest.action == LEVELS_EDIT:
        return newest
    if "previous" not in newest.data:
        return None
    if newest.data.get("source"):
        return None
    return newest


def clock_undo(
    *, event_id: int, entry_id: int, actor: Actor, now: datetime | None = None
) -> LogEntry:
    """Put the clock back as it was stored before the newest clock action by a person.

    A compare-and-set on the clock's version: after any later change (another action, a
    level change) the undo is refused with ClockError and nothing changes.
    """
    now = now or server_now()
    with transaction.atomic():
        event, clock = _locked_clock(event_id)
        entry = (
            LogEntry.objects.select_for_update(no_key=True).filter(event=event, pk=entry_id).first()
        )
        if entry is None or entry.action not in UNDOABLE or "previous" not in entry.data:
            raise clockrules.ClockError(_("Only a clock action can be undone."))
        if entry.undone_at:
            raise clockrules.ClockError(_("This clock action was undone already."))
        if entry.data.get("source") == HANDFORHAND:
            raise clockrules.ClockError(
                _(
                    "Hand-for-hand made this clock change, so it is not undone here: use "
                    "the clock's buttons, or stop hand-for-hand."
                )
            )
        if clock_undoable(event) != entry:
            raise clockrules.ClockError(_("Only the newest clock action can be undone."))
        durations = level_durations(event)
        _settle_locked(event, clock, durations, now)
        if clock.version != entry.data.get("version"):
            raise clockrules.ClockError(
                _("The clock has changed since “%(action)s”: it can no longer be undone.")
                % {"action": entry.text}
            )
        previous = entry.data["previous"]
        if previous["status"] == Clock.Status.RUNNING and clock.status != Clock.Status.RUNNING:
            held = hooks.clock_hold(event)
            if held:
                raise clockrules.ClockError(held)
        ends_at = previous["ends_at"]
        restored = clockrules.ClockState(
            previous["status"],
            previous["level_index"],
            datetime.fromisoformat(ends_at) if ends_at else None,
            previous["remaining_ms"],
            clock.version + 1,
        )
        if not _write(clock, restored, clock.version):
            raise clockrules.ClockError(_("The clock changed meanwhile: try again."))
        entry.undone_at = now
        entry.save(update_fields=["undone_at"])
        undo = log_record(
            event=event,
            actor=actor,
            action="clock.undo",
            summary=Text(gettext_noop("Undone: %(action)s"), action=text_of(entry)),
            at=now,
            data={"undone": entry.pk, "version": clock.version},
        )
        # A running clock put back may have passed its level's end meanwhile.
        _settle_locked(event, clock, durations, now)
        _sync_event_status(event, clock)
        _schedule_after_commit(clock, now)
    return undo


# How many level ends are sent at once, those within CLOCK_SCHEDULE_AHEAD_SECONDS: the
# current level's and the next one's. Sent only when a level ends, the next end's task
# would leave a level's length before it is due, and a broker polled once a second (the
# SQLite one) hands it to the worker up to a second later: levels shorter than that
# changed late, and each late change sent the next task later still. Sent a level
# ahead, it waits in the worker and runs on time; every end then has two tasks (the one
# sent ahead and the one sent at the previous change), which run once (`clock_advance`).
ENDS_SENT_AHEAD = 2


def _level_ends(clock: Clock, horizon: datetime) -> list[datetime]:
    """The ends of the clock's level and of the next ones, up to ENDS_SENT_AHEAD of them,
    that fall before `horizon`."""
    assert clock.ends_at is not None
    ends = [clock.ends_at]
    durations = level_durations(clock.event)
    for index in range(clock.level_index + 1, len(durations)):
        end = ends[-1] + timedelta(seconds=durations[index])
        if len(ends) >= ENDS_SENT_AHEAD or end > horizon:
            break
        ends.append(end)
    return ends


def _schedule_after_commit(clock: Clock, now: datetime) -> None:
    """Send the exact end-of-level tasks when the end is near; the beat tick covers the rest.

    They are sent at most once per clock version (compare-and-set on scheduled_version),
    so the tick running every few seconds does not pile up duplicates.
    """
    if clock.status != Clock.Status.RUNNING or clock.ends_at is None:
        return
    horizon = now + timedelta(seconds=settings.CLOCK_SCHEDULE_AHEAD_SECONDS)
    if clock.ends_at > horizon:
        return
    claimed = (
        Clock.objects.filter(pk=clock.pk, version=clock.version)
        .exclude(scheduled_version=clock.version)
        .update(scheduled_version=clock.version)
    )
    if not claimed:
        return
    from ..tasks import clock_advance

    event_id, version, ends = clock.pk, clock.version, _level_ends(clock, horizon)

    def send() -> None:
        try:
            for eta in ends:
                clock_advance.apply_async(args=[event_id, version], eta=eta)
        except Exception:  # the broker is down: the beat tick will settle the level
            log.exception("could not schedule the level change of event %s", event_id)
            Clock.objects.filter(pk=event_id, scheduled_version=version).update(scheduled_version=0)

    transaction.on_commit(send)


def clocks_rearm(**_signal: object) -> int:
    """Running clocks send their exact level changes again: after a restore or an import,
    the tasks sent for them wait in another machine's broker. The beat tick sends them
    here within seconds (until then it settles a due level itself)."""
    return Clock.objects.filter(status=Clock.Status.RUNNING).update(scheduled_version=0)


def clocks_settle_due(*, now: datetime | None = None, schedule: bool = True) -> int:
    """The tick: settle overdue clocks and (unless `schedule=False`: the clock ticker, which
    wakes at the ends itself) schedule exact tasks for the nearly due."""
    now = now or server_now()
    horizon = now + timedelta(seconds=settings.CLOCK_SCHEDULE_AHEAD_SECONDS if schedule else 0)
    applied = 0
    due = Clock.objects.filter(status=Clock.Status.RUNNING, ends_at__lte=horizon).values_list(
        "pk", "ends_at", "version", "scheduled_version"
    )
    for event_id, ends_at, version, scheduled in due:
        assert ends_at is not None  # a running clock's, filtered by ends_at
        if ends_at <= now:
            applied += clock_settle(event_id=event_id, now=now, schedule=schedule)
        elif scheduled != version:
            with transaction.atomic():
                _event, clock = _locked_clock(event_id)
                _schedule_after_commit(clock, now)
    return applied


def clocks_next_end() -> datetime | None:
    """The nearest end of a running clock's level (the clock ticker wakes for it)."""
    return (
        Clock.objects.filter(status=Clock.Status.RUNNING, ends_at__isnull=False)
        .order_by("ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )
