"""Read models for the seating pages, the venue screens and the API.

Each selector costs a fixed number of queries whatever the size of the field. Seats are
shown as the room sees them: a player with a move slip not yet acknowledged is still
walking, so tables count them where they come from until the floor confirms the move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from tdsystem.core.collation import name_order
from tdsystem.core.forms import whole_number
from tdsystem.engine import rulesets
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event
from tdsystem.events.selectors import screen_cached

from .entry_rules import buys_offered, reentry_offered
from .forms import ENTRY_MAX
from .models import HOLD_REASON_MAX, Entry, EventTable, Move, search_key
from .seatmap import engine_table, has_blinds, head_counts
from .signals import places_of

SLIP_MINUTES = 5


def seat_list(event_id: int) -> list[dict]:
    """Every active entry with its seat, by player name as people read it (Unicode
    collation, core.collation: "Ánh" beside "Anh") then entry number: the public JSON and
    the draw screen."""
    language = get_language()  # once, not for each of thousands of names
    rows = sorted(
        Entry.objects.filter(event_id=event_id, status=Entry.Status.ACTIVE).values_list(
            "player__name", "number", "table__number", "seat", "player__note"
        ),
        key=lambda row: (name_order(row[0], language), row[1]),
    )
    # A note ("from Lyon") is given only where it tells two players of one name apart.
    return [
        {
            "player": name,
            "entry": number,
            "table": table,
            "seat": seat,
            **({"note": n} if n else {}),
        }
        for name, number, table, seat, n in rows
    ]


def seats_now(event_id: int) -> list[dict]:
    """seat_list as the phones and the draw screen read it: in a field of thousands,
    worked out at most once a SCREEN_CACHE_SECONDS for each language (its sort is the
    reader's), however many changes come meanwhile (a trailing entry)."""
    key = ("seats", event_id, get_language())
    return screen_cached(key, lambda: seat_list(event_id), event=event_id, trailing=True)


@dataclass(frozen=True)
class SeatQuery:
    """What a seat search asks for (`seat_query`): an entry number first, when the query
    is a whole number, else (or when no entry has it) the players whose search key holds
    `key`: case, width and accents do not count ("nguyen" finds "Nguyễn")."""

    number: int | None
    key: str


def seat_query(query: str) -> SeatQuery | None:
    """The search's rule, stated once for the console and the players' lookup
    (seating/lookup.py): "#12" and "12" are entry 12; None for an empty query."""
    query = query.strip().lstrip("#").strip()
    if not query:
        return None
    return SeatQuery(whole_number(query, high=ENTRY_MAX), search_key(query))


def seat_order(status: str, name: str, number: int) -> tuple:
    """The order a search's answers are shown in: players still in first, then by name as
    the reader reads it. (The database picks the first `limit` by the plain key.)"""
    return (status, name_order(name), number)


def seat_search(event_id: int, query: str, limit: int = 20) -> list[Entry]:
    """Entries matching a name (any part) or an entry number; players still in come first."""
    asked = seat_query(query)
    if asked is None:
        return []
    entries = Entry.objects.filter(event_id=event_id).select_related("player", "table")
    if asked.number is not None:
        exact = entries.filter(number=asked.number).first()
        if exact:
            return [exact]
    matches = entries.filter(player__search_key__contains=asked.key)
    found = matches.order_by("status", "player__search_key", "number")
    return sorted(found[:limit], key=lambda e: seat_order(e.status, e.player.name, e.number))


def entry_by_number(event_id: int, number: int) -> Entry | None:
    return (
        Entry.objects.filter(event_id=event_id, number=number)
        .select_related("player", "table")
        .first()
    )


def entry_panel(event: Event, entry: Entry) -> dict:
    """What the console's panel of one entry shows (`seating/console.html#entry`): its
    buys, its moves of the day, what it may buy or re-enter with, its money, and the place
    it finished in once out (results', asked through `signals.places_asked`).

    The seating console's own actions answer with the panel: each renders the fragment
    with this and what the action did (`error`, `message`, `slips`, a refused form). A
    bust-out sent from it (a results route) answers with results' own fragment beside the
    panel, which reads itself again on `results-changed`."""
    purchases = list(entry.purchases.all())
    reentry, reentry_refused = reentry_offered(event, entry)
    # In a bounty event one bounty of the entry's buy-in is its head, not the places'.
    head = Decimal(event.bounty_amount) if event.has_bounties else None
    out = entry.status == Entry.Status.BUSTED
    return {
        "event": event,
        "entry": entry,
        "place": places_of(event, [entry.pk]).get(entry.pk) if out else None,
        "purchases": purchases,
        "moves": moves_of([entry.pk], minutes=24 * 60).get(entry.pk, []),
        "buys": buys_offered(event, entry),
        "reentry": reentry,
        "reentry_refused": reentry_refused,
        "entry_fees": sum((p.fee for p in purchases), Decimal(0)),
        "entry_head": head,
        "entry_places": Decimal(entry.paid) - (head or Decimal(0)),
        "reserved_cite": event.cite("reserved_seat"),
        "hold_reason_max": HOLD_REASON_MAX,
    }


def moves_of(entry_ids, minutes: int = SLIP_MINUTES) -> dict[int, list[Move]]:
    """Each entry's moves of the last minutes, newest first."""
    since = timezone.now() - timedelta(minutes=minutes)
    moves: dict[int, list[Move]] = {}
    rows = Move.objects.filter(entry_id__in=list(entry_ids), created_at__gte=since)
    for move in rows.order_by("-created_at", "-id"):
        moves.setdefault(move.entry_id, []).append(move)
    return moves


def move_json(move: Move) -> dict:
    """A move slip as the API gives it (its entry and player loaded; bust-outs use it too)."""
    return {
        "id": move.pk,
        "entry": move.entry.number,
        "player": move.entry.player.name,
        "from_table": move.from_table,
        "from_seat": move.from_seat,
        "to_table": move.to_table,
        "to_seat": move.to_seat,
        "reason": move.reason,
        "dealt_in": move.dealt_in,
        "acknowledged": move.acknowledged_at is not None,
    }


def slip_row(move: Move) -> dict:
    """One move slip as the moves API and the clock screen give it: the API's shape with
    the slip's text and when it was made."""
    return move_json(move) | {"text": str(move), "created_at": move.created_at.isoformat()}


def recent_moves(event_id: int, minutes: int = SLIP_MINUTES) -> list[dict]:
    """Move slips of the last minutes, newest first, for the API."""
    since = timezone.now() - timedelta(minutes=minutes)
    moves = (
        Move.objects.filter(event_id=event_id, created_at__gte=since)
        .select_related("entry__player")
        .order_by("-created_at", "-id")[:20]
    )
    return [slip_row(m) for m in moves]


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


def slip_groups(slips: Iterable[Move]) -> list[tuple[int, list[Move]]]:
    """The slips still waiting by the table the players walk to, lowest number first: the
    floor carries out a table's at once (after a break or a redraw)."""
    groups: dict[int, list[Move]] = {}
    for slip in slips:
        if slip.acknowledged_at is None:
            groups.setdefault(slip.to_table, []).append(slip)
    return sorted(groups.items(), key=lambda group: group[0])


# Halting (TDA 11-D, WSOP R67: the event's rule set) ---------------------------------------


@dataclass(frozen=True)
class HaltState:
    """A table that stops dealing until it is balanced, as the floor reads it."""

    table: int
    rule: str  # the rule cited: "TDA 11-D", "WSOP R67"
    reason: str  # "3 players short of table 102; the big blind would fall on empty seat 4"
    halt: rules.Halt


def _impact_text(impact: rules.Impact) -> str:
    values = {"seat": impact.seat}
    if impact.position is rules.Position.BUTTON:
        return _("the button would fall on empty seat %(seat)s") % values
    if impact.position is rules.Position.SMALL_BLIND:
        return _("the small blind would fall on empty seat %(seat)s") % values
    return _("the big blind would fall on empty seat %(seat)s") % values


def halt_reason(halt: rules.Halt, players: int) -> str:
    """Why the table halts: how many short of which table, and what the coming hand meets."""
    parts = [
        ngettext(
            "%(count)s player short of table %(table)s",
            "%(count)s players short of table %(table)s",
            halt.short,
        )
        % {"count": halt.short, "table": halt.largest}
    ]
    if players < 2:
        parts.append(_("one player left: no hand to deal"))
    parts.extend(_impact_text(impact) for impact in halt.impacts)
    return "; ".join(parts)


def _present(
    table: EventTable,
    seated: Sequence[tuple[int | None, int]],
    pending: list[Move],
    *,
    blinds: bool = True,
) -> rules.Table:
    """The table as it is in the room: a seat a pending slip leads to is still empty, one
    it leaves is still taken (as the cards count them)."""
    occupants = {seat: pk for seat, pk in seated if seat is not None}  # seat -> entry id
    for move in pending:
        if move.to_table == table.number and occupants.get(move.to_seat) == move.entry_id:
            del occupants[move.to_seat]
    for move in pending:
        if (
            move.from_table == table.number
            and move.from_seat not in occupants
            and move.entry_id not in occupants.values()
        ):
            occupants[move.from_seat] = move.entry_id
    return engine_table(table, occupants.items(), blinds=blinds)


def table_halts(
    event: Event,
    *,
    pending: list[Move],
    tallies: list[Tally] | None = None,
    only: tuple[EventTable, Sequence[tuple[int | None, int]]] | None = None,
) -> dict[int, HaltState]:
    """The event's halted tables by number, under its rule set's `halting` and
    `halt_short_by`: the console's list, the table page's banner and the hand service's
    refusal all read it.

    Counted as the room stands (see `_present`), so a halt lifts once the floor has done
    the move slips that balance the table. `pending` are the event's pending slips;
    `tallies` the tables in play counted (read otherwise: one query). Seats are read only
    for the tables short enough (one query for each kind of row), or not at all when
    `only` gives the one table to judge and its (seat, entry id) pairs.

    Stud has no blinds, so "once the blinds are impacted" cannot apply: a stud table short
    by the set's count halts at once, whatever the set's `halting`.
    """
    settings = event.rules
    blinds = has_blinds(event)
    halting = settings.halting if blinds else rulesets.HALT_AT_ONCE
    if tallies is None:
        tallies = _tallies(event, *slip_counts(pending))[0]
    field = [(t.number, t.present) for t in tallies if t.count]
    short = rules.shortfalls(field, short_by=settings.halt_short_by)
    if not short:
        return {}
    if only is not None:
        row, seated = only
        if row.number not in short:
            return {}
        tables = [_present(row, seated, pending, blinds=blinds)]
    else:
        rows = list(EventTable.objects.filter(event=event, in_play=True, number__in=short))
        occupants: dict[int, list[tuple[int | None, int]]] = {}
        entries = Entry.objects.filter(table__in=rows, status=Entry.Status.ACTIVE).order_by()
        for table_id, seat, pk in entries.values_list("table_id", "seat", "pk"):
            occupants.setdefault(table_id, []).append((seat, pk))
        tables = [_present(row, occupants.get(row.pk, []), pending, blinds=blinds) for row in rows]
    counts = {table.number: table.count for table in tables}
    cite = event.cite("halting")
    return {
        halt.table: HaltState(halt.table, cite, halt_reason(halt, counts[halt.table]), halt)
        for halt in rules.halts(
            tables, halting=halting, short_by=settings.halt_short_by, field=field
        )
    }


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
            return _("dead button and small blind")
        if self.button:
            return _("dead button")
        if self.small_blind:
            return _("dead small blind")
        return ""


@dataclass
class TableCard:
    table: EventTable
    rows: list[SeatRow]
    count: int  # players seated in the records
    present: int  # players at the table right now (slips pending count where they come from)
    short: bool = False
    halt: HaltState | None = None
    breaks_next: bool = False
    blinds: bool = True  # False in stud: no button, blinds or waiting to show

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
    from .balancing import button_options

    options = button_options(event)
    blinds = has_blinds(event)
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
            row.button = blinds and table.button == seat
            row.small_blind = blinds and table.small_blind == seat
            row.big_blind = blinds and table.big_blind == seat
            if row.entry and blinds:
                row.waiting = not rules.is_dealt_in(engine, seat, **options)
                row.sits_out = seat in (table.sitting_out or [])
            row.arriving = arriving.get((table.number, seat))
            row.leaving = leaving.get((table.number, seat), [])
            rows.append(row)
        present = (
            len(seated) - sum(1 for r in rows if r.arriving) + sum(len(r.leaving) for r in rows)
        )
        cards.append(TableCard(table, rows, len(seated), present, blinds=blinds))
    return cards


def table_view(event: Event, number: int) -> TableCard | None:
    """One table for its page: seats in order, positions, who waits, slips in and out,
    and whether it is halted (which needs the other tables' head counts)."""
    table = EventTable.objects.filter(event=event, number=number).first()
    if table is None:
        return None
    entries = list(
        Entry.objects.filter(table=table, status=Entry.Status.ACTIVE).select_related("player")
    )
    mine = list(pending_slips_at(event, number).select_related("entry__player"))
    (card,) = _cards(event, [table], entries, mine)
    if table.in_play:
        seated = [(entry.seat, entry.pk) for entry in entries]
        card.halt = table_halt(event, table, seated, mine)
    return card


CONSOLE_TABLES = 36  # table cards on one page of the console (2, 3, 4 or 6 across)


@dataclass
class Tally:
    """A table in play as the field-wide figures need it: its players counted, no names."""

    number: int
    seats: int
    count: int
    present: int
    table_id: int = 0
    short: bool = False
    halt: HaltState | None = None

    @property
    def occupants(self) -> bool:
        """What `break_sequence` and `redraw_refusal` ask of a table: does anyone sit there."""
        return self.count > 0


@dataclass
class PageLink:
    page: int
    first: int  # the lowest and highest table number on that page
    last: int
    current: bool = False


@dataclass
class Overview:
    """The seating console: one page of table cards and the state of the whole field."""

    cards: list[TableCard]  # the tables of the page shown, by number
    tables: int  # tables in play
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
    halts: list[HaltState]  # the halted tables with the reason, by number
    short: list[int]
    redraws: dict[int, str | None]  # tables -> why not (None: possible)
    final_table_size: int | None
    breaking: int | None = None  # the table marked "breaks next"
    page: int = 1
    pages: int = 1
    pager: list[PageLink | None] = field(default_factory=list)  # None: pages left out
    marked: int | None = None  # the table asked for, highlighted on its page
    refused: str = ""  # why the page or table asked for is not the one shown

    @property
    def paged(self) -> bool:
        return self.pages > 1

    @property
    def previous(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None


def slip_counts(pending: Iterable[Move]) -> tuple[Counter[int], Counter[int]]:
    """By table number, the seats pending slips lead to and the slips leaving it: as on
    the cards, a seat a slip leads to is not taken yet, one it leaves still is."""
    arriving = Counter(table for table, _ in {(m.to_table, m.to_seat) for m in pending})
    return arriving, Counter(move.from_table for move in pending)


def pending_slips(event: Event) -> QuerySet[Move]:
    """The event's move slips not yet acknowledged: the player may not have reached the
    new seat, and may still sit in the old one (the partial indexes `move_pending_*`)."""
    return Move.objects.filter(event=event, acknowledged_at__isnull=True)


def pending_slip_counts(event: Event) -> tuple[Counter[int], Counter[int]]:
    """`slip_counts` of the event's pending slips, counted by the database (two grouped
    queries, a row a table): a floor that leaves its slips unacknowledged keeps
    thousands pending, and a hand at one table needs only their counts."""
    pending = pending_slips(event).order_by()
    arriving = pending.values_list("to_table").annotate(n=Count("to_seat", distinct=True))
    leaving = pending.values_list("from_table").annotate(n=Count("id"))
    return Counter(dict(arriving.values_list("to_table", "n"))), Counter(
        dict(leaving.values_list("from_table", "n"))
    )


def pending_slips_at(event: Event, number: int) -> QuerySet[Move]:
    """The event's pending slips into or out of table `number`: each side found through
    its own index (`move_pending_from`, `move_pending_to`), not among every pending slip,
    as one OR of the two columns would be (docs/load-and-faults.md)."""
    pending = pending_slips(event)
    leaving = pending.filter(from_table=number).values("pk")
    arriving = pending.filter(to_table=number).values("pk")
    return Move.objects.filter(Q(pk__in=leaving) | Q(pk__in=arriving))


def seats_being_left(event: Event, numbers: Iterable[int]) -> set[tuple[int, int]]:
    """The seats at tables `numbers`, as (table, seat), that a moved player may still be
    sitting in: the from-seats of their pending slips (`move_pending_from`). A late entry
    is not drawn into one while another seat is free (`seat_new_entry`'s `leaving`)."""
    pending = pending_slips(event).filter(from_table__in=list(numbers))
    return set(pending.values_list("from_table", "from_seat"))


def table_halt(
    event: Event, row: EventTable, seated: Sequence[tuple[int | None, int]], mine: list[Move]
) -> HaltState | None:
    """Whether table `row`, its players `seated` as (seat, entry id) and its own pending
    slips `mine`, is halted: the other tables' slips are only counted (see
    `table_halts`), so the cost does not follow how many the floor leaves pending."""
    tallies = _tallies(event, *pending_slip_counts(event))[0]
    return table_halts(event, pending=mine, tallies=tallies, only=(row, seated)).get(row.number)


def _tallies(
    event: Event, arriving: Counter[int], leaving: Counter[int]
) -> tuple[list[Tally], dict[int, int]]:
    """Every table in play, by number, with its players counted (one row a table) and
    present as the slips leave them (see `slip_counts`)."""
    tallies, ranks = [], {}
    for t in head_counts(event):
        present = t.players - arriving[t.number] + leaving[t.number]
        tallies.append(Tally(t.number, t.seats, t.players, present, table_id=t.pk))
        ranks[t.number] = t.break_rank
    return tallies, ranks


def _pager(tallies: list[Tally], page: int, pages: int, size: int) -> list[PageLink | None]:
    """The first and last pages, and two either side of the one shown."""
    shown = {1, pages, *range(page - 2, page + 3)}
    links: list[PageLink | None] = []
    for number in range(1, pages + 1):
        if number not in shown:
            if links and links[-1] is not None:
                links.append(None)
            continue
        chunk = tallies[(number - 1) * size : number * size]
        links.append(PageLink(number, chunk[0].number, chunk[-1].number, number == page))
    return links


def seating_overview(
    event: Event,
    *,
    page: int = 1,
    table: int | None = None,
    mark: int | None = None,
    size: int = CONSOLE_TABLES,
    cards: bool = True,
) -> Overview:
    """The console for page `page` of the tables in play (by number), or for the page
    holding table `table` (marked). `mark` marks a table if it is on the page shown.
    Reads one row per table in play for the field's figures, and the seats and players
    of the page's tables only (none without `cards`: the status card, the slips)."""
    from .balancing import balance_tolerance, final_table_size, redraw_refusal

    pending = list(pending_slips(event).select_related("entry__player").order_by("pk"))
    tallies, ranks = _tallies(event, *slip_counts(pending))
    figures = Entry.objects.filter(event=event).aggregate(
        entries=Count("id"),
        active=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        unseated=Count("id", filter=Q(status=Entry.Status.ACTIVE, table__isnull=True)),
        pool=Sum("paid"),
    )
    in_break_order = sorted(tallies, key=lambda t: (ranks[t.number], -t.number))
    sequence = rules.break_sequence(in_break_order, [t.number for t in in_break_order])
    playing = [tally for tally in tallies if tally.count]
    most = max((tally.count for tally in playing), default=0)
    halted = table_halts(event, pending=pending, tallies=playing)
    tolerance = balance_tolerance(event, len(playing))
    for tally in playing:
        tally.halt = halted.get(tally.number)
        tally.short = most - tally.count > tolerance
    next_break = sequence[0] if len(sequence) > 1 else None
    breaks_at = None
    if next_break is not None:
        breaks_at = sum(t.seats for t in playing if t.number != next_break)

    pages = max(1, -(-len(tallies) // size))
    marked, refused = None, ""
    if table is not None:
        where = next((i for i, t in enumerate(tallies) if t.number == table), None)
        if where is None:
            refused = _("Table %(table)s is not in play.") % {"table": table}
        else:
            page, marked = where // size + 1, table
    if page > pages:
        refused = refused or _("There is no page %(page)s: the tables fill %(pages)s.") % {
            "page": page,
            "pages": pages,
        }
        page = pages
    page = max(page, 1)
    shown = tallies[(page - 1) * size : page * size]
    if marked is None and any(tally.number == mark for tally in shown):
        marked = mark
    page_cards = _page_cards(event, shown, pending) if cards else []
    flags = {t.number: t for t in shown}
    for card in page_cards:
        card.halt, card.short = flags[card.number].halt, flags[card.number].short
        card.breaks_next = card.number == next_break
    return Overview(
        cards=page_cards,
        tables=len(tallies),
        pending=pending,
        players=figures["active"] or 0,
        unseated=figures["unseated"] or 0,
        busted=(figures["entries"] or 0) - (figures["active"] or 0),
        entries=figures["entries"] or 0,
        prize_pool=figures["pool"] or 0,
        break_order=[t.number for t in in_break_order],
        next_break=next_break,
        breaks_at=breaks_at,
        halted=list(halted),
        halts=list(halted.values()),
        short=[t.number for t in playing if t.short],
        redraws={k: redraw_refusal(event, in_break_order, k) for k in (3, 2, 1)},
        final_table_size=final_table_size(event),
        # The last table in play breaks for nobody: it is not marked.
        breaking=next_break,
        page=page,
        pages=pages,
        pager=_pager(tallies, page, pages, size) if pages > 1 else [],
        marked=marked,
        refused=refused,
    )


def _page_cards(event: Event, shown: list[Tally], pending: list[Move]) -> list[TableCard]:
    """The cards of the tables on one page: their rows and players, nobody else's."""
    ids = [tally.table_id for tally in shown]
    if not ids:
        return []
    tables = list(EventTable.objects.filter(pk__in=ids).order_by("number"))
    entries = list(
        Entry.objects.filter(table_id__in=ids, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by()
    )
    return _cards(event, tables, entries, pending)
