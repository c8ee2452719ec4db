"""What the shot clock's pages and API read: the event's policy and progress, a table's
clock with each seat's extensions, the tables whose clock ran out, and the log."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tdsystem.engine import rulesets
from tdsystem.engine import shotclock as sc
from tdsystem.events.models import Clock, Event
from tdsystem.events.rules import CHOICE_LABELS
from tdsystem.events.selectors import schedule
from tdsystem.results.services.cashier import paid_places
from tdsystem.results.services.standings import field_read
from tdsystem.seating.models import Entry, EventTable

from .models import Call, Extensions, TableClock


def policy_of(event: Event) -> sc.Policy:
    return rulesets.shot_clock(event.rules)


def level_number(event: Event) -> int:
    """The level being played (during a break, the last one played); 0 before the start."""
    clock = Clock.objects.filter(event=event).first()
    if clock is None or clock.status == Clock.Status.NOT_STARTED:
        return 0
    numbers = [row.number for row in schedule(event)[: clock.level_index + 1] if row.number]
    return numbers[-1] if numbers else 0


def progress_read(event: Event, policy: sc.Policy) -> sc.Progress:
    """Where the tournament is, as far as the policy asks: the level only when the clock
    starts from one, the paid places only when it starts off the money (each costs reads)."""
    left = field_read(event).active
    in_play = EventTable.objects.filter(event=event, in_play=True, entries__isnull=False)
    return sc.Progress(
        level=level_number(event) if policy.starts == sc.STARTS_AT_LEVEL else 0,
        players_left=left,
        paid=paid_places(event) if policy.starts == sc.STARTS_OFF_MONEY else 0,
        seats=event.seats_per_table,
        final_table=in_play.distinct().count() == 1,
        day=event.day,
    )


def allowance_of(
    policy: sc.Policy, progress: sc.Progress, entry: Entry, held: Extensions | None
) -> sc.Allowance:
    """A player's extensions as they stand now: their own row brought up to the
    tournament's progress, or (none yet) the count, or what they carried from a flight."""
    if held is None:
        carried = (
            Extensions.objects.filter(entry_id=entry.carried_from_id).first()
            if entry.carried_from_id
            else None
        )
        if carried is None:
            return sc.allowance_new(policy, progress)
        return sc.allowance_at(policy, carried.allowance, progress)
    return sc.allowance_at(policy, held.allowance, progress)


def starts_text(policy: sc.Policy) -> str:
    """When the event's shot clock runs, in words ("from level 16")."""
    n = policy.starts_at
    match policy.starts:
        case sc.STARTS_AT_START:
            return _("from the first hand")
        case sc.STARTS_AT_LEVEL:
            return _("from level %(n)s") % {"n": n}
        case sc.STARTS_OFF_MONEY:
            if n == 0:
                return _("once in the money")
            return ngettext(
                "from %(n)s table off the money", "from %(n)s tables off the money", n
            ) % {"n": n}
        case sc.STARTS_AT_PLAYERS:
            return _("from %(n)s players left") % {"n": n}
    return str(CHOICE_LABELS[sc.STARTS_OFF])


def policy_text(policy: sc.Policy) -> str:
    """The policy in one line for the table: "30 s (45 s facing a raise), 2 extensions of
    30 s, from level 16"."""
    times = "/".join(map(str, policy.seconds))
    text = _("%(times)s s per action") % {"times": times}
    if policy.facing_raise:
        text += _(" (%(s)s s facing a raise)") % {"s": policy.facing_raise}
    if policy.extensions:
        text += ngettext(
            ", %(n)s extension of %(s)s s", ", %(n)s extensions of %(s)s s", policy.extensions
        ) % {"n": policy.extensions, "s": policy.extension_seconds}
    return f"{text}, {starts_text(policy)}"


@dataclass(frozen=True)
class SeatRow:
    seat: int
    entry: Entry | None
    extensions: int | None  # left; None for an empty seat


