"""The shot clock's actions, one service each, as the table page, the API and the tests
call them: start (the policy's clock, or the floor's call), reset (action taken), an
extension, and the expiry with its outcome.

Each runs in one transaction: the table's clock row locked first, then the player's
extensions row, always in that order; one read, one engine call, one write, and a line
of the shot clock's log (an expiry and a floor's call go to the event's log as well).
The seat's player is read at the start and kept on the clock, so a move while the clock
runs changes nothing of it; extensions are the entry's, so they go where the player goes.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.log import Text, log_record
from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable

from .errors import ShotClockRefused
from .models import Call, Extensions, TableClock
from .selectors import allowance_of, policy_of, progress_read, starts_text


def _engine_refusal(exc: sc.ShotClockError) -> ShotClockRefused:
    return ShotClockRefused(_(exc.msgid) % exc.params if exc.params else _(exc.msgid), exc.field)


def _clock_locked(event_id: int, table_number: int) -> tuple[Event, EventTable, TableClock]:
    """The event, the table and its clock row, locked (made the first time)."""
    event = Event.objects.filter(pk=event_id).select_related("house_rules").first()
    if event is None:
        raise ShotClockRefused(_("There is no event %(id)s.") % {"id": event_id})
    table = EventTable.objects.filter(event=event, number=table_number).first()
    if table is None or not table.in_play:
        raise ShotClockRefused(
            _("Table %(n)s is not in play.") % {"n": table_number}, field="table"
        )
    TableClock.objects.get_or_create(table=table, defaults={"event": event})
    clock = TableClock.objects.select_for_update(no_key=True).get(table=table)
    return event, table, clock


def _seated(table: EventTable, seat: int) -> Entry:
    if not 1 <= seat <= table.seats:
        raise ShotClockRefused(
            _("Seat %(seat)s: table %(table)s has seats 1 to %(seats)s.")
            % {"seat": seat, "table": table.number, "seats": table.seats},
            field="seat",
        )
    entry = (
        Entry.objects.filter(table=table, seat=seat, status=Entry.Status.ACTIVE)
        .select_related("player")
        .first()
    )
    if entry is None:
        raise ShotClockRefused(_("Seat %(seat)s is empty.") % {"seat": seat}, field="seat")
    return entry


def _log(
    clock: TableClock,
    action: str,
    *,
    now: datetime,
    actor: Actor,
    seconds: float,
    extensions_left: int | None = None,
) -> Call:
    entry = clock.entry
    return Call.objects.create(
        event_id=clock.event_id,
        action=action,
        kind=clock.kind,
        table_number=clock.table.number,
        seat=clock.seat or 0,
        entry=entry,
        player_name=entry.player.name if entry else "",
        street=clock.street,
        facing=clock.facing,
        seconds=Decimal(f"{seconds:.1f}"),
        outcome=clock.outcome,
        extensions_left=extensions_left,
        at=now,
        actor_label=actor.label,
    )


def _stop_running(clock: TableClock, *, now: datetime, actor: Actor) -> None:
    """A clock still running when the next one starts: the player acted (a reset)."""
    run = clock.run
    if run is not None and clock.expired_at is None:
        _log(clock, Call.Action.RESET, now=now, actor=actor, seconds=sc.reading(run, now).remaining)


def shot_clock_start(
    *,
    event_id: int,
    table_number: int,
    seat: int,
    street: str,
    facing: str,
    actor: Actor,
    floor: bool = False,
    now: datetime | None = None,
) -> TableClock:
    """The clock on the player in `seat`: the policy's (refused while the event's shot
    clock is not on), or `floor`, the floor's call of TDA 29 (25 + 5 seconds, always).
    A clock still running at the table stops first, as a reset."""
    now = now or timezone.now()
    with transaction.atomic():
        event, table, clock = _clock_locked(event_id, table_number)
        policy = policy_of(event)
        if not floor and not sc.is_on(policy, progress_read(event, policy)):
            raise ShotClockRefused(
                _(
                    "The shot clock does not run at this event now (%(when)s); the floor's "
                    "clock (25 + 5 seconds) may be called at any time."
                )
                % {"when": starts_text(policy)}
            )
        entry = _seated(table, seat)
        try:
            run = sc.run_start(policy, street=street, facing=facing, now=now, floor=floor)
        except sc.ShotClockError as exc:
            raise _engine_refusal(exc) from None
        _stop_running(clock, now=now, actor=actor)
        clock.kind, clock.entry, clock.seat = run.kind, entry, seat
        clock.street, clock.facing = street, facing
        clock.seconds, clock.extended, clock.extensions_used = run.seconds, 0, 0
        clock.warnings, clock.started_at = list(run.warnings), now
        clock.expired_at, clock.outcome = None, ""
        clock.save()
        action = Call.Action.CALL if floor else Call.Action.START
        _log(clock, action, now=now, actor=actor, seconds=run.seconds)
        if floor:
            log_record(
                event=event,
                actor=actor,
                action="shotclock.call",
                at=now,
                summary=Text(
                    gettext_noop("Clock called on table %(table)s seat %(seat)s (%(name)s)"),
                    table=table.number,
                    seat=seat,
                    name=entry.player.name,
                ),
                data={"table": table.number, "seat": seat, "entry": entry.number},
            )
    return clock


def shot_clock_reset(
    *, event_id: int, table_number: int, actor: Actor, now: datetime | None = None
) -> TableClock:
    """The player acted: the clock stops (what was left is logged). A clock that ran out
    and was recorded is cleared from the floor's list."""
    now = now or timezone.now()
    with transaction.atomic():
        _event, _table, clock = _clock_locked(event_id, table_number)
        run = clock.run
        if run is None:
            raise ShotClockRefused(_("No clock is running at this table."))
        if clock.expired_at is None:
            _log(
                clock,
                Call.Action.RESET,
                now=now,
                actor=actor,
                seconds=sc.reading(run, now).remaining,
            )
        clock.started_at, clock.expired_at, clock.outcome = None, None, ""
        clock.save(update_fields=["started_at", "expired_at", "outcome"])
    return clock


