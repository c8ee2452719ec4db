"""Read models for screens, the console and the API: the clock as every screen shows it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext, pgettext

from tdsystem.core import screencache
from tdsystem.core.models import LogEntry, ScreenVersion
from tdsystem.core.moments import moment_stored
from tdsystem.core.servertime import from_database
from tdsystem.core.sql import fetch_all, fetch_one, sql_names
from tdsystem.core.templatetags.humanize_td import shipped
from tdsystem.engine import clock as clockrules
from tdsystem.engine.schedule import level_values
from tdsystem.structures.models import LEVEL_FIELDS, Level

from . import hooks
from .entry_notices import entry_notices
from .models import Clock, Event

T = TypeVar("T")


@dataclass(frozen=True)
class Segment:
    """One row of the schedule: a level (with its printed values) or a break."""

    index: int
    number: int | None  # level number; None for a break
    is_break: bool
    duration_seconds: int
    note: str
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    assumption: str = ""


@lru_cache(maxsize=8192)
def _level_values(**kwargs):
    """The engine replays a full table per level: same inputs, same figures, so keep them."""
    return level_values(**kwargs)


def schedule(event: Event, levels: list[Level] | None = None) -> list[Segment]:
    """Every level with the engine's printed-schedule values; nothing else computes them."""
    if levels is None:
        levels = list(
            Level.objects.filter(structure_id=event.structure_id)
            .order_by("position")
            .only(*LEVEL_FIELDS)
        )
    rows: list[Segment] = []
    number = 0
    for index, lv in enumerate(levels):
        if lv.is_break:
            rows.append(Segment(index, None, True, lv.duration_seconds, shipped(lv.note)))
            continue
        number += 1
        bets = (lv.small_bet, lv.big_bet) if lv.small_bet and lv.big_bet else None
        values = _level_values(
            structure=event.betting,
            small_blind=lv.small_blind,
            big_blind=lv.big_blind,
            ante=lv.ante,
            ante_type=event.ante_type,
            bets=bets,
            table_size=event.seats_per_table,
            pot_limit_preflop=event.pot_limit_preflop,
        )
        rows.append(
            Segment(
                index,
                number,
                False,
                lv.duration_seconds,
                shipped(lv.note),
                lv.small_blind,
                lv.big_blind,
                lv.ante,
                lv.small_bet,
                lv.big_bet,
                values.min_raise_to,
                values.max_raise_to,
                assumption(event, lv.ante),
            )
        )
    return rows


def assumption(event: Event, ante: int) -> str:
    """What the printed minimum (and pot-limit maximum) raise assumes, in the reader's
    language: "first to act preflop, 9 players, every player antes 25" (the engine's
    `LevelValues.assumption` says the same in English for its command line)."""
    players = event.seats_per_table
    words = [
        ngettext(
            "first to act preflop, %(players)s player",
            "first to act preflop, %(players)s players",
            players,
        )
        % {"players": players}
    ]
    if not ante:
        words.append(gettext("no ante"))
    elif event.ante_type == "each":
        words.append(gettext("every player antes %(ante)s") % {"ante": ante})
    elif event.ante_type == "button":
        words.append(gettext("the button antes %(ante)s for the table") % {"ante": ante})
    else:
        words.append(gettext("the big blind antes %(ante)s for the table") % {"ante": ante})
    if event.betting == "pot-limit":
        words.append(
            gettext("small blind counted as called")
            if event.pot_limit_preflop == "assumed-call"
            else gettext("true pot")
        )
    return pgettext("list separator", ", ").join(words)


def field_figures(event: Event) -> dict:
    """The clock's field figures. An event played in flights (docs/festivals.md) shows the
    whole event's entries and prize pool (its Day 2 entries carried from a flight are not
    entries again); a flight shows its own entries and players, the whole event's pool,
    and the whole event's entries under `whole_event`. From what results keeps counted
    (`hooks.field_counts`): one statement whatever the field."""
    field = hooks.field_counts(event.pk, event.parent_id or event.pk)
    left, chips, pool = field.players_left, field.chips, field.pool
    if event.has_bounties:
        # One head per entry is bounty money, not the places' (as results' field_read).
        pool = max(pool - Decimal(event.bounty_amount) * field.whole_entries, Decimal(0))
    figures = {
        "entries": field.whole_entries if event.parent_id is None else field.entries,
        "players_left": left,
        "chips_in_play": chips,
        "average_stack": chips // left if left else None,
        "prize_pool": str(pool),
    }
    if event.parent_id is not None:
        figures["whole_event"] = {"flight": event.flight, "entries": field.whole_entries}
    return figures


