"""What a player's own page shows, read once for the page and its JSON (`/api/me/<token>`).

`me_answer(link)` is the one read. It joins two parts:

- the clock's (`events.selectors.event_clock_payload`): the clock row read fresh, the field
  figures and payouts from the screens' cache, as every clock screen of the room reads them;
- the player's (`me_state`): seat, pending move slip, chip count, finish, Day 2 seat... kept
  in the screens' cache per entry and language at the event's version
  (`core.screencache`), so a poll costs a read of the cache until the event changes. Every
  change to an event takes its lock and bumps the version on commit (a bust-out and the
  moves it makes, a chip count, "I'm there"); a change that takes no lock (the floor's
  acknowledgement of a slip) is seen when the entry turns `SCREEN_CACHE_SECONDS` old.

The answer's tag (the ETag) leaves out what only says when it was read (the server's time,
and while the clock runs the time left, which the page counts down itself from
`level_ends_at`), so an unchanged page is answered 304 without a body.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import get_language

from tdsystem.core import screencache
from tdsystem.core.sql import fetch_one, sql_names
from tdsystem.events.models import Event
from tdsystem.events.selectors import event_clock_payload
from tdsystem.results.models import ChipCount, Finish, HandForHand
from tdsystem.seating import entry_rules
from tdsystem.seating.models import Entry, EventTable, Move

from .links import TOKEN_MAX
from .models import PlayerLink

# The payouts a phone shows: the first places (the whole list is the clock screen's).
PAYOUTS_SHOWN = 9
# The clock's members the page uses (the rest is the clock screen's).
CLOCK_KEYS = (
    "status",
    "level",
    "on_break",
    "break_note",
    "small_blind",
    "big_blind",
    "ante",
    "small_bet",
    "big_bet",
    "duration_ms",
    "remaining_ms",
    "level_ends_at",
    "players_left",
    "entries",
    "average_stack",
    "prize_pool",
    "in_the_money",
    "late_registration_open",
    "last_hands",
)


@dataclass(frozen=True)
class MoveShown:
    """The move slip naming the player, until they tap "I'm there" or the floor
    acknowledges it."""

    id: int
    table: int
    seat: int
    from_table: int
    from_seat: int
    at: datetime
    reason: str

    @property
    def reason_label(self) -> str:
        return str(Move.Reason(self.reason).label)


@dataclass(frozen=True)
class Day2Seat:
    """A flight's survivor's entry in the event's Day 2 (its seat once drawn)."""

    event_id: int
    event_name: str
    number: int
    table: int | None
    seat: int | None


@dataclass(frozen=True)
class MeState:
    """The player's own part of the page: only this entry's details."""

    event_id: int
    event_name: str
    entry_id: int
    number: int
    name: str
    status: str
    table: int | None
    seat: int | None
    move: MoveShown | None
    place: int | None
    place_to: int | None
    prize: Decimal | None
    prize_paid: bool
    chips: int | None
    chips_at: datetime | None
    breaking_next: bool
    hand_for_hand: bool
    day2: Day2Seat | None
    reentry_price: Decimal | None  # a re-entry offered now, at this price (fee included)


def pending_move(entry_id: int) -> MoveShown | None:
    """The newest slip moving this entry that neither the player nor the floor has closed."""
    return _pending_moves(Move.objects.filter(entry_id=entry_id)).get(entry_id)


def _pending_moves(moves: QuerySet[Move]) -> dict[int, MoveShown]:
    rows = (
        moves.filter(acknowledged_at__isnull=True, player_there_at=None)
        .order_by("entry_id", "-created_at", "-id")
        .values_list(
            "entry_id", "pk", "to_table", "to_seat", "from_table", "from_seat", "created_at",
            "reason",
        )
    )  # fmt: skip
    found: dict[int, MoveShown] = {}
    for row in rows:
        found.setdefault(row[0], MoveShown(*row[1:]))  # the newest first
    return found


def _breaking_next_table(event_id: int) -> int | None:
    """The table breaking next: the first of the break order with a player, and not the
    last such table."""
    # Each table asked whether it seats anyone (EXISTS on the entry's table index), not
    # every entry joined and the tables made distinct. A seated entry is active (the
    # constraint busted_entry_has_no_seat), so the status is not asked: with it, PostgreSQL
    # could pick the active entries' index and read them all for each table.
    seated = Entry.objects.filter(table_id=OuterRef("pk"))
    first_two = list(
        EventTable.objects.filter(event_id=event_id, in_play=True)
        .filter(Exists(seated))
        .order_by("break_rank", "-number")
        .values_list("pk", flat=True)[:2]
    )
    return first_two[0] if len(first_two) == 2 else None


