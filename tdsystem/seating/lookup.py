"""The seat lookup page's reads: what a player's phone asks for, as plain values.

After a table break some fifty phones a second ask for this page, each for its own name,
so nothing is shared between two of them to keep: each answer is read fresh. Through the
ORM most of an answer's time went to building and compiling the statements and the model
rows, so the two reads are written out (`core.sql`; the figures are in
docs/load-and-faults.md). The rule is selectors.seat_search's, stated the
same way (search_key contains the query's key; a whole number is an entry number first;
players still in first, then by name as the reader reads it) and
tests/views/test_seat_lookup_reads.py holds the two to the same answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import connection
from django.utils import timezone

from tdsystem.core.moments import moment_stored
from tdsystem.core.sql import fetch_all, sql_names

from .models import Entry, EventTable, Move, Player
from .selectors import SLIP_MINUTES, seat_order, seat_query


@dataclass(frozen=True)
class Found:
    """An entry as the lookup shows it: its player's name and note, its seat if any."""

    pk: int
    number: int
    status: str
    seat: int | None
    name: str
    note: str
    table: int | None


@dataclass(frozen=True)
class Moved:
    """One of the player's recent moves, as the page words it."""

    created_at: datetime
    reason: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int

    @property
    def reason_label(self) -> str:
        return str(Move.Reason(self.reason).label)


def _entries_sql() -> str:
    entry, e = sql_names(Entry, "e")
    player, p = sql_names(Player, "p")
    table, t = sql_names(EventTable, "t")  # the entry's table: its number in the event
    return (
        f"SELECT {e['pk']}, {e['number']}, {e['status']}, {e['seat']}, "
        f"{p['name']}, {p['note']}, {t['number']} "
        f"FROM {entry} e JOIN {player} p ON {p['pk']} = {e['player']} "
        f"LEFT JOIN {table} t ON {t['pk']} = {e['table']} WHERE {e['event']} = %s"
    )


def _found(sql: str, params: list) -> list[Found]:
    return [Found(*row) for row in fetch_all(sql, params)]


def entry_by_number(event_id: int, number: int) -> Found | None:
    _, e = sql_names(Entry, "e")
    found = _found(f"{_entries_sql()} AND {e['number']} = %s", [event_id, number])
    return found[0] if found else None


def seat_search(event_id: int, query: str, limit: int = 20) -> list[Found]:
    """Entries matching a name (any part) or an entry number; players still in first
    (selectors.seat_query's rule and selectors.seat_order's order)."""
    asked = seat_query(query)
    if asked is None:
        return []
    if asked.number is not None:
        exact = entry_by_number(event_id, asked.number)
        if exact:
            return [exact]
    _, e = sql_names(Entry, "e")
    _, p = sql_names(Player, "p")
    like = f"%{connection.ops.prep_for_like_query(asked.key)}%"
    found = _found(
        f"{_entries_sql()} AND {p['search_key']} LIKE %s ESCAPE '\\' "
        f"ORDER BY {e['status']}, {p['search_key']}, {e['number']} LIMIT %s",
        [event_id, like, limit],
    )
    return sorted(found, key=lambda f: seat_order(f.status, f.name, f.number))


def moves_of(entry_id: int, minutes: int = SLIP_MINUTES) -> list[Moved]:
    """The entry's moves of the last minutes, newest first."""
    move, m = sql_names(Move)
    sql = (
        f"SELECT {m['created_at']}, {m['reason']}, {m['from_table']}, {m['from_seat']}, "
        f"{m['to_table']}, {m['to_seat']} FROM {move} "
        f"WHERE {m['entry']} = %s AND {m['created_at']} >= %s "
        f"ORDER BY {m['created_at']} DESC, {m['pk']} DESC"
    )
    since = timezone.now() - timedelta(minutes=minutes)
    rows = fetch_all(sql, [entry_id, since])
    # SQLite's driver gives the stored UTC time without its zone (and without the backend's
    # converters: kept within the range here).
    return [
        Moved(moment_stored(at if timezone.is_aware(at) else at.replace(tzinfo=UTC)), *rest)
        for at, *rest in rows
    ]