def screen_extras(event: Event) -> dict:
    """The cached part of the clock JSON: the field figures, and what the apps built on
    events show beside the clock (move slips, payouts, chip leader: `hooks.screen_panel`)."""
    figures = field_figures(event)
    return {**figures, **hooks.screen_panel(event, figures)}


def _values(seg: Segment | None) -> dict | None:
    if seg is None:
        return None
    return {
        "level": seg.number,
        "small_blind": seg.small_blind,
        "big_blind": seg.big_blind,
        "ante": seg.ante,
        "small_bet": seg.small_bet,
        "big_bet": seg.big_bet,
        "min_raise_to": seg.min_raise_to,
        "max_raise_to": seg.max_raise_to,
        "duration_seconds": seg.duration_seconds,
    }


def _next_level(rows: list[Segment], index: int) -> Segment | None:
    return next((s for s in rows[index + 1 :] if not s.is_break), None)


@dataclass(frozen=True)
class Shape:
    """What the clock reads of every row on each answer, kept with the cached schedule."""

    durations: tuple[int, ...]
    is_level: tuple[bool, ...]
    # late_registration_end_level -> the engine's late_registration_end, filled on use
    late_registration_end: dict[int, int | None] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, rows: list[Segment]) -> Shape:
        return cls(tuple(s.duration_seconds for s in rows), tuple(not s.is_break for s in rows))

    def late_end(self, last: int) -> int | None:
        if last not in self.late_registration_end:
            self.late_registration_end[last] = clockrules.late_registration_end(self.is_level, last)
        return self.late_registration_end[last]


def clock_payload(
    event: Event,
    stored: clockrules.ClockState,
    now: datetime,
    rows: list[Segment],
    extra: dict | None = None,
    shape: Shape | None = None,
    *,
    entries_closed: dict | None = None,
) -> dict:
    """The clock as screens and the API show it, computed from stored timestamps and now.

    `entries_closed` (else `extra`'s, the apps' panel) is why the field takes no entry nor
    re-entry whatever the level (`{"code", "text"}`: the money, heads-up, the last hands):
    late registration then reads closed and neither notice is shown."""
    if extra is None:
        extra = screen_extras(event)
    closed = entries_closed if entries_closed is not None else extra.get("entries_closed")
    shape = shape or Shape.of(rows)
    # Show what is true now even if no worker has applied an overdue level change yet.
    state, _ = clockrules.settle(stored, shape.durations, now)
    index = min(state.level_index, len(rows) - 1)
    current = rows[index]
    on_break = current.is_break
    shown = _next_level(rows, index) if on_break else current
    upcoming = _next_level(rows, index)
    left_ms = clockrules.remaining_ms(state, now)
    to_next_break = _ms_to_next_break(rows, index, left_ms)
    # ms_to_break (older screens and scripts read it): 0 while a break is being played.
    to_break = 0 if on_break else to_next_break
    next_break = next((s for s in rows[index + 1 :] if s.is_break), None)
    late = _late_registration(event, rows, index, state.status, left_ms, shape)
    notices = entry_notices(
        event, shape.is_level, index, state.status, late["ms_to_late_registration_end"]
    )
    if closed:
        late = {"late_registration_open": False, "ms_to_late_registration_end": None}
        notices = [n for n in notices if n["code"] not in ("late-registration", "reentries")]
    ends_at = state.ends_at if state.status == clockrules.RUNNING else None
    values = _values(shown) or {}
    return {
        "event": {
            "id": event.pk,
            "name": event.name,
            "status": event.status,
            "betting": event.betting,
            "game": event.game,
        },
        "status": state.status,
        "version": state.version,
        "level_index": index,
        "level": values.get("level"),
        "on_break": on_break,
        "break_note": current.note if on_break else None,
        "small_blind": values.get("small_blind"),
        "big_blind": values.get("big_blind"),
        "ante": values.get("ante"),
        "ante_type": event.ante_type,
        "small_bet": values.get("small_bet"),
        "big_bet": values.get("big_bet"),
        "min_raise_to": values.get("min_raise_to"),
        "max_raise_to": values.get("max_raise_to") if event.betting == "pot-limit" else None,
        "schedule_assumption": shown.assumption if shown else "",
        "duration_ms": current.duration_seconds * 1000,
        "remaining_ms": left_ms,
        "level_ends_at": ends_at.isoformat() if ends_at else None,
        "server_time": now.isoformat(),
        "next": _values(upcoming),
        "next_break": (
            {"duration_seconds": next_break.duration_seconds, "note": next_break.note}
            if next_break
            else None
        ),
        "ms_to_break": to_break,
        "ms_to_next_break": to_next_break,
        "late_registration_level": event.late_registration_end_level,
        **late,
        "entry_notices": notices,
        **extra,
    }


