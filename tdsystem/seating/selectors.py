"""Read models for the seating pages, the venue screens and the API.

Each selector costs a fixed number of queries whatever the size of the field. Seats are
shown as the room sees them: a player with a move slip not yet acknowledged is still
walking, so tables count them where they come from until the floor confirms the move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Q, Sum
from django.utils import timezone

from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from .models import Entry, EventTable, Move
from .seatmap import engine_table

SLIP_MINUTES = 5


def seat_list(event_id: int) -> list[dict]:
    """Every active entry with its seat, by player name (the public JSON, the draw screen)."""
    rows = (
        Entry.objects.filter(event_id=event_id, status=Entry.Status.ACTIVE)
        .order_by("player__name", "number")
        .values_list("player__name", "number", "table__number", "seat")
    )
    return [
        {"player": name, "entry": number, "table": table, "seat": seat}
        for name, number, table, seat in rows
    ]


def seat_search(event_id: int, query: str, limit: int = 20) -> list[Entry]:
    """Entries matching a name (any part) or an entry number; players still in come first."""
    query = query.strip().lstrip("#").strip()
    if not query:
        return []
    entries = Entry.objects.filter(event_id=event_id).select_related("player", "table")
    if query.isdigit():
        # A number is an entry number; names rarely hold digits.
        exact = entries.filter(number=int(query)).first()
        if exact:
            return [exact]
    matches = entries.filter(player__name__icontains=query)
    return list(matches.order_by("status", "player__name", "number")[:limit])


def entry_by_number(event_id: int, number: int) -> Entry | None:
    return (
        Entry.objects.filter(event_id=event_id, number=number)
        .select_related("player", "table")
        .first()
    )


def moves_of(entry_ids, minutes: int = SLIP_MINUTES) -> dict[int, list[Move]]:
    """Each entry's moves of the last minutes, newest first."""
    since = timezone.now() - timedelta(minutes=minutes)
    moves: dict[int, list[Move]] = {}
    rows = Move.objects.filter(entry_id__in=list(entry_ids), created_at__gte=since)
    for move in rows.order_by("-created_at", "-id"):
        moves.setdefault(move.entry_id, []).append(move)
    return moves


def recent_moves(event_id: int, minutes: int = SLIP_MINUTES) -> list[dict]:
    """Move slips of the last minutes, newest first, for the clock screen and the API."""
    since = timezone.now() - timedelta(minutes=minutes)
    moves = (
        Move.objects.filter(event_id=event_id, created_at__gte=since)
        .select_related("entry__player")
        .order_by("-created_at", "-id")[:20]
    )
    return [
        {
            "id": m.pk,
            "text": str(m),
            "entry": m.entry.number,
            "player": m.entry.player.name,
            "from_table": m.from_table,
            "from_seat": m.from_seat,
            "to_table": m.to_table,
            "to_seat": m.to_seat,
            "reason": m.reason,
            "dealt_in": m.dealt_in,
            "created_at": m.created_at.isoformat(),
            "acknowledged": m.acknowledged_at is not None,
        }
        for m in moves
    ]


def move_slips(event_id: int, *, table: int | None = None, done_minutes: int = 30) -> list[Move]:
    """Slips for the floor: pending ones first (oldest first), then the recently done."""
    since = timezone.now() - timedelta(minutes=done_minutes)
    moves = Move.objects.filter(event_id=event_id).filter(
        Q(acknowledged_at__isnull=True) | Q(acknowledged_at__gte=since)
    )
    if table is not None:
        moves = moves.filter(Q(from_table=table) | Q(to_table=table))
    moves = moves.select_related("entry__player", "acknowledged_by")
    pending = sorted((m for m in moves if m.acknowledged_at is None), key=lambda m: m.pk)
    done = sorted((m for m in moves if m.acknowledged_at), key=lambda m: -m.pk)
    return pending + done


# The console and the table pages --------------------------------------------------------


@dataclass
class SeatRow:
    """One seat as the floor sees it."""

    seat: int
    entry: Entry | None = None
    button: bool = False
    small_blind: bool = False
    big_blind: bool = False
    waiting: bool = False  # not dealt into the next hand: the button passes this seat first
    sits_out: bool = False  # not dealt into the current hand, for the same reason
    arriving: Move | None = None  # a move slip into this seat, not yet done
    leaving: list[Move] = field(default_factory=list)  # slips out of this seat, not done

    @property
    def dead(self) -> str:
        if self.entry is not None:
            return ""
        if self.button and self.small_blind:
            return "dead button and small blind"
        if self.button:
            return "dead button"
        if self.small_blind:
            return "dead small blind"
        return ""


