"""The counters the database's triggers keep, compared with the rows they count.

Three models hold numbers the database itself keeps as the rows change (their triggers
are in the migrations each model names; both databases have their own):

- `seating.TableCount`: the players seated at each table (seating 0015);
- `seating.SpreadCount`: each event's tables in play by head count (seating 0016);
- `results.FieldCount`: each event's entries, carried entries, players in and money paid
  (results 0005).

`counters_check` counts the rows again (the ORM, no trigger) and names every counter that
differs; with `fix`, it writes the counted values in their place. `manage.py
check_counters` runs it (docs/operations.md). A counter is only ever wrong if a trigger
is missing or was bypassed (a restore into a database without them, a hand edit with the
triggers off), which is what it is for.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection, transaction
from django.db.models import Count

from tdsystem.seating.models import Entry, EventTable, SpreadCount, TableCount

from .models import FieldCount


@dataclass(frozen=True)
class Difference:
    """One counter's row as stored and as counted (a row nobody stored counts as zeros)."""

    counter: str  # the model's label
    key: tuple
    stored: tuple
    counted: tuple

    def __str__(self) -> str:
        return f"{self.counter} {self.key}: stored {self.stored}, counted {self.counted}"


def _table_counts() -> dict[tuple, tuple]:
    seated = Entry.objects.filter(table__isnull=False).values_list("table_id").annotate(Count("id"))
    return {(table_id,): (players,) for table_id, players in seated.order_by()}


def _spread_counts() -> dict[tuple, tuple]:
    players = {key[0]: value[0] for key, value in _table_counts().items()}
    spread: dict[tuple, Counter] = defaultdict(Counter)
    for pk, event_id, seats in EventTable.objects.filter(in_play=True).values_list(
        "pk", "event_id", "seats"
    ):
        if players.get(pk):
            row = spread[(event_id, players[pk])]
            row["tables"] += 1
            row["seats"] += seats
    return {key: (row["tables"], row["seats"]) for key, row in spread.items()}


def _cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _field_counts() -> dict[tuple, tuple]:
    counted: dict[tuple, list[int]] = {}
    for event_id, carried, status, paid in Entry.objects.values_list(
        "event_id", "carried_from_id", "status", "paid"
    ).order_by():
        row = counted.setdefault((event_id,), [0, 0, 0, 0])
        row[0] += 1
        row[1] += carried is not None
        row[2] += status == Entry.Status.ACTIVE
        row[3] += _cents(paid)
    return {key: tuple(row) for key, row in counted.items()}


@dataclass(frozen=True)
class _Counter:
    model: type
    keys: tuple[str, ...]
    values: tuple[str, ...]
    count: Callable[[], dict[tuple, tuple]]

    def stored(self) -> dict[tuple, tuple]:
        rows = self.model.objects.values_list(*self.keys, *self.values).order_by()
        width = len(self.keys)
        return {tuple(row[:width]): tuple(row[width:]) for row in rows}

    def differences(self) -> list[Difference]:
        stored, counted = self.stored(), self.count()
        zero = (0,) * len(self.values)
        label = self.model._meta.label
        return [
            Difference(label, key, stored.get(key, zero), counted.get(key, zero))
            for key in sorted(stored.keys() | counted.keys())
            if stored.get(key, zero) != counted.get(key, zero)
        ]

    def fix(self, differences: list[Difference]) -> None:
        for difference in differences:
            where = dict(zip(self.keys, difference.key, strict=True))
            values = dict(zip(self.values, difference.counted, strict=True))
            self.model.objects.update_or_create(**where, defaults=values)


# In this order: a head count written by `fix` moves its table in the spread counts (their
# triggers), so those are compared after it.
COUNTERS = (
    _Counter(TableCount, ("table_id",), ("players",), _table_counts),
    _Counter(SpreadCount, ("event_id", "players"), ("tables", "seats"), _spread_counts),
    _Counter(
        FieldCount, ("event_id",), ("entries", "carried", "active", "paid_cents"), _field_counts
    ),
)
# The tables whose writes would change a count while it is compared and fixed.
_WRITTEN = ("seating_entry", "seating_eventtable", "seating_tablecount", "seating_spreadcount",
            "results_fieldcount")  # fmt: skip


def counters_check(*, fix: bool = False) -> list[Difference]:
    """Every counter that differs from the rows it counts (as it was before `fix` wrote
    the counted values in its place). Read in one transaction: on PostgreSQL one snapshot
    of the whole database, or, to fix, with every write to these tables waiting until it
    is done (SQLite's transaction holds its one write lock from the start)."""
    found: list[Difference] = []
    outermost = not connection.in_atomic_block  # else the caller's transaction reads it
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                if fix:
                    cursor.execute(f"LOCK TABLE {', '.join(_WRITTEN)} IN EXCLUSIVE MODE")
                else:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        for counter in COUNTERS:
            differences = counter.differences()
            found += differences
            if fix:
                counter.fix(differences)
    return found