def _ms_to_next_break(rows: list[Segment], index: int, left_ms: int) -> int | None:
    """From now to the start of the first break after the current segment (None: no break).

    During a break this is the break after it, not the one being played out now.
    """
    total = left_ms
    for seg in rows[index + 1 :]:
        if seg.is_break:
            return total
        total += seg.duration_seconds * 1000
    return None


def _late_registration(
    event: Event, rows: list[Segment], index: int, status: str, left_ms: int, shape: Shape
) -> dict:
    """When late registration closes: at the end of level `late_registration_end_level`
    (the engine's `late_registration_end`, as registration itself uses): 0 means no late
    registration (entries until the clock starts); a level past the schedule never closes.
    """
    last = event.late_registration_end_level
    started = status != clockrules.NOT_STARTED
    if status == clockrules.FINISHED:
        return {"late_registration_open": False, "ms_to_late_registration_end": None}
    if last == 0:
        return {"late_registration_open": not started, "ms_to_late_registration_end": None}
    end = shape.late_end(last)
    if end is None:
        return {"late_registration_open": True, "ms_to_late_registration_end": None}
    if index > end:
        return {"late_registration_open": False, "ms_to_late_registration_end": 0}
    total = left_ms + sum(s.duration_seconds * 1000 for s in rows[index + 1 : end + 1])
    return {"late_registration_open": True, "ms_to_late_registration_end": total}


def screen_cached(
    key: tuple, compute: Callable[[], T], *, event: int | None, trailing: bool = False
) -> T:
    """What hundreds of screens and phones ask for every second (the seat list of a field
    of thousands), computed once for every web process and machine at most once per
    SCREEN_CACHE_SECONDS, and read afresh after every change to `event` (None: to any
    event): `core.screencache`. A `trailing` answer (a list too long to make again after
    each of a busy minute's changes) may trail a change by up to SCREEN_CACHE_SECONDS."""
    seconds = settings.SCREEN_CACHE_SECONDS
    return screencache.screen_cached(
        key, compute, event=event, seconds=seconds, trail=seconds if trailing else 0.0
    )


def screens_family(event_id: int) -> list[int]:
    """The events whose screens show this one's figures: itself, its main event and the
    main event's flights (a flight shows the whole event's pool and entries). One small
    query without the ORM's compiling: it runs on the commit of every change of an event
    (`core.screencache.changed`), a bust-out's included."""
    return [row[0] for row in fetch_all(_family_sql(connection.vendor), [event_id] * 4)]


@lru_cache(maxsize=4)
def _family_sql(vendor: str) -> str:
    table, c = sql_names(Event)
    parent = f"(SELECT {c['parent']} FROM {table} WHERE {c['pk']} = %s)"
    return (
        f"SELECT {c['pk']} FROM {table} WHERE {c['pk']} = %s OR {c['parent']} = %s "
        f"OR {c['pk']} = {parent} OR {c['parent']} = {parent}"
    )


# The columns clock_read reads, in ClockState's order.
_CLOCK_FIELDS = ("status", "level_index", "ends_at", "remaining_ms", "version")


