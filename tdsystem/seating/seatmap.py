"""The event's seating as engine values, and engine plans written back to rows.

Every change of seats takes the event's lock first (`tdsystem.core.locking.event_lock`),
so one event's seating changes one at a time and the reads here need no lock of their
own. The rows a plan writes are then locked in a fixed order
(tables, then entries, each by primary key) and checked unchanged, which also guards
against code that edits entries without going through seating. A whole read-plan-write
costs a constant number of queries, whatever the size of the field.

The reads every bust-out makes (the head counts, and at a break the seats of the tables
its plan reads) are statements written out (`core.sql`): there the ORM's per-row
conversion and query compiling cost more than the database's own work.

A bust-out's rebalance reads the seat map lazily (`SeatMap.read_lazily`): every table's
head count, and the rows and seats of only the tables its plan reads (`SeatMap.load`),
so a table break at a festival flight reads a few dozen seats, not every one.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from django.db import connection
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from tdsystem.core.sql import execute, fetch_all, sql_names, update_rows
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from .errors import SeatingError
from .models import Entry, EventTable, Move, SpreadCount, TableCount
from .signals import moves_applied


def new_seed(seed: int | None) -> int:
    """A seed for the engine's random choices; it is logged so a draw can be replayed."""
    return secrets.randbits(48) if seed is None else int(seed)


def engine_call(function, /, *args, **kwargs):
    """Call an engine function, turning its refusal into the services' SeatingError."""
    try:
        return function(*args, **kwargs)
    except rules.SeatingError as exc:
        raise SeatingError(str(exc)) from exc


def has_blinds(event: Event) -> bool:
    """False for seven-card stud: its tables have no button and no blinds (the cards choose
    who brings in), so they store no positions, balance by position (TDA 11-A, "Stud:
    players move by position") and deal everyone in at once. Mixed games keep the blinds'
    positions for their blind games."""
    return event.game != Event.Game.STUD


