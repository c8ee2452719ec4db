"""The dealers' changes: one service per action, each the same shape as the clock's: take
the event's lock, read the rotation, call the engine (`tdsystem.engine.dealers`), write
back what changed, log it.

Every change first brings the rotation to the event's tables in play (a table the seating
put into play takes a dealer, one that broke releases its dealer) and lets the dealers
whose break is over fill the tables waiting, so a missed signal is made good by the next
change, push or tick.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.core.text import TextRefused, text_normal
from tdsystem.engine import dealers as engine
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import level_durations
from tdsystem.seating.models import EventTable

from .errors import DealerError
from .models import Assignment, Dealer, Rotation, Shift

# How far ahead the level changes are read for the pushes to come.
LEVELS_AHEAD = timedelta(hours=6)
NAME_MAX = 120


def rules_of(row: Rotation) -> engine.Rules:
    return engine.Rules(
        down=timedelta(minutes=row.down_minutes),
        break_every=row.break_every,
        break_length=timedelta(minutes=row.break_minutes),
    )


def level_changes(event: Event, now: datetime) -> list[datetime]:
    """When the levels change from now on, while the clock runs (none while paused)."""
    clock = Clock.objects.filter(pk=event.pk).first()
    if clock is None or clock.status != Clock.Status.RUNNING or clock.ends_at is None:
        return []
    changes = [clock.ends_at]
    for seconds in level_durations(event)[clock.level_index + 1 :]:
        if changes[-1] > now + LEVELS_AHEAD:
            break
        changes.append(changes[-1] + timedelta(seconds=seconds))
    return changes


def state_of(row: Rotation, shifts: list[Shift]) -> engine.Rotation:
    return engine.Rotation(
        dealers=tuple(
            engine.Dealer(
                id=s.dealer_id,
                status=s.status,
                table=s.table,
                since=s.since,
                downs=s.downs,
                breaks=s.breaks,
            )
            for s in shifts
        ),
        tables=tuple(sorted(row.tables)),
        kept=frozenset(row.kept),
    )


def open_shifts(event_id: int) -> list[Shift]:
    return list(
        Shift.objects.filter(event_id=event_id, clock_out__isnull=True)
        .select_related("dealer")
        .order_by("clock_in", "pk")
    )


def _tables_in_play(event_id: int) -> list[int]:
    return sorted(
        EventTable.objects.filter(event_id=event_id, in_play=True).values_list("number", flat=True)
    )


class _Locked:
    """The event's rotation read under the event's lock, and its state for the engine."""

    def __init__(self, event_id: int, now: datetime) -> None:
        self.event = event = event_lock(Event.objects, event_id, error=DealerError)
        self.now = now
        row = Rotation.objects.select_for_update(no_key=True).filter(pk=event_id).first()
        if row is None:
            row = Rotation.objects.create(
                event=event, pushed_at=now, next_push_at=now + timedelta(minutes=30)
            )
        self.row = row
        self.rules = rules_of(row)
        self.shifts = open_shifts(event_id)
        self.before = state_of(row, self.shifts)
        # The tables as the seating has them now, and the breaks over.
        state = engine.tables_set(self.before, self.rules, _tables_in_play(event_id), now)
        self.state = engine.keep_final(state, on=row.keep_final_table)
        self.state = engine.fill(self.state, self.rules, now)

    def write(self, after: engine.Rotation) -> dict[int, tuple[str, int | None]]:
        """Write the engine's answer back: the shifts that changed, their assignments, the
        rotation's tables. Returns the dealers who moved (id -> status, table)."""
        moved = engine.moves(self.before, after)
        by_dealer = {s.dealer_id: s for s in self.shifts}
        # One dealer per table holds at every statement: those who move let go of their
        # table first.
        if moved:
            Shift.objects.filter(pk__in=[by_dealer[i].pk for i in moved]).update(table=None)
        for dealer in after.dealers:
            shift = by_dealer[dealer.id]
            new = (dealer.status, dealer.table, dealer.since, dealer.downs, dealer.breaks)
            old = (shift.status, shift.table, shift.since, shift.downs, shift.breaks)
            if new == old and dealer.id not in moved:
                continue
            Shift.objects.filter(pk=shift.pk).update(
                status=dealer.status,
                table=dealer.table,
                since=dealer.since or self.now,
                downs=dealer.downs,
                breaks=dealer.breaks,
            )
        if moved:
            Assignment.objects.filter(
                event=self.event, dealer_id__in=list(moved), ended_at__isnull=True
            ).update(ended_at=self.now)
            Assignment.objects.bulk_create(
                Assignment(
                    shift=by_dealer[dealer_id],
                    event=self.event,
                    dealer_id=dealer_id,
                    status=status,
                    table=table,
                    started_at=self.now,
                )
                for dealer_id, (status, table) in moved.items()
            )
        Rotation.objects.filter(pk=self.row.pk).update(
            tables=list(after.tables), kept=sorted(after.kept)
        )
        return moved

    def names(self, moved: dict[int, tuple[str, int | None]]) -> list[dict]:
        names = {s.dealer_id: s.dealer.name for s in self.shifts}
        return [
            {"dealer": dealer_id, "name": names.get(dealer_id, ""), "to": status, "table": table}
            for dealer_id, (status, table) in sorted(moved.items())
        ]