def _reentry_price(event: Event, entry: Entry) -> Decimal | None:
    offer, _why = entry_rules.reentry_offered(event, entry)
    return offer.total if offer is not None else None


def me_states(
    event_id: int, entry_ids: Collection[int] | None = None, *, reentry: bool = True
) -> dict[int, MeState]:
    """The player's part of the page of every entry of the event (or of `entry_ids` only),
    by entry id: the same few queries whatever the field's size. After a change every open
    page of the event asks again within a second, so one read serves them all
    (`me_state_cached`). The re-entry offer takes the rules' own reads for each player out
    who finished: with `reentry` False it is left out (None), for `me_reentry_price`."""
    event = Event.objects.get(pk=event_id)
    entries = Entry.objects.filter(event_id=event_id)
    of_entries = {"entry__event_id": event_id}
    if entry_ids is not None:
        entries = entries.filter(pk__in=entry_ids)
        of_entries["entry_id__in"] = entry_ids  # type: ignore[assignment]
    rows = list(
        entries.values_list(
            "pk", "number", "player__name", "status", "table_id", "table__number", "seat"
        )
    )
    finishes: dict[int, tuple] = {}
    for row in (
        Finish.objects.filter(undone_at__isnull=True, **of_entries)
        .order_by("entry_id", "pk")
        .values_list("entry_id", "place", "place_to", "prize", "paid_at")
    ):
        finishes.setdefault(row[0], tuple(row[1:]))
    counts = {
        entry_id: (chips, at)
        for entry_id, chips, at in ChipCount.objects.filter(**of_entries).values_list(
            "entry_id", "chips", "counted_at"
        )
    }
    moves = _pending_moves(Move.objects.filter(**of_entries))
    breaking = _breaking_next_table(event_id)
    hand_for_hand = HandForHand.objects.filter(event_id=event_id, active=True).exists()
    day2: dict[int, Day2Seat] = {}
    carried = Entry.objects.filter(carried_from__event_id=event_id)
    if entry_ids is not None:
        carried = carried.filter(carried_from_id__in=entry_ids)
    for later in carried.order_by("carried_from_id", "pk").values_list(
        "carried_from_id", "event_id", "event__name", "number", "table__number", "seat"
    ):
        day2.setdefault(later[0], Day2Seat(*later[1:]))
    offers = {
        entry.pk: _reentry_price(event, entry)
        for entry in entries.filter(status=Entry.Status.BUSTED).select_related("player")
        if reentry and entry.pk in finishes
    }
    states: dict[int, MeState] = {}
    for pk, number, name, status, table_id, table, seat in rows:
        active = status == Entry.Status.ACTIVE
        seated = active and table_id is not None
        finish = finishes.get(pk) if status == Entry.Status.BUSTED else None
        count = counts.get(pk) if active else None
        states[pk] = MeState(
            event_id=event.pk,
            event_name=event.name,
            entry_id=pk,
            number=number,
            name=name,
            status=status,
            table=table if seated else None,
            seat=seat if seated else None,
            move=moves.get(pk) if active else None,
            place=finish[0] if finish else None,
            place_to=finish[1] if finish else None,
            prize=finish[2] if finish else None,
            prize_paid=bool(finish and finish[3]),
            chips=count[0] if count else None,
            chips_at=count[1] if count else None,
            breaking_next=seated and table_id == breaking,
            hand_for_hand=active and hand_for_hand,
            day2=day2.get(pk) if status == Entry.Status.CARRIED else None,
            reentry_price=offers.get(pk) if finish else None,
        )
    return states


def me_state(entry_id: int) -> MeState:
    """One entry's part of the page, read from the database (`me_states` of one)."""
    event_id = Entry.objects.values_list("event_id", flat=True).get(pk=entry_id)
    return me_states(event_id, [entry_id])[entry_id]


def me_reentry_price(entry_id: int) -> Decimal | None:
    """The re-entry offered now to a player out (`me_states`' offer of one entry)."""
    entry = Entry.objects.select_related("event", "player").get(pk=entry_id)
    return _reentry_price(entry.event, entry)