def next_entry_number(event: Event) -> int:
    return (Entry.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1


class HeadCount(NamedTuple):
    """A table in play with its active players counted: no seats, no names."""

    pk: int
    number: int
    seats: int
    break_rank: int
    players: int
    started: bool = False  # it stores a hand's positions (button and blinds); 1/0 on SQLite


def head_counts(event: Event) -> list[HeadCount]:
    """The event's tables in play, by number, with their players counted: one query, one
    row a table.

    Each table's count is its stored one (`TableCount`, kept by the database's triggers
    as entries sit down and leave), so no entry is read and the cost follows the tables,
    not every entry of the event (a join of the tables with the entries read the whole
    field on each bust-out; counting each table's seats cost a third more than this).
    """
    tables, t = sql_names(EventTable, "t")
    counts, c = sql_names(TableCount, "c")
    sql = (
        f"SELECT {t['id']}, {t['number']}, {t['seats']}, {t['break_rank']}, "
        f"COALESCE({c['players']}, 0), "
        f"{t['button']} IS NOT NULL AND {t['small_blind']} IS NOT NULL "
        f"AND {t['big_blind']} IS NOT NULL "
        f"FROM {tables} t LEFT JOIN {counts} c ON {c['table_id']} = {t['id']} "
        f"WHERE {t['event']} = %s AND {t['in_play']} = %s ORDER BY {t['number']}"
    )
    # The rows as they come (a row a table, read on every bust-out: no unpacking);
    # `started` is a bool on PostgreSQL and 1 or 0 on SQLite, read for its truth.
    return list(map(HeadCount._make, fetch_all(sql, [event.pk, True])))


def table_spread(event: Event) -> rules.Spread:
    """The engine's `Spread` of the event's tables in play, in one row: whether a bust-out
    needs a break or a move is judged from it, and the tables are listed only when it may
    (`head_counts`).

    The sums come from the event's tables by head count (`SpreadCount`, kept by the
    database's triggers): a row per number of players at a table, so the cost is the same
    at 10 tables or 1,100. The table that breaks next is the first in the break order
    (`_break_key`) with a player, read down the index of that order."""
    spreads, s = sql_names(SpreadCount, "s")
    tables, t = sql_names(EventTable, "t")
    counts, c = sql_names(TableCount, "c")
    closing = (
        f"SELECT {t['seats']} FROM {tables} t JOIN {counts} c ON {c['table_id']} = {t['id']} "
        f"WHERE {t['event']} = %s AND {t['in_play']} = %s AND {c['players']} > 0 "
        f"ORDER BY {t['break_rank']}, {t['number']} DESC LIMIT 1"
    )
    sql = (
        f"SELECT COALESCE(SUM({s['tables']}), 0), "
        f"COALESCE(SUM({s['players']} * {s['tables']}), 0), COALESCE(SUM({s['seats']}), 0), "
        f"({closing}), COALESCE(MAX({s['players']}), 0), COALESCE(MIN({s['players']}), 0) "
        f"FROM {spreads} s WHERE {s['event_id']} = %s AND {s['tables']} > 0"
    )
    (row,) = fetch_all(sql, [event.pk, True, event.pk])
    return rules.Spread(*(int(value or 0) for value in row))


@dataclass
class TableRow:
    """An event table as the planning needs it (cheaper than a model instance)."""

    pk: int
    number: int
    seats: int
    break_rank: int
    button: int | None
    small_blind: int | None
    big_blind: int | None
    hand_number: int
    sitting_out: list

    FIELDS = (
        "pk",
        "number",
        "seats",
        "break_rank",
        "button",
        "small_blind",
        "big_blind",
        "hand_number",
        "sitting_out",
    )

    def state(self) -> dict:
        """What undo needs to put the table back as it was before a plan."""
        return {
            "number": self.number,
            "hand_number": self.hand_number,
            "button": self.button,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "seats": self.seats,
            "sitting_out": list(self.sitting_out),
            "break_rank": self.break_rank,
        }


def _break_key(table: TableRow | HeadCount) -> tuple[int, int]:
    """The break order: by rank, then the highest number first (`table_spread` orders the
    same in its statement, to find the table that breaks next)."""
    return table.break_rank, -table.number


def _table_rows(rows: Iterable[tuple]) -> list[TableRow]:
    """`TableRow`s from rows of its `FIELDS`, in break order."""
    sitting_out = EventTable._meta.get_field("sitting_out")
    decode = sitting_out.from_db_value
    return sorted(
        (TableRow(*values[:-1], decode(values[-1], None, connection)) for values in rows),
        key=_break_key,
    )


@dataclass
class SeatMap:
    """The tables an event uses and who sits where, read once under the event's lock.

    Read lazily (`read_lazily`), it knows every table in play by its head count
    (`counts`) and holds in `tables` and `seated` only the tables `load` has read.
    """

    event: Event
    tables: list[TableRow]  # in break order: the first breaks first
    seated: dict[int, tuple[int, int]]  # entry id -> (table number, seat)
    # Active entries with a reserved seat (TDA 9) or who must not move, seated or not.
    holds: rules.Holds = rules.NO_HOLDS
    by_number: dict[int, TableRow] = field(init=False)
    counts: list[HeadCount] | None = None  # every table in play, when read lazily

    def __post_init__(self) -> None:
        self.by_number = {table.number: table for table in self.tables}
        if self.counts is not None:
            self.counts = sorted(self.counts, key=_break_key)

    @classmethod
    def read(cls, event: Event) -> SeatMap:
        tables_sql, t = sql_names(EventTable)
        tables = _table_rows(
            fetch_all(
                f"SELECT {', '.join(t[name] for name in TableRow.FIELDS)} "
                f"FROM {tables_sql} WHERE {t['event']} = %s AND {t['in_play']} = %s",
                [event.pk, True],
            )
        )
        numbers = {table.pk: table.number for table in tables}
        # A seated entry is active (the `busted_entry_has_no_seat` constraint). The seats
        # are read apart from the few holds: three columns a player, not six, ordered by
        # table and seat, as the engine's tables keep them.
        entries_sql, e = sql_names(Entry)
        seats = fetch_all(
            f"SELECT {e['id']}, {e['table']}, {e['seat']} FROM {entries_sql} "
            f"WHERE {e['event']} = %s AND {e['table']} IS NOT NULL",
            [event.pk],
        )
        # (The table and seat are set together: `entry_table_and_seat_together`.)
        seated: dict[int, tuple[int, int]] = {
            pk: (numbers[table_id], seat) for pk, table_id, seat in seats if seat is not None
        }
        return cls(event, tables, seated, _holds(event))

    @classmethod
    def read_lazily(cls, event: Event, counts: list[HeadCount]) -> SeatMap:
        """The seat map known by `counts` (`head_counts`), its seats read as the plan needs
        them (`load`). The tables a plan's end would change without a move are read at
        once (`first_buttons`, `plan_apply`): at a game with blinds, those to deal a first
        hand at and those emptied with positions still stored; in stud, those storing
        positions."""
        seatmap = cls(event, [], {}, _holds(event), counts=counts)
        if has_blinds(event):
            changing = [
                count.number
                for count in counts
                if (count.players >= 2 and not count.started)
                or (count.players == 0 and count.started)
            ]
        else:
            changing = [count.number for count in counts if count.started]
        seatmap.load(changing)
        return seatmap

    def load(self, numbers: Iterable[int]) -> list[rules.Table]:
        """The tables of these numbers in full, as engine tables: their rows and seats read
        in one statement where not read yet."""
        numbers = list(dict.fromkeys(numbers))
        wanted = [n for n in numbers if n not in self.by_number]
        if wanted:
            assert self.counts is not None, "a seat map read in full has every table"
            pks = {count.number: count.pk for count in self.counts}
            tables_sql, t = sql_names(EventTable, "t")
            entries_sql, e = sql_names(Entry, "e")
            marks = ", ".join(["%s"] * len(wanted))
            rows = fetch_all(
                f"SELECT {', '.join(t[name] for name in TableRow.FIELDS)}, {e['id']}, "
                f"{e['seat']} FROM {tables_sql} t LEFT JOIN {entries_sql} e "
                f"ON {e['table']} = {t['id']} WHERE {t['id']} IN ({marks})",
                [pks[number] for number in wanted],
            )
            width = len(TableRow.FIELDS)
            fresh = _table_rows({row[1]: row[:width] for row in rows}.values())
            self.tables = sorted(self.tables + fresh, key=_break_key)
            self.by_number.update((table.number, table) for table in fresh)
            self.seated.update(
                (entry, (row[1], seat)) for *row, entry, seat in rows if entry is not None
            )
        return self._engine_tables(self.by_number[n] for n in numbers)

    @property
    def drawn(self) -> bool:
        """Whether anyone has a seat (the seats are drawn)."""
        if self.counts is not None:
            return any(count.players for count in self.counts)
        return bool(self.seated)

    @property
    def break_order(self) -> list[int]:
        return [table.number for table in self.counts or self.tables]

    def engine_tables(self) -> list[rules.Table]:
        """The tables in the order they open: the reverse of the break order. A stud
        event's tables have no positions, whatever a row holds (`has_blinds`)."""
        assert self.counts is None, "read lazily: plan_tables"
        return self._engine_tables(reversed(self.tables))

    def plan_tables(self) -> list[rules.Table | rules.Counted]:
        """`engine_tables` to plan from; read lazily, a table not read in full is given
        by its head count (`rules.Counted`), for the plan to `load` if it needs to."""
        if self.counts is None:
            return list(self.engine_tables())
        read = {table.number: table for table in self._engine_tables(self.tables)}
        return [
            read.get(count.number) or rules.Counted(count.number, count.seats, count.players)
            for count in reversed(self.counts)
        ]

    def _engine_tables(self, rows: Iterable[TableRow]) -> list[rules.Table]:
        # Read lazily, `seated` holds the seats of the tables read only.
        occupants: dict[int, list[tuple[int, int]]] = {}
        for entry, (number, seat) in self.seated.items():
            occupants.setdefault(number, []).append((seat, entry))
        blinds = has_blinds(self.event)
        return [engine_table(row, occupants.get(row.number, ()), blinds=blinds) for row in rows]


def _holds(event: Event) -> rules.Holds:
    """The event's active entries with a reserved seat (TDA 9) or who must not move."""
    # Found by the held entries' own index (`entry_held`), the status tested here: asked
    # for in the statement, SQLite read the event's active entries by their index instead
    # (docs/load-and-faults.md, "Figures behind the code").
    held = (
        Entry.objects.filter(event=event)
        .filter(Q(reserved_seat__isnull=False) | Q(do_not_move=True))
        .order_by()
        .values_list("pk", "status", "reserved_seat", "reserved_table", "do_not_move")
    )
    reserved: dict[int, rules.Reserved] = {}
    unmovable: set[int] = set()
    for pk, status, reserved_seat, reserved_table, do_not_move in held:
        if status != Entry.Status.ACTIVE:
            continue
        if reserved_seat is not None:
            reserved[pk] = rules.Reserved(reserved_seat, reserved_table)
        if do_not_move:
            unmovable.add(pk)
    return rules.Holds(reserved, frozenset(unmovable))


def seats_write(seats: list[tuple[int, int | None, int | None]]) -> None:
    """Give each entry (id, table id, seat) its seat."""
    update_rows(Entry, ["table", "seat"], seats)


def engine_table(table: EventTable | TableRow, occupants, *, blinds: bool = True) -> rules.Table:
    """The row as an engine table; without `blinds` (stud) it has no positions."""
    positions = (table.button, table.small_blind, table.big_blind)
    if None in positions or not blinds:
        positions = (None, None, None)
    return rules.Table(table.number, table.seats, tuple(occupants), *positions)


def _positions(table: rules.Table) -> tuple[int | None, int | None, int | None]:
    return table.button, table.small_blind, table.big_blind


def first_buttons(tables, rng: random.Random, *, blinds: bool = True) -> list[rules.Table]:
    """Deal a first button at tables that gained a second player; forget it at empty ones.
    Without `blinds` (stud) no table keeps a button or blinds (a redraw's included)."""
    ready = []
    for table in tables:
        if not blinds:
            if table.started:
                table = replace(table, button=None, small_blind=None, big_blind=None)
        elif table.count >= 2 and not table.started:
            table = rules.start_hands(table, rng)
        elif table.count == 0 and table.started:
            table = table.emptied()
        ready.append(table)
    return ready


@dataclass(frozen=True)
class Applied:
    """What a plan changed: the Move rows (move slips) and the tables that broke."""

    moves: list[Move]
    broken: list[int]
    before: dict[int, dict]  # table number -> its state before the plan, for the tables it wrote

    def as_log(self) -> dict:
        return {
            "moves": [
                [m.entry_id, m.from_table, m.from_seat, m.to_table, m.to_seat, m.reason]
                for m in self.moves
            ],
            "broken": self.broken,
        }


def plan_apply(seatmap: SeatMap, plan: rules.Plan, rng: random.Random) -> Applied:
    """Write the plan's seats, move slips and table changes.

    Movers first leave their seats, then sit down, so a plan that frees and fills the
    same seat never trips the one-player-per-seat constraint half way.
    """
    now = timezone.now()
    broken = set(plan.broken)
    changed: dict[int, rules.Table] = {}
    for table in first_buttons(plan.tables, rng, blinds=has_blinds(seatmap.event)):
        row = seatmap.by_number[table.number]
        stored = (row.button, row.small_blind, row.big_blind)
        if table.number in broken or _positions(table) != stored or table.seats != row.seats:
            changed[table.number] = table
    touched = set(changed) | {m.from_table for m in plan.moves} | {m.to_table for m in plan.moves}
    before = {number: seatmap.by_number[number].state() for number in sorted(touched)}
    _lock_tables([seatmap.by_number[number].pk for number in touched])
    _lock_entries(seatmap, {m.entry: (m.from_table, m.from_seat) for m in plan.moves})

    _seats_free([m.entry for m in plan.moves])
    seats_write([(m.entry, seatmap.by_number[m.to_table].pk, m.to_seat) for m in plan.moves])
    for m in plan.moves:
        seatmap.seated[m.entry] = (m.to_table, m.to_seat)

    # Every table changed here breaks or deals a first hand, where nobody waits.
    updates: list[tuple] = []
    for number, table in changed.items():
        row = seatmap.by_number[number]
        row.button, row.small_blind, row.big_blind = _positions(table)
        row.seats = table.seats
        gone = number in broken
        updates.append(
            (row.pk, *_positions(table), table.seats, not gone, now if gone else None, [])
        )
    fields = ["button", "small_blind", "big_blind", "seats", "in_play", "broken_at", "sitting_out"]
    update_rows(EventTable, fields, updates)
    slips = Move.objects.bulk_create(
        Move(
            event=seatmap.event,
            entry_id=m.entry,
            from_table=m.from_table,
            from_seat=m.from_seat,
            to_table=m.to_table,
            to_seat=m.to_seat,
            reason=str(m.reason),
            dealt_in=m.dealt_in,
        )
        for m in plan.moves
    )
    if slips:
        moves_applied.send(
            sender=Move,
            event_id=seatmap.event.pk,
            move_ids=[slip.pk for slip in slips],
            broken=sorted(broken),
        )
    return Applied(slips, sorted(broken), before)


def _locked_rows(model, pks: Iterable[int], fields: Sequence[str]) -> list[tuple]:
    """These rows of `model`, locked in primary key order (where the database has row
    locks: SQLite locks the whole database on the first write instead)."""
    table, columns = sql_names(model)
    pks = sorted(pks)
    if not pks:
        return []
    features = connection.features
    lock = (
        " FOR NO KEY UPDATE"  # as core.locking's rows: no key changes
        if features.has_select_for_no_key_update
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""
    )
    return fetch_all(
        f"SELECT {', '.join(columns[name] for name in fields)} FROM {table} "
        f"WHERE {columns['pk']} IN ({', '.join(['%s'] * len(pks))}) "
        f"ORDER BY {columns['pk']}{lock}",
        pks,
    )


def _seats_free(entries: list[int]) -> None:
    """The entries leave their seats (table and seat NULL), in one statement."""
    if not entries:
        return
    table, columns = sql_names(Entry)
    execute(
        f"UPDATE {table} SET {columns['table']} = NULL, {columns['seat']} = NULL "
        f"WHERE {columns['pk']} IN ({', '.join(['%s'] * len(entries))})",
        entries,
    )


def _lock_tables(pks) -> None:
    _locked_rows(EventTable, pks, ["pk"])


def _lock_entries(seatmap: SeatMap, expected: dict[int, tuple[int, int]]) -> None:
    """Lock the entries about to move and check they still sit where the plan thinks."""
    if not expected:
        return
    numbers = {table.pk: table.number for table in seatmap.tables}
    rows = _locked_rows(Entry, expected, ["pk", "status", "table", "seat"])
    found = {
        pk: (numbers.get(table_id), seat)
        for pk, status, table_id, seat in rows
        if status == Entry.Status.ACTIVE
    }
    if found != expected:
        raise SeatingError(gettext("the seating changed meanwhile: nothing was done, try again"))