def _atomic_now(now: datetime | None) -> datetime:
    return now or timezone.now()


def dealer_add(*, name: str, games: str = "", actor: Actor) -> Dealer:
    """A dealer on the room's roster (with their own secret link)."""
    try:
        name = text_normal(name or "", max_length=NAME_MAX)
        games = text_normal(games or "", max_length=NAME_MAX)
    except TextRefused as exc:
        raise DealerError(str(exc), field="name") from exc
    if not name:
        raise DealerError(gettext("give the dealer's name"), field="name")
    with transaction.atomic():
        dealer = Dealer.objects.create(name=name, games=games)
        log_record(
            event=None,
            actor=actor,
            action="dealers.add",
            summary=Text(N_("Dealer added: %(name)s"), name=name),
            data={"dealer": dealer.pk},
        )
    return dealer


def dealer_clock_in(
    *, event_id: int, dealer_id: int, actor: Actor, now: datetime | None = None
) -> Shift:
    """The dealer starts a shift at the event: into the dealers' room, or straight to a
    table waiting for a dealer."""
    now = _atomic_now(now)
    with transaction.atomic():
        locked = _Locked(event_id, now)
        if locked.event.status == Event.Status.FINISHED:
            raise DealerError(gettext("the event is finished"), field="event")
        dealer = Dealer.objects.filter(pk=dealer_id).first()
        if dealer is None:
            raise DealerError(gettext("no such dealer"), field="dealer")
        busy = Shift.objects.filter(dealer=dealer, clock_out__isnull=True).first()
        if busy is not None:
            raise DealerError(
                gettext("%(name)s is clocked in already") % {"name": dealer.name}, field="dealer"
            )
        shift = Shift.objects.create(
            dealer=dealer, event=locked.event, clock_in=now, since=now, status=engine.FREE
        )
        Assignment.objects.create(
            shift=shift, event=locked.event, dealer=dealer, status=engine.FREE, started_at=now
        )
        locked.shifts.append(shift)
        shift.dealer = dealer
        locked.before = replace(
            locked.before,
            dealers=(*locked.before.dealers, engine.Dealer(id=dealer.pk, since=now)),
        )
        state = engine.clock_in(locked.state, locked.rules, dealer.pk, now)
        moved = locked.write(state)
        log_record(
            event=locked.event,
            actor=actor,
            action="dealers.clock_in",
            summary=Text(N_("Dealer clocked in: %(name)s"), name=dealer.name),
            at=now,
            data={"dealer": dealer.pk, "moves": locked.names(moved)},
        )
    shift.refresh_from_db()
    return shift


def dealer_clock_out(
    *, event_id: int, dealer_id: int, actor: Actor, now: datetime | None = None
) -> Shift:
    """The dealer's shift ends; their table, if any, takes a dealer available."""
    now = _atomic_now(now)
    with transaction.atomic():
        locked = _Locked(event_id, now)
        shift = next((s for s in locked.shifts if s.dealer_id == dealer_id), None)
        if shift is None:
            raise DealerError(gettext("that dealer is not clocked in here"), field="dealer")
        state = engine.clock_out(locked.state, locked.rules, dealer_id, now)
        Assignment.objects.filter(shift=shift, ended_at__isnull=True).update(ended_at=now)
        Shift.objects.filter(pk=shift.pk).update(
            clock_out=now, status=engine.FREE, table=None, since=now
        )
        locked.shifts.remove(shift)
        locked.before = replace(
            locked.before, dealers=tuple(d for d in locked.before.dealers if d.id != dealer_id)
        )
        moved = locked.write(state)
        log_record(
            event=locked.event,
            actor=actor,
            action="dealers.clock_out",
            summary=Text(N_("Dealer clocked out: %(name)s"), name=shift.dealer.name),
            at=now,
            data={"dealer": dealer_id, "moves": locked.names(moved)},
        )
    shift.refresh_from_db()
    return shift


def push_allowed(event: Event, now: datetime) -> datetime:
    """`now`, or when a push is next allowed (a minute after the level change near it)."""
    return engine.push_time(now, level_changes(event, now))