def _extensions_locked(event: Event, entry: Entry, policy: sc.Policy) -> Extensions:
    progress = progress_read(event, policy)
    held = Extensions.objects.select_for_update(no_key=True).filter(entry=entry).first()
    allowance = allowance_of(policy, progress, entry, held)
    if held is None:
        held = Extensions(entry=entry, left=allowance.left)
    held.left, held.day = allowance.left, allowance.day
    held.players_reset, held.final_reset = allowance.players_reset, allowance.final_reset
    return held


def shot_clock_extend(
    *, event_id: int, table_number: int, seat: int, actor: Actor, now: datetime | None = None
) -> TableClock:
    """The player in `seat`, on the clock, uses one of their extensions: the clock gets
    the policy's extension seconds. Refused when they have none left, when the clock
    runs on another seat, or once it has run out."""
    now = now or timezone.now()
    with transaction.atomic():
        event, _table, clock = _clock_locked(event_id, table_number)
        run = clock.run
        if run is None or clock.expired_at is not None:
            raise ShotClockRefused(_("No clock is running at this table."))
        if clock.seat != seat:
            raise ShotClockRefused(
                _("The clock runs on seat %(on)s, not seat %(seat)s.")
                % {"on": clock.seat, "seat": seat},
                field="seat",
            )
        if clock.kind == sc.KIND_FLOOR:
            raise ShotClockRefused(_("The floor's clock takes no extensions."))
        if clock.entry is None:
            raise ShotClockRefused(_("The player on the clock has left the table."))
        policy = policy_of(event)
        held = _extensions_locked(event, clock.entry, policy)
        try:
            extended = sc.run_extend(policy, run, now)
            allowance = sc.allowance_use(
                sc.Allowance(held.left, held.day, held.players_reset, held.final_reset)
            )
        except sc.ShotClockError as exc:
            if exc.field is None and held.left == 0:
                raise ShotClockRefused(
                    _("Seat %(seat)s (%(name)s) has no extensions left.")
                    % {"seat": seat, "name": clock.entry.player.name}
                ) from None
            raise _engine_refusal(exc) from None
        held.left, held.used = allowance.left, held.used + 1
        held.save()
        clock.extended, clock.extensions_used = extended.extended, clock.extensions_used + 1
        clock.save(update_fields=["extended", "extensions_used"])
        _log(
            clock,
            Call.Action.EXTENSION,
            now=now,
            actor=actor,
            seconds=sc.reading(extended, now).remaining,
            extensions_left=held.left,
        )
    return clock


def shot_clock_expire(
    *, event_id: int, table_number: int, actor: Actor, now: datetime | None = None
) -> TableClock:
    """The clock ran out: the outcome (dead if facing a bet, else checked; or the
    policy's) is recorded, logged for the floor, and the table shows it until the next
    start or a reset. Refused while time is left (at exactly zero the player still may
    act); recorded once, however many devices report it."""
    now = now or timezone.now()
    with transaction.atomic():
        event, table, clock = _clock_locked(event_id, table_number)
        run = clock.run
        if run is None:
            raise ShotClockRefused(_("No clock is running at this table."))
        if clock.expired_at is not None:
            return clock
        read = sc.reading(run, now)
        if not read.expired:
            raise ShotClockRefused(
                _("The clock has %(s)s seconds left.") % {"s": f"{read.remaining:.1f}"}
            )
        clock.expired_at = run.ends_at
        clock.outcome = sc.outcome(policy_of(event), run)
        clock.save(update_fields=["expired_at", "outcome"])
        _log(clock, Call.Action.EXPIRY, now=now, actor=actor, seconds=0)
        name = clock.entry.player.name if clock.entry else ""
        log_record(
            event=event,
            actor=actor,
            action="shotclock.expiry",
            at=now,
            summary=Text(
                gettext_noop(
                    "Shot clock ran out on table %(table)s seat %(seat)s (%(name)s): %(outcome)s"
                ),
                table=table.number,
                seat=clock.seat,
                name=name,
                outcome=Text(_OUTCOME_WORDS[clock.outcome]),
            ),
            data={
                "table": table.number,
                "seat": clock.seat,
                "entry": clock.entry.number if clock.entry else None,
                "street": clock.street,
                "facing": clock.facing,
                "outcome": clock.outcome,
                "kind": clock.kind,
            },
        )
    return clock


_OUTCOME_WORDS = {
    sc.OUTCOME_DEAD: gettext_noop("hand dead"),
    sc.OUTCOME_CHECKED: gettext_noop("checked"),
}