def me_state_cached(event_id: int, entry_id: int) -> MeState:
    """The entry's part, read afresh after every change to the event (core.screencache):
    kept per entry, small to read each second, and made from the event's `me_states`, read
    once a version by each process (its copy), as every open page asks within a second of
    a change. The parts hold no words: one serves every language. A player out's re-entry
    offer is read for that page alone, as it takes a few reads of its own."""
    state = screencache.screen_cached(
        ("me", entry_id),
        lambda: _state_of_event(event_id, entry_id),
        event=event_id,
        seconds=settings.SCREEN_CACHE_SECONDS,
    )
    if state.place is None:
        return state
    price = screencache.screen_cached(
        ("me-reentry", entry_id),
        lambda: me_reentry_price(entry_id),
        event=event_id,
        seconds=settings.SCREEN_CACHE_SECONDS,
    )
    return replace(state, reentry_price=price)


def _state_of_event(event_id: int, entry_id: int) -> MeState:
    states = screencache.screen_cached(
        ("me-all",),
        lambda: me_states(event_id, reentry=False),
        event=event_id,
        seconds=settings.SCREEN_CACHE_SECONDS,
    )
    found = states.get(entry_id)
    # Not of the event's entries: the link's event is the entry's, so only a page asking
    # before the event's read knew the entry.
    return found if found is not None else me_states(event_id, [entry_id], reentry=False)[entry_id]


@dataclass(frozen=True)
class MeAnswer:
    state: MeState
    clock: dict  # CLOCK_KEYS of the clock JSON, the payouts shortened
    server_time: str
    tag: str  # the ETag's value, quoted

    def as_json(self) -> dict:
        """The documented shape of `GET /api/me/<token>` (docs/api.md)."""
        s = self.state
        move = s.move
        return {
            "event": {"id": s.event_id, "name": s.event_name},
            "entry": s.number,
            "player": s.name,
            "status": s.status,
            "table": s.table,
            "seat": s.seat,
            "move": {
                "id": move.id,
                "table": move.table,
                "seat": move.seat,
                "from_table": move.from_table,
                "from_seat": move.from_seat,
                "at": move.at.isoformat(),
                "reason": move.reason,
                "reason_label": move.reason_label,
            }
            if move
            else None,
            "place": s.place,
            "place_to": s.place_to,
            "prize": _amount(s.prize),
            "prize_paid": s.prize_paid,
            "chips": {"count": s.chips, "at": s.chips_at.isoformat()}
            if s.chips is not None and s.chips_at
            else None,
            "breaking_next": s.breaking_next,
            "hand_for_hand": s.hand_for_hand,
            "day2": asdict(s.day2) if s.day2 else None,
            "reentry": {"price": _amount(s.reentry_price)} if s.reentry_price is not None else None,
            "clock": self.clock,
            "server_time": self.server_time,
        }


def _amount(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def clock_part(event_id: int) -> tuple[dict, str]:
    payload = event_clock_payload(event_id)
    clock = {key: payload.get(key) for key in CLOCK_KEYS}
    payouts = payload.get("payouts") or []
    clock["payouts"] = payouts[:PAYOUTS_SHOWN]
    clock["paid_places"] = len(payouts)
    return clock, payload["server_time"]


@dataclass(frozen=True)
class LinkRead:
    """A live link as a poll needs it: whose page, in which event, in which language."""

    pk: int
    event_id: int
    entry_id: int | None
    screen_language: str


def link_read(token: str) -> LinkRead | None:
    """`links.link_by_token` for the page's poll, each second of every open page: one
    statement written out (`core.sql`), plain values. Through the ORM (the link with its
    event, entry and player) the token's read was four fifths of a poll's time, measured
    with the test client (docs/players.md)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    link, k = sql_names(PlayerLink, "k")
    event, e = sql_names(Event, "e")
    row = fetch_one(
        f"SELECT {k['pk']}, {k['event']}, {k['entry']}, {e['screen_language']} "
        f"FROM {link} k JOIN {event} e ON {e['pk']} = {k['event']} "
        f"WHERE {k['token']} = %s AND {k['revoked_at']} IS NULL",
        [token],
    )
    return LinkRead(*row) if row else None


def me_answer(link: PlayerLink | LinkRead) -> MeAnswer:
    """The page's state for a link that follows an entry."""
    assert link.entry_id is not None
    state = me_state_cached(link.event_id, link.entry_id)
    clock, server_time = clock_part(state.event_id)
    moment = ("remaining_ms",) if clock["status"] == "running" else ()
    steady = {k: v for k, v in clock.items() if k not in moment}
    digest = hashlib.blake2b(
        repr((get_language(), state, steady)).encode(), digest_size=12
    ).hexdigest()
    return MeAnswer(state, clock, str(server_time), f'"{digest}"')
