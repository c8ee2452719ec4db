"""Named locks: the first thing every change to an event takes, in one fixed order.

A change names what it is about to change (`locks_take(event=12)`, `locks_take(
venue_tables=[3, 4], event=12)`) inside `transaction.atomic()`, then reads the rows it
needs: read after the lock, they are never stale. A change to an event starts with
`event_lock`, the one way every app (events, seating, results, venue) takes it: the named
lock, then the event's row, read and locked after it. The locks are always taken in this
order, whatever order the caller names them in, so two changes cannot wait on each other:

    1. the venue's tables, by number (they span events: two events setting up one table)
    2. an event, by id (its seating, results, hand-for-hand, life)
    3. an event's clock, by the event's id

A change already holding a lock may take one later in the order (a bust-out holding the
event pauses its clock), never one earlier: that would invert the order for a moment and
can deadlock, so it is refused with LockOrderError, a programming error.

On PostgreSQL these are transaction-level advisory locks, let go at commit or rollback,
so nothing needs a row to exist (a table number nobody used yet) and core knows no
model. Waiting is bounded by LOCK_TIMEOUT_SECONDS (`SET LOCAL lock_timeout`, for the rest
of the transaction): past it the change raises Busy and the transaction, rolled back,
changes nothing. SQLite takes its one write lock at BEGIN (transaction_mode IMMEDIATE),
which already serialises writers, so only the order is checked there.

The rows a change reads to write (the event's, its entries, tables, clock...) are locked
`FOR NO KEY UPDATE` (`select_for_update(no_key=True)`), never `FOR UPDATE`: no change
rewrites a key, and a row made meanwhile by a request that takes no lock (a player's link
to an entry, made when the floor opens the entry) checks its references at its commit
with `FOR KEY SHARE`, which `FOR UPDATE` would block. A bust-out holding the event's row
and waiting for the entry's, and that link holding the entry's and waiting for the
event's, was a deadlock PostgreSQL broke by failing the bust-out.

After pretix's `pretix/base/services/locking.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import TypeVar

from django.conf import settings
from django.db import DatabaseError, models, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import screencache
from .models import ScreenVersion
from .sql import sql_names

Row = TypeVar("Row", bound=models.Model)

ORDER = ("venue_table", "event", "clock")

# The first key of the two-key advisory lock: one per name, away from small numbers other
# software sharing the database might use.
_CLASS_BASE = 0x54440000
_INT4 = 2**31
# SQLSTATEs of a lock not granted in time and of a deadlock the server broke.
LOCK_NOT_AVAILABLE, DEADLOCK_DETECTED = "55P03", "40P01"

BUSY_MESSAGE = _("Someone else is changing this event right now: try again in a moment.")


class Busy(Exception):
    """The locks were not granted within LOCK_TIMEOUT_SECONDS: nothing changed."""

    def __init__(self, message: str | None = None):
        self.message = str(message or BUSY_MESSAGE)
        super().__init__(self.message)


class LockOrderError(RuntimeError):
    """A lock asked for after one later in ORDER, in the same transaction."""


def lock_timed_out(exc: BaseException) -> bool:
    """True for the database's "lock not granted in time" (or "deadlock broken") error."""
    if isinstance(exc, Busy):
        return True
    if not isinstance(exc, DatabaseError):
        return False
    sqlstate = getattr(exc.__cause__, "sqlstate", None)
    return sqlstate in (LOCK_NOT_AVAILABLE, DEADLOCK_DETECTED)


def _key(name: str, value: int) -> tuple[int, int]:
    # The second key is an int4: ids past it fold, which can only make two locks one.
    return ORDER.index(name), int(value) % _INT4


