"""What the dealers' pages read: the roster with where each dealer goes at the next push,
a dealer's own next steps, and the hours for the payroll. Nothing here writes: the next
push is the engine's answer on the state as it stands (`engine.push` is pure)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from tdsystem.engine import dealers as engine
from tdsystem.events.models import Event
from tdsystem.seating.models import EventTable

from .models import Rotation, Shift
from .services import level_changes, open_shifts, rules_of, state_of

# How many pushes ahead a dealer's phone looks for their next break.
FORECAST_PUSHES = 12


@dataclass(frozen=True)
class Row:
    dealer_id: int
    name: str
    games: str
    token: str
    status: str
    table: int | None
    since: datetime
    downs: int
    breaks: int
    downs_dealt: int
    next_status: str
    next_table: int | None

    @property
    def stays(self) -> bool:
        return (self.status, self.table) == (self.next_status, self.next_table)


@dataclass(frozen=True)
class Board:
    rotation: Rotation | None
    rows: list[Row]
    next_push_at: datetime | None
    waiting: tuple[int, ...]
    tables: tuple[int, ...]
    kept: frozenset[int]


def _current(event: Event, row: Rotation, shifts: list[Shift], now: datetime):
    """The rotation as the services would see it now (tables, breaks over), unwritten."""
    rules = rules_of(row)
    tables = EventTable.objects.filter(event=event, in_play=True).values_list("number", flat=True)
    state = engine.tables_set(state_of(row, shifts), rules, tables, now)
    state = engine.keep_final(state, on=row.keep_final_table)
    return rules, engine.fill(state, rules, now)


def board(event: Event, now: datetime) -> Board:
    row = Rotation.objects.filter(pk=event.pk).first()
    if row is None:
        return Board(None, [], None, (), (), frozenset())
    shifts = open_shifts(event.pk)
    rules, state = _current(event, row, shifts, now)
    at = max(row.next_push_at, now)
    after = engine.push(state, rules, at)
    by_id = {s.dealer_id: s for s in shifts}
    rows = []
    for dealer in state.dealers:
        shift, nxt = by_id[dealer.id], after.dealer(dealer.id)
        rows.append(
            Row(
                dealer_id=dealer.id,
                name=shift.dealer.name,
                games=shift.dealer.games,
                token=shift.dealer.token,
                status=dealer.status,
                table=dealer.table,
                since=dealer.since or shift.since,
                downs=dealer.downs,
                breaks=dealer.breaks,
                downs_dealt=shift.downs_dealt,
                next_status=nxt.status,
                next_table=nxt.table,
            )
        )
    order = {engine.DEALING: 0, engine.RESTING: 1, engine.FREE: 2}
    rows.sort(key=lambda r: (order[r.status], r.table or 0, r.name))
    return Board(row, rows, at, state.waiting(), state.tables, state.kept)


@dataclass(frozen=True)
class Plan:
    """A dealer's evening as it stands: where they are, their next push, their next break."""

    shift: Shift | None
    status: str | None
    table: int | None
    next_at: datetime | None
    next_status: str | None
    next_table: int | None
    break_at: datetime | None
    break_ends: datetime | None


def dealer_plan(dealer_id: int, now: datetime) -> Plan:
    shift = (
        Shift.objects.filter(dealer_id=dealer_id, clock_out__isnull=True)
        .select_related("event", "dealer")
        .first()
    )
    row = Rotation.objects.filter(pk=shift.event_id).first() if shift else None
    if shift is None or row is None:
        return Plan(shift, None, None, None, None, None, None, None)
    rules, state = _current(shift.event, row, open_shifts(shift.event_id), now)
    me = state.dealer(dealer_id)
    first = max(row.next_push_at, now)
    times = engine.push_times(first, rules, level_changes(shift.event, now), FORECAST_PUSHES)
    steps = engine.forecast(state, rules, dealer_id, times)
    resting = next((s for s in steps if s.status == engine.RESTING), None)
    break_ends = None
    if me.status == engine.RESTING:
        break_ends = me.break_ends(rules)
    elif resting is not None:
        break_ends = resting.at + rules.break_length
    nxt = steps[0] if steps else None
    return Plan(
        shift=shift,
        status=me.status,
        table=me.table,
        next_at=nxt.at if nxt else None,
        next_status=nxt.status if nxt else None,
        next_table=nxt.table if nxt else None,
        break_at=resting.at if resting else None,
        break_ends=break_ends,
    )


@dataclass(frozen=True)
class Hours:
    dealer: str
    clock_in: datetime
    clock_out: datetime | None
    hours: Decimal
    downs: int
    breaks: int


def hours(event: Event, now: datetime) -> list[Hours]:
    """Each shift at the event, its hours to the hundredth (an open shift up to now)."""
    rows = []
    for shift in (
        Shift.objects.filter(event=event)
        .select_related("dealer")
        .order_by("dealer__name", "clock_in")
    ):
        end = shift.clock_out or now
        worked = max(end - shift.clock_in, timedelta(0))
        rows.append(
            Hours(
                dealer=shift.dealer.name,
                clock_in=shift.clock_in,
                clock_out=shift.clock_out,
                hours=(Decimal(worked.total_seconds()) / 3600).quantize(Decimal("0.01")),
                downs=shift.downs_dealt,
                breaks=shift.breaks,
            )
        )
    return rows


@dataclass(frozen=True)
class DealerHours:
    dealer: str
    shifts: int
    hours: Decimal
    downs: int
    breaks: int


def hours_by_dealer(event: Event, now: datetime) -> list[DealerHours]:
    """The shifts' hours added up per dealer, for the payroll."""
    totals: dict[str, list] = {}
    for row in hours(event, now):
        total = totals.setdefault(row.dealer, [0, Decimal(0), 0, 0])
        total[0] += 1
        total[1] += row.hours
        total[2] += row.downs
        total[3] += row.breaks
    return [DealerHours(name, *values) for name, values in totals.items()]
