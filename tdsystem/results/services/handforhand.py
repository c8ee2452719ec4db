"""Hand-for-hand play near the money (TDA RP-8, WSOP R126: the event's rule set).

Every table deals one hand at a time and waits until all tables have finished it. Each
table's "hand finished" goes through `handforhand_hand_finish`, which moves the table's
button (the seating service's `table_hand_finish`) and records the report; the last
report completes the hand and the next one is dealt everywhere.

The clock: starting hand-for-hand pauses the level clock; each completed hand takes the
time it lasted off the level, but never more than the event's minutes per hand. So the
level loses at most N minutes per hand however long the hands take, and exactly the time
played when hands are quick. Clock changes run after the report commits, each in the
clock service's own transaction. They are hand-for-hand's (`source=HANDFORHAND` in the
log): the console does not offer them for undo, and while hand-for-hand holds the clock
paused no undo sets it running (`clock_hold`, registered with the events' hooks).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.numbers import MINUTES_PER_HAND
from tdsystem.engine.clock import ClockError
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import HANDFORHAND, clock_action
from tdsystem.seating.errors import SeatingError
from tdsystem.seating.models import Entry, EventTable
from tdsystem.seating.services import table_hand_finish

from ..errors import ResultsError
from ..models import HandForHand, HandForHandHand, HandForHandReport
from . import snapshot

MINUTES_PER_HAND_MAX = MINUTES_PER_HAND.high  # the most a hand may take off the clock


@dataclass
class HandReport:
    """A table's report: the table after its button moved, and where the hand stands."""

    table: EventTable
    hand: int | None  # the hand-for-hand hand reported (None: not playing hand-for-hand)
    waiting_for: list[int] = field(default_factory=list)
    completed: bool = False
    charged_seconds: int = 0


def playing_tables(event: Event) -> list[int]:
    """Tables in play that deal a hand: two or more players."""
    return list(playing_table_hands(event))


def playing_table_hands(event: Event) -> dict[int, int]:
    """The tables that deal a hand, by number, with the hands each has finished so far."""
    rows = (
        EventTable.objects.filter(event=event, in_play=True)
        .annotate(n=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)))
        .filter(n__gte=2)
        .order_by("number")
        .values_list("number", "hand_number")
    )
    return dict(rows)


def handforhand_start(
    *, event_id: int, actor: Actor, minutes_per_hand: int | None = None
) -> HandForHand:
    """The director announces hand-for-hand: hand 1 is dealt at every table.

    `minutes_per_hand` is 1 to MINUTES_PER_HAND_MAX (the form's rule), for this run; None
    takes the event's rule set's (`hfh_minutes_per_hand`: 2 in TDA 2024 and 2026 and in
    WSOP 2026 R126, or the event's override)."""
    now = timezone.now()
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        if event.status == Event.Status.FINISHED:
            raise ResultsError(gettext("the event has finished"))
        hfh, _ = HandForHand.objects.get_or_create(event=event)
        if hfh.active:
            raise ResultsError(
                gettext("hand-for-hand is on already (hand %(hand)s)") % {"hand": hfh.hand}
            )
        tables = playing_tables(event)
        if len(tables) < 2:
            raise ResultsError(
                gettext("hand-for-hand needs two tables or more: one table plays as one")
            )
        number = HandForHandHand.objects.filter(event=event).order_by("-number").first()
        hfh.hand = (number.number if number else 0) + 1
        hfh.active, hfh.started_at, hfh.stopped_at = True, now, None
        hfh.minutes_per_hand = (
            event.rules.hfh_minutes_per_hand if minutes_per_hand is None else minutes_per_hand
        )
        running = Clock.objects.filter(pk=event.pk, status=Clock.Status.RUNNING).exists()
        hfh.clock_paused = running
        hfh.save()
        HandForHandHand.objects.create(event=event, number=hfh.hand, started_at=now)
        log_record(
            event=event,
            actor=actor,
            action="hfh.start",
            summary=Text(
                gettext_noop(
                    "Hand-for-hand starts at %(tables)s tables: hand %(hand)s; at most "
                    "%(minutes)s min off the clock per hand (%(rule)s)"
                ),
                tables=len(tables),
                hand=hfh.hand,
                minutes=hfh.minutes_per_hand,
                rule=event.cite("hand_for_hand"),
            ),
            at=now,
            data={"hand": hfh.hand, "tables": tables, "minutes": hfh.minutes_per_hand},
        )
    if running:
        try:
            clock_action(
                event_id=event_id, action="pause", actor=actor, now=now, source=HANDFORHAND
            )
        except ClockError:
            HandForHand.objects.filter(pk=event_id).update(clock_paused=False)
            hfh.clock_paused = False
    return hfh