@dataclass(frozen=True)
class TableState:
    """One table's clock as its page and the API show it."""

    event: Event
    table: EventTable
    clock: TableClock | None
    policy: sc.Policy
    on: bool
    seats: list[SeatRow]
    now: datetime

    @property
    def run(self) -> sc.Run | None:
        return self.clock.run if self.clock else None

    @property
    def reading(self) -> sc.Reading | None:
        run = self.run
        return sc.reading(run, self.now) if run else None

    @property
    def status(self) -> str:
        """idle, running or expired (run out, recorded or not yet)."""
        if self.clock is None or self.clock.started_at is None:
            return "idle"
        if self.clock.expired_at is not None or (self.reading and self.reading.expired):
            return "expired"
        return "running"

    @property
    def outcome(self) -> str:
        if self.clock is None or self.run is None or self.status != "expired":
            return ""
        return self.clock.outcome or sc.outcome(self.policy, self.run)

    @property
    def player(self) -> Entry | None:
        return self.clock.entry if self.clock else None

    @property
    def extensions_of_clock_seat(self) -> int | None:
        seat = self.clock.seat if self.clock else None
        return next((row.extensions for row in self.seats if row.seat == seat), None)

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    @property
    def ends_ms(self) -> int | None:
        """When the running clock reaches zero, in ms since the epoch (the page counts down
        to it, corrected by the server's `now_ms`)."""
        run = self.run
        return int(run.ends_at.timestamp() * 1000) if run else None

    @property
    def started_ms(self) -> int | None:
        run = self.run
        return int(run.started_at.timestamp() * 1000) if run else None

    @property
    def seconds_left(self) -> int:
        """What the face shows before its script runs: whole seconds, rounded up."""
        read = self.reading
        return math.ceil(read.remaining) if read else 0

    @property
    def policy_text(self) -> str:
        return policy_text(self.policy)

    @property
    def starts_text(self) -> str:
        return starts_text(self.policy)


def table_state(event: Event, number: int, *, now: datetime | None = None) -> TableState | None:
    """The table's clock and each seat's extensions left; None for a table the event
    never had."""
    table = EventTable.objects.filter(event=event, number=number).first()
    if table is None:
        return None
    policy = policy_of(event)
    progress = progress_read(event, policy)
    clock = TableClock.objects.filter(table=table).select_related("entry__player").first()
    entries = {
        entry.seat: entry
        for entry in Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).select_related(
            "player", "shot_clock_extensions"
        )
    }
    rows = []
    for seat in range(1, table.seats + 1):
        entry = entries.get(seat)
        left = None
        if entry is not None:
            held = getattr(entry, "shot_clock_extensions", None)
            left = allowance_of(policy, progress, entry, held).left
        rows.append(SeatRow(seat, entry, left))
    return TableState(
        event, table, clock, policy, sc.is_on(policy, progress), rows, now or timezone.now()
    )


@dataclass(frozen=True)
class RunOut:
    """A table whose clock ran out, for the floor."""

    event: Event
    table_number: int
    seat: int | None
    player: str
    outcome: str
    at: datetime
    recorded: bool  # the table's device recorded it (else it ran out unanswered)


def run_out(*, now: datetime | None = None, event: Event | None = None) -> list[RunOut]:
    """The tables whose clock has run out and not been started or reset since, most
    recent first: recorded expiries, and clocks past zero nobody answered."""
    now = now or timezone.now()
    clocks = TableClock.objects.filter(started_at__isnull=False, table__in_play=True)
    if event is not None:
        clocks = clocks.filter(event=event)
    rows = []
    for clock in clocks.select_related("event", "table", "entry__player"):
        run = clock.run
        if run is None:
            continue
        if clock.expired_at is None and not sc.reading(run, now).expired:
            continue
        policy = policy_of(clock.event)
        rows.append(
            RunOut(
                clock.event,
                clock.table.number,
                clock.seat,
                clock.entry.player.name if clock.entry else "",
                clock.outcome or sc.outcome(policy, run),
                clock.expired_at or run.ends_at,
                clock.expired_at is not None,
            )
        )
    return sorted(rows, key=lambda row: row.at, reverse=True)


def calls(event: Event, *, table: int | None = None) -> QuerySet[Call]:
    rows = Call.objects.filter(event=event)
    if table is not None:
        rows = rows.filter(table_number=table)
    return rows