def locks_take(
    *,
    venue_tables: Iterable[int] = (),
    event: int | None = None,
    clock: int | None = None,
    using: str | None = None,
) -> None:
    """Take the named locks, in ORDER, until the end of the current transaction.

    Raises Busy when they are not granted within LOCK_TIMEOUT_SECONDS, LockOrderError
    when the transaction already holds a lock later in ORDER than one asked for here.
    """
    keys = {_key("venue_table", number) for number in venue_tables}
    if event is not None:
        keys.add(_key("event", event))
    if clock is not None:
        keys.add(_key("clock", clock))
    if not keys:
        return
    connection = transaction.get_connection(using)
    if not connection.in_atomic_block:
        raise RuntimeError("locks_take() needs transaction.atomic(): the locks last until commit")
    wanted = sorted(keys)
    new = _check_order(connection, wanted)
    # What screens show of these events changes with this transaction: their cached answers
    # are read afresh once it commits (core/screencache.py). Once per event a transaction.
    named = (("event", event), ("clock", clock))
    events = {int(v) for name, v in named if v is not None and _key(name, v) in new}
    # The count of changes is written under the event's own lock only: a clock's lock
    # alone may be taken while another change holds the event's (and its count's row).
    counted = {int(event)} if event is not None and _key("event", event) in new else set()
    if events:
        # robust: the change is committed whatever happens to this (logged, not raised).
        transaction.on_commit(
            partial(screencache.changed, *sorted(events)), using=using, robust=True
        )
    if connection.vendor != "postgresql":
        _count_changes(connection, counted)
        return
    timeout_ms = max(1, int(settings.LOCK_TIMEOUT_SECONDS * 1000))
    # One round trip; the select list is evaluated left to right, so in ORDER.
    calls = ", ".join(["pg_advisory_xact_lock(%s, %s)"] * len(wanted))
    params: list[object] = [f"{timeout_ms}ms"]
    for rank, value in wanted:
        params += [_CLASS_BASE + rank, value]
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT set_config('lock_timeout', %s, true), {calls}", params)
    except DatabaseError as exc:
        if lock_timed_out(exc):
            raise Busy() from exc
        raise
    _count_changes(connection, counted)


def _count_changes(connection, events: set[int]) -> None:
    """One more change of each event, in this transaction, after its lock: the count the
    screens' polls read with the clock (`ScreenVersion`). Each row is only written under
    its event's own lock, so this waits for nobody. (Every change of a clock takes its
    event's lock too: `events.services.clock`.)"""
    if not events:
        return
    table, c = sql_names(ScreenVersion)
    key, changes = c["event_id"], c["changes"]
    rows = ", ".join(["(%s, 1)"] * len(events))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({key}, {changes}) VALUES {rows} "
            f"ON CONFLICT ({key}) DO UPDATE SET {changes} = {table}.{changes} + 1",
            sorted(events),
        )


def event_lock(
    events: models.QuerySet[Row] | models.Manager[Row],
    event_id: int,
    *,
    error: Callable[[str], Exception],
    venue_tables: Iterable[int] = (),
) -> Row:
    """The first lock of every change to an event, then the event's row read after it.

    Takes the event's named lock (after the venue's tables of these numbers, to set
    tables up), then reads the event
    from `events` (the Event manager, or a queryset of it with what the change reads
    alongside) and locks its row as well. Core knows no model: the caller names the rows,
    and the error its own callers expect (`error(message)`) when the event is gone.
    Busy when another change holds a lock past LOCK_TIMEOUT_SECONDS.
    """
    locks_take(venue_tables=venue_tables, event=event_id)
    event = events.select_for_update(of=("self",), no_key=True).filter(pk=event_id).first()
    if event is None:
        raise error(gettext("There is no event %(id)s.") % {"id": event_id})
    return event


def _check_order(connection, wanted: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """Refuse a lock earlier in ORDER than one this transaction already holds; the locks
    of `wanted` it did not hold yet.

    The held locks are remembered per atomic block still open, so the services a test
    runs one after another inside its own transaction each count as their own change.
    """
    open_blocks = connection.atomic_blocks
    held: list = [
        (block, keys)
        for block, keys in getattr(connection, "_tdsystem_locks", [])
        if any(block is b for b in open_blocks)
    ]
    holding = {key for _block, keys in held for key in keys}
    if holding:
        highest = max(holding)
        early = [key for key in wanted if key < highest and key not in holding]
        if early:
            names = ", ".join(f"{ORDER[rank]} {value}" for rank, value in early)
            raise LockOrderError(
                f"{names} asked for while holding {ORDER[highest[0]]} {highest[1]}: "
                f"take every lock at once, in the order {', '.join(ORDER)}"
            )
    held.append((open_blocks[-1], frozenset(wanted)))
    connection._tdsystem_locks = held
    return set(wanted) - holding