@lru_cache(maxsize=4)
def _clock_sql(vendor: str, timed: bool) -> str:
    """On PostgreSQL the query reads the server's clock too (`core.servertime`), in the
    same round trip; and always the changes of the event and its family (ScreenVersion),
    the count its screens' cached parts are kept under. Its parameters: the event's id,
    five times."""
    table, columns = sql_names(Clock)
    counts, c = sql_names(ScreenVersion)
    changes = (
        f"(SELECT COALESCE(SUM({c['changes']}), 0) FROM {counts} "
        f"WHERE {c['event_id']} IN ({_family_sql(vendor)}))"
    )
    return "SELECT {}{}, {} FROM {} WHERE {} = %s".format(
        ", ".join(columns[name] for name in _CLOCK_FIELDS),
        ", clock_timestamp()" if timed else "",
        changes,
        table,
        columns["pk"],
    )


def clock_read(event_id: int) -> clockrules.ClockState | None:
    """The clock's stored state, fresh: one small query without the ORM's compiling.

    Hundreds of screens ask every second, and building the query through the ORM costs
    several times the query itself (docs/load-and-faults.md). The answer is the engine's
    frozen ClockState, a value: not a model with fields missing that a `.save()` would
    write over.
    """
    return clock_read_at(event_id)[0]


def clock_read_at(event_id: int) -> tuple[clockrules.ClockState | None, datetime]:
    """`clock_read` and the installation's time of the read (`core.servertime`): on
    PostgreSQL the server's clock read by the same query, so a screen's poll costs no
    second round trip for it."""
    clock, now, _changes = clock_read_counted(event_id)
    return clock, now


def clock_read_counted(event_id: int) -> tuple[clockrules.ClockState | None, datetime, int]:
    """`clock_read_at` and the changes of the event's family read with it (ScreenVersion):
    the count a poll asks the screens' cache's entries of."""
    # Without a clock there is nothing to time: no query for the server's.
    if not -(2**63) <= event_id < 2**63:
        return None, timezone.now(), 0  # no such row, and SQLite's driver would refuse it
    timed = from_database()
    row = fetch_one(_clock_sql(connection.vendor, timed), [event_id] * 5)
    if row is None:
        return None, timezone.now(), 0
    values = list(row)
    changes = values.pop()
    now = values.pop() if timed else timezone.now()
    status, level_index, ends_at, remaining_ms, version = values
    if isinstance(ends_at, str):
        ends_at = Clock._meta.get_field("ends_at").to_python(ends_at)
    if ends_at is not None and settings.USE_TZ and timezone.is_naive(ends_at):
        ends_at = timezone.make_aware(ends_at, connection.timezone)  # SQLite: stored as UTC
    # Read by the driver alone, without the backend's converters: kept within range here.
    ends_at = moment_stored(ends_at)
    state = clockrules.ClockState(status, level_index, ends_at, remaining_ms, version)
    return state, now, int(changes)


def _read_now(
    event_id: int, now: datetime | None
) -> tuple[clockrules.ClockState | None, datetime, int | None]:
    """The clock read fresh with the event's changes, and `now` unless given: the
    installation's time of the read. With `now` given, nothing is read (None, now, None)."""
    if now is not None:
        return None, now, None
    clock, now, changes = clock_read_counted(event_id)
    if clock is None:
        raise Event.DoesNotExist(f"no event {event_id}")
    return clock, now, changes


def event_clock_payload(event_id: int, now: datetime | None = None) -> dict:
    """Raises Event.DoesNotExist for an unknown event. `now` is the installation's time
    (`core.servertime`) unless given.

    The clock row is read on every call; the event's own fields and the field figures are
    the screens' cache's (`screen_cached`).
    """
    clock, now, changes = _read_now(event_id, now)
    event, clock, rows, shape, extra = _clock_parts(event_id, clock, changes=changes)
    return clock_payload(event, clock, now, rows, extra, shape)


def written_clock_payload(clock: Clock, now: datetime) -> dict:
    """The clock JSON of a clock row a change just wrote (`services.clock_action`'s), with
    its event as that change left it, not read again: built in the change's transaction,
    the answer says what the change did, whatever another change does right after it."""
    stored = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    event, _stored, rows, shape, extra = _clock_parts(clock.pk, stored, clock.event)
    return clock_payload(event, stored, now, rows, extra, shape)


