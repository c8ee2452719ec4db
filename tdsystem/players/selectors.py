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
from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import Decimal

from django.conf import settings
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
    row = (
        Move.objects.filter(entry_id=entry_id, acknowledged_at__isnull=True, player_there_at=None)
        .order_by("-created_at", "-id")
        .values_list("pk", "to_table", "to_seat", "from_table", "from_seat", "created_at", "reason")
        .first()
    )
    return MoveShown(*row) if row else None


def _breaking_next(entry: Entry) -> bool:
    """The entry's table is the first of the break order with a player, and not the last."""
    if entry.table_id is None or entry.status != Entry.Status.ACTIVE:
        return False
    first_two = list(
        EventTable.objects.filter(
            event_id=entry.event_id, in_play=True, entries__status=Entry.Status.ACTIVE
        )
        .order_by("break_rank", "-number")
        .values_list("pk", flat=True)
        .distinct()[:2]
    )
    return len(first_two) == 2 and first_two[0] == entry.table_id


def _day2(entry: Entry) -> Day2Seat | None:
    if entry.status != Entry.Status.CARRIED:
        return None
    row = (
        Entry.objects.filter(carried_from_id=entry.pk)
        .values_list("event_id", "event__name", "number", "table__number", "seat")
        .first()
    )
    return Day2Seat(*row) if row else None


def _reentry_price(event: Event, entry: Entry) -> Decimal | None:
    offer, _why = entry_rules.reentry_offered(event, entry)
    return offer.total if offer is not None else None


def me_state(entry_id: int) -> MeState:
    """The entry's part of the page, read from the database (a handful of small queries;
    `me_state_cached` keeps it)."""
    entry = Entry.objects.select_related("event", "player", "table").get(pk=entry_id)
    event = entry.event
    active = entry.status == Entry.Status.ACTIVE
    finish = (
        Finish.objects.filter(entry_id=entry.pk, undone_at__isnull=True)
        .values_list("place", "place_to", "prize", "paid_at")
        .first()
        if entry.status == Entry.Status.BUSTED
        else None
    )
    count = ChipCount.objects.filter(entry_id=entry.pk).values_list("chips", "counted_at").first()
    return MeState(
        event_id=event.pk,
        event_name=event.name,
        entry_id=entry.pk,
        number=entry.number,
        name=entry.player.name,
        status=entry.status,
        table=entry.table.number if active and entry.table else None,
        seat=entry.seat if active and entry.table else None,
        move=pending_move(entry.pk) if active else None,
        place=finish[0] if finish else None,
        place_to=finish[1] if finish else None,
        prize=finish[2] if finish else None,
        prize_paid=bool(finish and finish[3]),
        chips=count[0] if count and active else None,
        chips_at=count[1] if count and active else None,
        breaking_next=_breaking_next(entry),
        hand_for_hand=active and HandForHand.objects.filter(event=event, active=True).exists(),
        day2=_day2(entry),
        reentry_price=_reentry_price(event, entry) if finish else None,
    )


def me_state_cached(event_id: int, entry_id: int) -> MeState:
    """`me_state`, read afresh after every change to the event (core.screencache)."""
    return screencache.screen_cached(
        ("me", entry_id, get_language()),
        lambda: me_state(entry_id),
        event=event_id,
        seconds=settings.SCREEN_CACHE_SECONDS,
    )


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


def _clock_part(event_id: int) -> tuple[dict, str]:
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
    clock, server_time = _clock_part(state.event_id)
    moment = ("remaining_ms",) if clock["status"] == "running" else ()
    steady = {k: v for k, v in clock.items() if k not in moment}
    digest = hashlib.blake2b(
        repr((get_language(), state, steady)).encode(), digest_size=12
    ).hexdigest()
    return MeAnswer(state, clock, str(server_time), f'"{digest}"')