def handforhand_stop(*, event_id: int, actor: Actor) -> HandForHand:
    """Hand-for-hand ends (the bubble burst): the hand in play is charged, the clock runs."""
    now = timezone.now()
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        hfh = snapshot.hand_for_hand(event)
        if hfh is None:
            raise ResultsError(gettext("hand-for-hand is not on"))
        hand = HandForHandHand.objects.filter(event=event, number=hfh.hand).first()
        charge = 0
        if hand is not None and hand.completed_at is None:
            charge = _charge(hfh, hand.started_at, now)
            hand.completed_at, hand.charged_seconds = now, charge
            hand.save(update_fields=["completed_at", "charged_seconds"])
        paused = hfh.clock_paused
        hfh.active, hfh.stopped_at, hfh.clock_paused = False, now, False
        hfh.save(update_fields=["active", "stopped_at", "clock_paused"])
        log_record(
            event=event,
            actor=actor,
            action="hfh.stop",
            summary=Text(gettext_noop("Hand-for-hand ends after hand %(hand)s"), hand=hfh.hand),
            at=now,
            data={"hand": hfh.hand, "charged_seconds": charge},
        )
    if paused:
        clock_take(event_id, charge, actor)
        # Resumed by the director meanwhile, or the level is at 0:00: leave it.
        with contextlib.suppress(ClockError):
            clock_action(event_id=event_id, action="resume", actor=actor, source=HANDFORHAND)
    return hfh


def handforhand_hand_finish(
    *,
    event_id: int,
    table_number: int,
    actor: Actor,
    expected_hand: int,
    confirm_halted: bool = False,
) -> HandReport:
    """A table's "hand finished". Outside hand-for-hand it is just the table's next hand.

    During hand-for-hand a table reports each hand once; the last table to report
    completes the hand, and the next hand is dealt everywhere. `expected_hand` is the
    table's hand count the caller saw, `confirm_halted` deals on at a halted table (see
    `table_hand_finish`).
    """
    now = timezone.now()
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        hfh = snapshot.hand_for_hand(event)
        if hfh is None:
            return HandReport(
                _finish(event_id, table_number, actor, expected_hand, confirm_halted), None
            )
        hand = HandForHandHand.objects.get(event=event, number=hfh.hand)
        if hand.reports.filter(table_number=table_number).exists():
            waiting = _waiting(event, hand)
            raise ResultsError(
                gettext(
                    "table %(table)s has finished hand-for-hand hand %(hand)s: "
                    "wait for table %(waiting)s"
                )
                % {
                    "table": table_number,
                    "hand": hand.number,
                    "waiting": ", ".join(map(str, waiting)),
                }
            )
        table = _finish(event_id, table_number, actor, expected_hand, confirm_halted)
        HandForHandReport.objects.create(
            hand=hand, table_number=table_number, reported_at=now, actor_label=actor.label
        )
        report = HandReport(table, hand.number, _waiting(event, hand))
        if not report.waiting_for:
            report.completed = True
            report.charged_seconds = _complete(event, hfh, hand, actor, now)
        paused = hfh.clock_paused
    if report.completed and paused:
        clock_take(event_id, report.charged_seconds, actor)
    return report