def event_clock_json(event_id: int, now: datetime | None, encode: Callable[[dict], str]) -> str:
    """``encode(event_clock_payload(event_id, now))``, the same text, with the cached part
    (the field figures and the apps' panels, most of the answer in a big field) encoded
    once for all the answers it is cached for, not on every poll of every screen. Raises
    Event.DoesNotExist for an unknown event."""
    return event_clock_json_tagged(event_id, now, encode)[0]


# What a clock JSON says about the moment it was read rather than about the clock: the
# server's time always, and while the clock runs the times left counted from it (a screen
# counts them down itself from `level_ends_at`, which stays put).
_MOMENT = ("server_time",)
_COUNTDOWN = (
    "server_time",
    "remaining_ms",
    "ms_to_break",
    "ms_to_next_break",
    "ms_to_late_registration_end",
)


def event_clock_json_tagged(
    event_id: int, now: datetime | None, encode: Callable[[dict], str]
) -> tuple[str, str, datetime]:
    """The clock JSON (event_clock_json), its tag and the moment it was read: the same tag
    for two answers that differ only in the moment they were read, so a screen that has the
    answer already is told "not modified" (ETag and If-None-Match, api/events.py) instead
    of sent it again."""
    clock, now, changes = _read_now(event_id, now)
    event, clock, rows, shape, encoded = _clock_parts(
        event_id, clock, encode=encode, changes=changes
    )
    payload = clock_payload(
        event, clock, now, rows, {}, shape, entries_closed=encoded.entries_closed
    )
    if not encoded.keys or not payload.keys().isdisjoint(encoded.keys):
        merged = {**payload, **screen_extras(event)}  # a key of both is where the clock put it
        return encode(merged), _tag(merged, ""), now
    # The two objects' members, one after the other: what encoding them merged gives (the
    # encoder's item separator is ", ").
    tail = encoded.tail
    digest = encoded.digest or _digest(tail)  # an entry of an earlier release has none
    return f"{encode(payload)[:-1]}, {tail[1:]}", _tag(payload, digest), now


def _tag(payload: dict, digest: str) -> str:
    """The answer's tag: the clock's part that does not change with the moment, and the
    cached part's digest, made once with it rather than hashing its thousands of
    characters on every poll."""
    # repr, not the JSON encoder: the values are plain data (numbers, text, Decimal, lists
    # and dicts in a fixed order), and repr is a third of the encoder's cost.
    moment = _COUNTDOWN if payload["status"] == clockrules.RUNNING else _MOMENT
    steady = repr([(k, v) for k, v in payload.items() if k not in moment])
    return hashlib.blake2b(f"{steady}{digest}".encode(), digest_size=12).hexdigest()


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _clock_parts(
    event_id: int,
    clock: clockrules.ClockState | None = None,
    event: Event | None = None,
    encode: Callable[[dict], str] | None = None,
    changes: int | None = None,
) -> tuple[Event, clockrules.ClockState, list, Shape, Any]:
    """The clock (read fresh unless given), the event (the screens' cache's unless given),
    the schedule and the cached part of the answer: with `encode`, that part encoded.

    The three cached parts are asked of the screens' cache at once: at the event's
    `changes` read with the clock (a poll: the clock's query and one ask of the cache),
    else at the cache's version of the event.
    """
    ttl = settings.SCREEN_CACHE_SECONDS
    clock = clock or clock_read(event_id)
    if clock is None:
        raise Event.DoesNotExist(f"no event {event_id}")
    if changes is None:
        cached = screencache.scope(event_id)
    else:
        cached = screencache.scope_counted(event_id, changes)
    # The rows say what the minimum raise assumes, and the apps' panels (move slips,
    # notices) are worded, in the reader's language: an entry for each language the room's
    # screens read. The clock's version moves with every edit of the levels
    # (`services/levels.py`): a cached schedule is never shown after its levels changed.
    language = get_language()
    keys = {
        "event": ("event",),
        "schedule": ("schedule", clock.version, language),
        "extra": ("field-json" if encode else "field", language),
    }
    found = cached.peek({keys["event"]: ttl, keys["schedule"]: ttl * 10, keys["extra"]: ttl})
    if event is None:
        event = found.get(keys["event"])
    if event is None:
        event = cached.get(keys["event"], lambda: Event.objects.get(pk=event_id), ttl)
    rows, shape = found.get(keys["schedule"]) or cached.get(
        keys["schedule"], lambda: _schedule_shaped(event), ttl * 10
    )
    extra = found.get(keys["extra"])
    if extra is None:
        if encode:
            extra = cached.get(keys["extra"], lambda: _extras_encoded(event, encode), ttl)
        else:
            extra = cached.get(keys["extra"], lambda: screen_extras(event), ttl)
    return event, clock, rows, shape, extra