@dataclass
class TableCard:
    table: EventTable
    rows: list[SeatRow]
    count: int  # players seated in the records
    present: int  # players at the table right now (slips pending count where they come from)
    short: bool = False
    halt: bool = False
    breaks_next: bool = False

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def players(self) -> list[SeatRow]:
        return [row for row in self.rows if row.entry or row.leaving]

    @property
    def incoming(self) -> list[Move]:
        return [row.arriving for row in self.rows if row.arriving]

    @property
    def outgoing(self) -> list[Move]:
        return [move for row in self.rows for move in row.leaving]


def _cards(event: Event, tables: list[EventTable], entries, pending: list[Move]):
    by_table: dict[int, list[Entry]] = {}
    for entry in entries:
        by_table.setdefault(entry.table_id, []).append(entry)
    arriving = {(m.to_table, m.to_seat): m for m in pending}
    leaving: dict[tuple[int, int], list[Move]] = {}
    for move in pending:
        leaving.setdefault((move.from_table, move.from_seat), []).append(move)
    cards = []
    for table in tables:
        seated = {entry.seat: entry for entry in by_table.get(table.pk, [])}
        engine = engine_table(table, [(seat, entry.pk) for seat, entry in seated.items()])
        rows = []
        for seat in range(1, table.seats + 1):
            row = SeatRow(seat, seated.get(seat))
            row.button = table.button == seat
            row.small_blind = table.small_blind == seat
            row.big_blind = table.big_blind == seat
            if row.entry:
                row.waiting = not rules.is_dealt_in(engine, seat, event.button_rule)
                row.sits_out = seat in (table.sitting_out or [])
            row.arriving = arriving.get((table.number, seat))
            row.leaving = leaving.get((table.number, seat), [])
            rows.append(row)
        present = (
            len(seated) - sum(1 for r in rows if r.arriving) + sum(len(r.leaving) for r in rows)
        )
        cards.append(TableCard(table, rows, len(seated), present))
    return cards


def table_view(event: Event, number: int) -> TableCard | None:
    """One table for its page: seats in order, positions, who waits, slips in and out."""
    table = EventTable.objects.filter(event=event, number=number).first()
    if table is None:
        return None
    entries = list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).select_related("player")
    )
    pending = list(
        Move.objects.filter(event=event, acknowledged_at__isnull=True)
        .filter(Q(from_table=number) | Q(to_table=number))
        .select_related("entry__player")
    )
    (card,) = _cards(event, [table], entries, pending)
    return card


@dataclass
class Overview:
    """The seating console: every table in play and the state of the field."""

    cards: list[TableCard]
    pending: list[Move]
    players: int
    unseated: int
    busted: int
    entries: int
    prize_pool: object
    break_order: list[int]
    next_break: int | None
    breaks_at: int | None  # the next table breaks when the players are this many or fewer
    halted: list[int]
    short: list[int]
    redraws: dict[int, str | None]  # tables -> why not (None: possible)
    final_table_size: int | None


def seating_overview(event: Event) -> Overview:
    from .balancing import final_table_size, redraw_refusal

    tables = sorted(
        EventTable.objects.filter(event=event, in_play=True).order_by(),
        key=lambda t: (t.break_rank, -t.number),
    )
    entries = list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
        .select_related("player")
        .order_by()
    )
    pending = list(
        Move.objects.filter(event=event, acknowledged_at__isnull=True)
        .select_related("entry__player")
        .order_by("pk")
    )
    figures = Entry.objects.filter(event=event).aggregate(
        entries=Count("id"),
        active=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        unseated=Count("id", filter=Q(status=Entry.Status.ACTIVE, table__isnull=True)),
        pool=Sum("paid"),
    )
    cards = _cards(event, tables, entries, pending)
    playing = [card for card in cards if card.count]
    engine_tables = [
        engine_table(c.table, [(r.seat, r.entry.pk) for r in c.rows if r.entry]) for c in cards
    ]
    sequence = rules.break_sequence(engine_tables, [t.number for t in tables])
    most_present = max((card.present for card in playing), default=0)
    most = max((card.count for card in playing), default=0)
    for card in playing:
        card.halt = most_present - card.present >= rules.HALT_SHORT_BY
        card.short = most - card.count > event.balance_threshold
        card.breaks_next = bool(sequence) and card.number == sequence[0]
    next_break = sequence[0] if len(sequence) > 1 else None
    breaks_at = None
    if next_break is not None:
        breaks_at = sum(c.table.seats for c in playing if c.number != next_break)
    return Overview(
        cards=sorted(cards, key=lambda card: card.number),
        pending=pending,
        players=figures["active"] or 0,
        unseated=figures["unseated"] or 0,
        busted=(figures["entries"] or 0) - (figures["active"] or 0),
        entries=figures["entries"] or 0,
        prize_pool=figures["pool"] or 0,
        break_order=[t.number for t in tables],
        next_break=next_break,
        breaks_at=breaks_at,
        halted=[c.number for c in playing if c.halt],
        short=[c.number for c in playing if c.short],
        redraws={k: redraw_refusal(event, engine_tables, k) for k in (3, 2, 1)},
        final_table_size=final_table_size(event),
    )