def _finish(
    event_id: int, table_number: int, actor: Actor, expected_hand: int, confirm_halted: bool
) -> EventTable:
    try:
        return table_hand_finish(
            event_id=event_id,
            table_number=table_number,
            actor=actor,
            expected_hand=expected_hand,
            confirm_halted=confirm_halted,
        )
    except SeatingError as exc:
        raise ResultsError(str(exc), field=exc.field) from exc


def complete_if_done(event: Event, hfh: HandForHand, actor: Actor, now) -> int | None:
    """Complete the hand if every table still playing has reported it (tables break).

    Returns the seconds to take off the clock after the commit, None if not complete.
    """
    hand = HandForHandHand.objects.filter(event=event, number=hfh.hand).first()
    if hand is None or hand.completed_at or not hand.reports.exists() or _waiting(event, hand):
        return None
    return _complete(event, hfh, hand, actor, now)


def _waiting(event: Event, hand: HandForHandHand) -> list[int]:
    reported = set(hand.reports.values_list("table_number", flat=True))
    return [n for n in playing_tables(event) if n not in reported]


def _charge(hfh: HandForHand, started_at, now) -> int:
    """Seconds to take off the level: the hand's length, at most the minutes per hand."""
    if not hfh.clock_paused:
        return 0
    played = int((now - started_at).total_seconds())
    return max(0, min(played, hfh.minutes_per_hand * 60))


def _complete(event, hfh: HandForHand, hand: HandForHandHand, actor, now) -> int:
    charge = _charge(hfh, hand.started_at, now)
    hand.completed_at, hand.charged_seconds = now, charge
    hand.save(update_fields=["completed_at", "charged_seconds"])
    hfh.hand = hand.number + 1
    hfh.save(update_fields=["hand"])
    HandForHandHand.objects.create(event=event, number=hfh.hand, started_at=now)
    log_record(
        event=event,
        actor=actor,
        action="hfh.hand",
        summary=Text(
            gettext_noop(
                "Hand-for-hand hand %(hand)s finished at every table (%(seconds)s s off the "
                "clock): deal hand %(next)s"
            )
            if charge
            else gettext_noop(
                "Hand-for-hand hand %(hand)s finished at every table: deal hand %(next)s"
            ),
            hand=hand.number,
            next=hfh.hand,
            **({"seconds": charge} if charge else {}),
        ),
        at=now,
        data={"hand": hand.number, "charged_seconds": charge},
    )
    return charge


def clock_take(event_id: int, seconds: int, actor: Actor) -> None:
    """Take `seconds` off the paused level clock; past the level's end, into the next."""
    if seconds <= 0:
        return
    clock = Clock.objects.filter(pk=event_id).first()
    if clock is None or clock.status != Clock.Status.PAUSED:
        return  # resumed by hand meanwhile: the time ran on the clock itself
    left = (clock.remaining_ms or 0) // 1000
    try:
        if seconds < left:
            _clock(event_id, "add_time", actor, seconds=-seconds)
            return
        _clock(event_id, "next", actor)
        rest = seconds - left
        if rest > 0:
            _clock(event_id, "add_time", actor, seconds=-rest)
    except ClockError:
        pass  # the last level, or less than the rest left: the clock stays where it is


def _clock(event_id: int, action: str, actor: Actor, seconds: int | None = None) -> None:
    clock_action(event_id=event_id, action=action, seconds=seconds, actor=actor, source=HANDFORHAND)


def clock_hold(event: Event) -> str | None:
    """Hand-for-hand's hold on the clock (`tdsystem.events.hooks`): while it is on and
    paused the clock, an undo does not set the clock running again."""
    if HandForHand.objects.filter(event=event, active=True, clock_paused=True).exists():
        return gettext(
            "Hand-for-hand holds the clock paused: stop hand-for-hand to let the clock run."
        )
    return None