class _Encoded(NamedTuple):
    """The cached part of the clock JSON as the poll needs it: encoded once for every
    answer it is cached for, with what the clock's own part reads of it."""

    entries_closed: dict | None
    keys: frozenset[str]
    tail: str
    digest: str = ""  # of `tail`, for the answer's tag


def _extras_encoded(event: Event, encode: Callable[[dict], str]) -> _Encoded:
    extra = screen_extras(event)
    tail = encode(extra)
    return _Encoded(extra.get("entries_closed"), frozenset(extra), tail, _digest(tail))


def _schedule_shaped(event: Event) -> tuple[list[Segment], Shape]:
    rows = schedule(event)
    return rows, Shape.of(rows)


# The clock's log entries that put a level in play, and the level each put there.
_LEVEL_STARTS = ("clock.start", "clock.next", "clock.previous", "clock.level")


def level_starts(event: Event) -> dict[int, datetime]:
    """When each level and break the clock has played began, from the clock's log (an
    undone action does not count): the first time it came into play."""
    started: dict[int, datetime] = {}
    entries = (
        LogEntry.objects.filter(event=event, action__in=_LEVEL_STARTS, undone_at__isnull=True)
        .order_by("at", "pk")
        .values_list("action", "at", "data")
    )
    for action, at, data in entries:
        before = (data or {}).get("before") or {}
        if action == "clock.level":
            index = (data or {}).get("to")
        elif action == "clock.start":
            index = before.get("level")
        elif isinstance(before.get("level"), int):
            index = before["level"] + (1 if action == "clock.next" else -1)
        else:
            index = None
        if isinstance(index, int) and index >= 0:
            started.setdefault(index, at)
    return started


def projected_starts(event: Event, clock: Clock, rows: list[Segment], now: datetime) -> list:
    """When each segment starts: projected from the clock for the level in play and those
    to come, as the log says for those played (None where neither says). A finished
    event's are all the log's: nothing moves once it is over."""
    if clock.status == Clock.Status.FINISHED:
        played = level_starts(event)
        return [played.get(seg.index) for seg in rows]
    if clock.status == Clock.Status.NOT_STARTED:
        if not event.scheduled_start:
            return [None] * len(rows)
        start = event.scheduled_start
        out = []
        for seg in rows:
            out.append(start)
            start = start + timedelta(seconds=seg.duration_seconds)
        return out
    state = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    state, _ = clockrules.settle(state, [s.duration_seconds for s in rows], now)
    played = level_starts(event)
    out: list = [played.get(seg.index) for seg in rows[: state.level_index]]
    out += [None] * (len(rows) - len(out))
    end = now + timedelta(milliseconds=clockrules.remaining_ms(state, now))
    out[state.level_index] = end - timedelta(seconds=rows[state.level_index].duration_seconds)
    for seg in rows[state.level_index + 1 :]:
        out[seg.index] = end
        end = end + timedelta(seconds=seg.duration_seconds)
    return out


def events_listing() -> list[dict]:
    """Every event, archived ones last: a screen set up for an old event keeps finding it."""
    order = {"running": 0, "paused": 1, "planned": 2, "finished": 3}
    events = list(Event.objects.values("id", "name", "status", "created_at", "archived_at"))
    events.sort(
        key=lambda e: (
            e["archived_at"] is not None,
            order.get(e["status"], 9),
            -e["created_at"].timestamp(),
        )
    )
    return [
        {
            "id": e["id"],
            "name": e["name"],
            "status": e["status"],
            "archived": e["archived_at"] is not None,
        }
        for e in events
    ]