def rotation_push(
    *,
    event_id: int,
    actor: Actor,
    now: datetime | None = None,
    expected_version: int | None = None,
) -> dict[int, tuple[str, int | None]] | None:
    """Push now: every dealer moves on, those due rest, the rested fill in. Refused in
    the minute around a level change (saying when it may be made); a scheduled push sent
    for an older version pushes nothing (None)."""
    now = _atomic_now(now)
    with transaction.atomic():
        locked = _Locked(event_id, now)
        row = locked.row
        if expected_version is not None and row.version != expected_version:
            return None
        allowed = push_allowed(locked.event, now)
        if allowed > now:
            if expected_version is not None:
                Rotation.objects.filter(pk=row.pk).update(next_push_at=allowed)
                if row.automatic:
                    _schedule(event_id, row.version, allowed)
                return None
            raise DealerError(
                gettext("no push in the minute around a level change: push at %(time)s")
                % {"time": timezone.localtime(allowed).strftime("%H:%M:%S")}
            )
        # Every dealer at a table has dealt a down (a kept table's too).
        Shift.objects.filter(
            event=locked.event, clock_out__isnull=True, status=engine.DEALING
        ).update(downs_dealt=F("downs_dealt") + 1)
        state = engine.push(locked.state, locked.rules, now)
        moved = locked.write(state)
        next_at = engine.push_time(now + locked.rules.down, level_changes(locked.event, now))
        Rotation.objects.filter(pk=row.pk).update(
            pushed_at=now,
            next_push_at=next_at,
            pushes=F("pushes") + 1,
            version=F("version") + 1,
        )
        log_record(
            event=locked.event,
            actor=actor,
            action="dealers.push",
            summary=Text(N_("Dealers pushed: %(count)s moves"), count=len(moved)),
            at=now,
            data={"moves": locked.names(moved), "next": next_at.isoformat()},
        )
        if row.automatic:
            _schedule(event_id, row.version + 1, next_at)
    return moved


def rotation_sync(*, event_id: int, actor: Actor, now: datetime | None = None) -> list[dict]:
    """The rotation brought to the tables in play and the breaks over (a table opened or
    broke, a dealer came back): what moved, logged when anything did."""
    now = _atomic_now(now)
    if not Rotation.objects.filter(pk=event_id).exists():
        return []  # the event runs no rotation
    with transaction.atomic():
        locked = _Locked(event_id, now)
        moved = locked.write(locked.state)
        if not moved and list(locked.before.tables) == list(locked.state.tables):
            return []
        names = locked.names(moved)
        opened = sorted(set(locked.state.tables) - set(locked.before.tables))
        broken = sorted(set(locked.before.tables) - set(locked.state.tables))
        log_record(
            event=locked.event,
            actor=actor,
            action="dealers.tables",
            summary=Text(
                N_("Dealers: tables opened %(opened)s, broken %(broken)s; %(count)s moves"),
                opened=", ".join(map(str, opened)) or "—",
                broken=", ".join(map(str, broken)) or "—",
                count=len(moved),
            ),
            at=now,
            data={"moves": names, "opened": opened, "broken": broken},
        )
    return names


def rotation_settings(
    *,
    event_id: int,
    down_minutes: int,
    break_every: int,
    break_minutes: int,
    automatic: bool,
    keep_final_table: bool,
    actor: Actor,
    now: datetime | None = None,
) -> Rotation:
    """The event's down length and break rule; the next push is a down after the last."""
    now = _atomic_now(now)
    with transaction.atomic():
        locked = _Locked(event_id, now)
        row = locked.row
        next_at = engine.push_time(
            row.pushed_at + timedelta(minutes=down_minutes), level_changes(locked.event, now)
        )
        Rotation.objects.filter(pk=row.pk).update(
            down_minutes=down_minutes,
            break_every=break_every,
            break_minutes=break_minutes,
            automatic=automatic,
            keep_final_table=keep_final_table,
            next_push_at=next_at,
        )
        row.refresh_from_db()
        locked.state = engine.keep_final(locked.state, on=keep_final_table)
        locked.write(locked.state)
        log_record(
            event=locked.event,
            actor=actor,
            action="dealers.settings",
            summary=Text(
                N_("Dealers: downs of %(down)s min, a break of %(rest)s min every %(every)s downs"),
                down=down_minutes,
                rest=break_minutes,
                every=break_every,
            ),
            at=now,
            data={
                "down_minutes": down_minutes,
                "break_every": break_every,
                "break_minutes": break_minutes,
                "automatic": automatic,
                "keep_final_table": keep_final_table,
            },
        )
        if automatic:
            _schedule(event_id, row.version, next_at)
    return row


def _schedule(event_id: int, version: int, at: datetime) -> None:
    """The push task at `at`, sent once this change commits."""

    def send() -> None:
        from .tasks import rotation_push_due

        rotation_push_due.apply_async(args=[event_id, version], eta=at)

    transaction.on_commit(send)


def rotations_due(*, now: datetime | None = None, actor: Actor) -> int:
    """The beat's catch-up: every automatic rotation whose push is due is pushed (a
    compare-and-set on its version: a task that pushed first wins)."""
    now = _atomic_now(now)
    due = (
        Rotation.objects.filter(
            automatic=True,
            next_push_at__lte=now,
            event__status=Event.Status.RUNNING,
            event__dealer_shifts__clock_out__isnull=True,
        )
        .values_list("pk", "version")
        .distinct()
    )
    pushed = 0
    for event_id, version in due:
        if rotation_push(event_id=event_id, actor=actor, now=now, expected_version=version):
            pushed += 1
    return pushed
