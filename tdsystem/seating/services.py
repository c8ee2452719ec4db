"""Seating services: the event's tables, entries and buys, the seat draw, hands, move slips.

Seating decisions are the engine's (tdsystem.engine.seating); these functions turn rows
into engine values, call it, and write the result back inside one transaction that
locks the event's row first (see seatmap.py for the lock order). Balancing, breaking
and redraws after eliminations live in balancing.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from tdsystem.core.actors import Actor
from tdsystem.core.log import log_record
from tdsystem.engine import clock as clockrules
from tdsystem.engine import seating as rules
from tdsystem.events.models import Clock, Event

from .errors import SeatingError
from .models import Entry, EventTable, Move, Player, Purchase, VenueTable, name_key
from .seatmap import (
    Applied,
    SeatMap,
    engine_call,
    engine_table,
    event_lock,
    new_seed,
    next_entry_number,
    plan_apply,
    seats_write,
    update_rows,
)

__all__ = [
    "DuplicateName",
    "Enrolment",
    "SeatingError",
    "entry_purchase",
    "entry_reenter",
    "hand_count_checked",
    "move_acknowledge",
    "player_register",
    "players_import",
    "registration_closed_reason",
    "seats_draw",
    "table_hand_finish",
    "tables_free",
    "tables_free_label",
    "tables_release",
    "tables_reorder",
    "tables_setup",
    "tables_taken",
]

MIN_TABLE_SEATS, MAX_TABLE_SEATS = 6, 10


# Tables ---------------------------------------------------------------------------------


def tables_setup(*, event: Event, numbers: list[int], seats: int, actor: Actor) -> list[EventTable]:
    """Put venue tables into play for the event; the break order becomes highest first."""
    if not MIN_TABLE_SEATS <= seats <= MAX_TABLE_SEATS:
        raise SeatingError(
            f"a table has {MIN_TABLE_SEATS} to {MAX_TABLE_SEATS} seats", field="seats"
        )
    if not numbers or any(number < 1 for number in numbers):
        raise SeatingError("give table numbers from 1 up", field="numbers")
    with transaction.atomic():
        event = event_lock(event.pk)
        seated = set(
            Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
            .values_list("table__number", flat=True)
            .distinct()
        )
        venues = venue_tables_lock(numbers=sorted(set(numbers)), seats=seats)
        created = []
        for number, venue in venues.items():
            busy = EventTable.objects.filter(venue_table=venue, in_play=True).exclude(event=event)
            holder = busy.select_related("event").first()
            if holder is not None:
                raise SeatingError(_table_taken(number, holder.event), field="numbers")
            old = EventTable.objects.filter(event=event, number=number).first()
            if old and number in seated and old.seats != seats:
                raise SeatingError(f"players sit at table {number}: its seats cannot change")
            table, _ = EventTable.objects.update_or_create(
                event=event,
                number=number,
                defaults={"venue_table": venue, "seats": seats, "in_play": True, "broken_at": None},
            )
            created.append(table)
        _rank_tables(event, [])
        log_record(
            event=event,
            actor=actor,
            action="tables.setup",
            summary=f"Tables in play: {_numbers(numbers)} ({seats} seats)",
            data={"numbers": sorted(set(numbers)), "seats": seats},
        )
    return created


def venue_tables_lock(*, numbers: list[int], seats: int) -> dict[int, VenueTable]:
    """The venue's tables of these numbers (new ones created), locked in number order.

    The event's own lock does not stop another event taking the same table: two staff
    setting up one table for two events take turns here, so the second sees the first's
    table in play and is told who holds it, rather than meeting the database constraint.
    """
    for number in numbers:
        VenueTable.objects.get_or_create(number=number, defaults={"seats": seats})
    locked = VenueTable.objects.filter(number__in=numbers).order_by("number").select_for_update()
    return {venue.number: venue for venue in locked}


def _table_taken(number: int, holder: Event) -> str:
    free = tables_free_label()
    return gettext(
        "table %(number)s is in use by %(event)s (%(status)s); free numbers: %(free)s"
    ) % {
        "number": number,
        "event": holder.name,
        "status": holder.get_status_display().lower(),
        "free": free,
    }


def tables_taken(*, exclude_event_id: int | None = None) -> dict[int, Event]:
    """The venue's table numbers some event has in play, with that event."""
    rows = EventTable.objects.filter(in_play=True).select_related("event")
    if exclude_event_id is not None:
        rows = rows.exclude(event_id=exclude_event_id)
    return {row.number: row.event for row in rows}


def tables_free(*, count: int, exclude_event_id: int | None = None) -> list[int]:
    """The `count` lowest table numbers from 1 that no (other) event has in play."""
    taken = tables_taken(exclude_event_id=exclude_event_id)
    free, number = [], 1
    while len(free) < count:
        if number not in taken:
            free.append(number)
        number += 1
    return free


def tables_free_label(*, exclude_event_id: int | None = None) -> str:
    """The free numbers as ranges, e.g. "4–12, 16 and up" (the venue's tables, then on)."""
    taken = tables_taken(exclude_event_id=exclude_event_id)
    known = set(VenueTable.objects.values_list("number", flat=True)) | set(taken)
    top = max(known, default=0)
    free = [n for n in range(1, top + 1) if n not in taken]
    ranges: list[list[int]] = []
    for n in free:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    # The last range reaches past the venue's tables: any new number is free too.
    start = ranges.pop()[0] if ranges and ranges[-1][1] == top else top + 1
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in ranges]
    parts.append(gettext("%(number)s and up") % {"number": start})
    return ", ".join(parts)


def _numbers(numbers) -> str:
    return ", ".join(str(n) for n in sorted(set(numbers)))


def _rank_tables(event: Event, first: list[int]) -> list[int]:
    """Rank the tables in play: `first` in that order, then highest number first."""
    tables = list(EventTable.objects.filter(event=event, in_play=True))
    position = {number: index for index, number in enumerate(dict.fromkeys(first))}
    tables.sort(key=lambda t: (position.get(t.number, len(position)), -t.number))
    for rank, table in enumerate(tables):
        table.break_rank = rank
    EventTable.objects.bulk_update(tables, ["break_rank"])
    return [table.number for table in tables]


def tables_reorder(*, event_id: int, numbers: list[int], actor: Actor) -> list[int]:
    """Set the break order: `numbers` break first, in that order; the rest highest first."""
    with transaction.atomic():
        event = event_lock(event_id)
        in_play = set(
            EventTable.objects.filter(event=event, in_play=True).values_list("number", flat=True)
        )
        unknown = [n for n in numbers if n not in in_play]
        if unknown:
            raise SeatingError(f"not in play: table {_numbers(unknown)}", field="numbers")
        order = _rank_tables(event, numbers)
        log_record(
            event=event,
            actor=actor,
            action="tables.order",
            summary=f"Break order: {', '.join(str(n) for n in order)}",
            data={"order": order},
        )
    return order


def tables_release(*, event_id: int, numbers: list[int], actor: Actor) -> None:
    """Take empty tables out of the event (they go back to the venue)."""
    with transaction.atomic():
        event = event_lock(event_id)
        tables = list(
            EventTable.objects.select_for_update().filter(
                event=event, number__in=numbers, in_play=True
            )
        )
        if len(tables) != len(set(numbers)):
            raise SeatingError("only tables in play can be released", field="numbers")
        occupied = Entry.objects.filter(table__in=tables, status=Entry.Status.ACTIVE)
        if occupied.exists():
            raise SeatingError("players sit at that table: break or balance it first")
        EventTable.objects.filter(pk__in=[t.pk for t in tables]).update(
            in_play=False, button=None, small_blind=None, big_blind=None
        )
        _rank_tables(event, [])
        log_record(
            event=event,
            actor=actor,
            action="tables.release",
            summary=f"Tables released: {_numbers(numbers)}",
            data={"numbers": sorted(set(numbers))},
        )


# Registration, re-entries and buys ------------------------------------------------------


def registration_closed_reason(event: Event, *, now: datetime | None = None) -> str | None:
    """Why no new entry is taken now, or None while registration is open.

    `late_registration_end_level` is a level number (breaks are not levels): entries are
    taken until that level ends. 0 means no late registration: until the clock starts.
    """
    clock = Clock.objects.filter(pk=event.pk).first()
    if clock is None:
        return None
    levels = list(
        event.structure.levels.order_by("position").values_list("kind", "duration_seconds")
    )
    state = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    if levels:
        # A level may have run out with no worker to record it yet: count it as over.
        state, _ = clockrules.settle(state, [d for _, d in levels], now or timezone.now())
    if state.status == clockrules.FINISHED:
        return "the event has finished"
    last = event.late_registration_end_level
    if last == 0:
        if state.status == clockrules.NOT_STARTED:
            return None
        return "registration closed when the clock started (no late registration)"
    end = clockrules.late_registration_end([kind == "level" for kind, _ in levels], last)
    if end is not None and state.level_index > end:
        return f"late registration closed at the end of level {last}"
    return None


@dataclass(frozen=True)
class Enrolment:
    """A new entry and where it sits (no seat before the draw), with any moves it caused."""

    entry: Entry
    dealt_in: bool
    seed: int
    applied: Applied | None


class DuplicateName(SeatingError):
    """A new player whose name is already in the event's field; nothing has changed.

    `existing` holds the entries of that name. The console and the API turn it into a
    question: register anyway (`confirm_duplicate`), or add a note that tells them apart.
    """

    def __init__(self, message: str, *, existing: list[Entry]) -> None:
        super().__init__(message)  # no field: the request is fine, the field refuses it (409)
        self.existing = existing


def _where(entry: Entry) -> str:
    if entry.status != Entry.Status.ACTIVE:
        return gettext("out")
    if entry.table_id is None:
        return gettext("no seat yet")
    return gettext("table %(table)s seat %(seat)s") % {
        "table": entry.table.number,
        "seat": entry.seat,
    }


def describe_entry(entry: Entry) -> str:
    """ "#12 Ann Lee (from Lyon), table 3 seat 4": which entry a warning means."""
    return f"#{entry.number} {entry.player}, {_where(entry)}"


def same_names(event: Event, name: str, note: str = "") -> list[Entry]:
    """The event's entries a new player of this name and note could not be told from.

    One index look-up on the stored name key, however big the field.
    """
    note_key = name_key(note)
    rows = Entry.objects.filter(event=event, player__name_key=name_key(name))
    rows = rows.select_related("player", "table").order_by("number")
    return [entry for entry in rows if name_key(entry.player.note) == note_key]


def _duplicate_error(existing: list[Entry]) -> DuplicateName:
    listed = "; ".join(describe_entry(entry) for entry in existing[:3])
    if len(existing) > 3:
        listed += "; …"
    return DuplicateName(
        gettext(
            "Already registered under this name: %(entries)s. Register anyway, or add a "
            "note that tells them apart."
        )
        % {"entries": listed},
        existing=existing,
    )


def member_id_taken(*, member_id: str) -> SeatingError | None:
    """The refusal for a member id that is already a player's, naming the event it entered."""
    player = Player.objects.filter(member_id=member_id).first()
    if player is None:
        return None
    entry = Entry.objects.filter(player=player).select_related("event").order_by("-pk").first()
    return SeatingError(
        gettext("member id %(member_id)s is already registered (%(event)s)")
        % {"member_id": member_id, "event": entry.event.name if entry else gettext("no event")}
    )


def player_register(
    *,
    event: Event,
    name: str,
    actor: Actor,
    member_id: str = "",
    note: str = "",
    confirm_duplicate: bool = False,
    rng_seed: int | None = None,
) -> Enrolment:
    """Register a player's entry. After the draw the entry is seated at once (TDA 8-A).

    A member id finds the player again; a member who busted may only come back as a
    re-entry (see entry_reenter). A new player whose name (and note) is already in the
    field raises DuplicateName unless `confirm_duplicate`; a `note` ("from Lyon") that
    differs from the others' tells them apart and needs no confirmation.
    """
    name = " ".join(name.split())
    member_id = member_id.strip()
    note = " ".join(note.split())
    if not name:
        raise SeatingError(gettext("the player needs a name"), field="name")
    if len(name) > 120:
        raise SeatingError(gettext("the name is longer than 120 characters"), field="name")
    if len(member_id) > 40:
        raise SeatingError(gettext("the member id is longer than 40 characters"), field="member_id")
    if len(note) > 60:
        raise SeatingError(gettext("the note is longer than 60 characters"), field="note")
    with transaction.atomic():
        event = event_lock(event.pk)
        _check_open(event)
        player = Player.objects.filter(member_id=member_id).first() if member_id else None
        if player is not None:
            if Entry.objects.filter(event=event, player=player).exists():
                if not event.reentry_allowed:
                    raise SeatingError(f"{player.name} has entered already")
                raise SeatingError(f"{player.name} has entered already: use a re-entry")
        else:
            if not confirm_duplicate:
                existing = same_names(event, name, note)
                if existing:
                    raise _duplicate_error(existing)
            try:
                # A savepoint: another event's registration (it holds another event's
                # lock) may take this member id between the look-up above and here.
                with transaction.atomic():
                    player = Player.objects.create(name=name, member_id=member_id, note=note)
            except IntegrityError as exc:
                refusal = member_id_taken(member_id=member_id) if member_id else None
                if refusal is None:
                    raise
                raise refusal from exc
        return _enrol(event, player, Purchase.Kind.ENTRY, actor, new_seed(rng_seed))


def import_duplicates(event: Event, names: list[str]) -> list[str]:
    """What a list would register twice: names repeated in it, and names already entered."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    for line, name in enumerate(names, start=1):
        key = name_key(name)
        if key in seen:
            problems.append(
                gettext("“%(name)s” (line %(line)s) repeats line %(first)s")
                % {"name": name, "line": line, "first": seen[key]}
            )
        else:
            seen[key] = line
    keys = list(seen)
    found: list[Entry] = []
    for start in range(0, len(keys), 500):  # SQLite's limit on a query's parameters
        rows = Entry.objects.filter(event=event, player__name_key__in=keys[start : start + 500])
        found += rows.select_related("player", "table")
    for entry in sorted(found, key=lambda e: e.number):
        if not entry.player.note:
            problems.append(
                gettext("“%(name)s” is already registered: %(entry)s")
                % {"name": entry.player.name, "entry": describe_entry(entry)}
            )
    return problems


def players_import(
    *, event_id: int, names: list[str], actor: Actor, confirm_duplicates: bool = False
) -> int:
    """Register a list of pre-registered players at once, before the seat draw.

    A list that would register a name twice (repeated in the list, or already in the
    field) is refused whole, naming each duplicate, unless `confirm_duplicates`.
    """
    names = [" ".join(name.split()) for name in names]
    names = [name for name in names if name]
    if not names:
        raise SeatingError(gettext("no names to register"), field="names")
    if any(len(name) > 120 for name in names):
        raise SeatingError(gettext("a name is longer than 120 characters"), field="names")
    with transaction.atomic():
        event = event_lock(event_id)
        _check_open(event)
        if SeatMap.read(event).drawn:
            raise SeatingError(gettext("the seats are drawn: register late players one by one"))
        if not confirm_duplicates:
            problems = import_duplicates(event, names)
            if problems:
                shown = "; ".join(problems[:10]) + ("; …" if len(problems) > 10 else "")
                raise SeatingError(
                    gettext(
                        "Nothing imported: %(count)s duplicate names (%(list)s). Add a note to "
                        "tell them apart one by one, or import anyway."
                    )
                    % {"count": len(problems), "list": shown}
                )
        first = next_entry_number(event)
        players = Player.objects.bulk_create(
            Player(name=name, name_key=name_key(name)) for name in names
        )
        entries = Entry.objects.bulk_create(
            Entry(
                event=event,
                player=player,
                number=first + index,
                chips=event.starting_stack,
                paid=Decimal(event.buy_in),
            )
            for index, player in enumerate(players)
        )
        Purchase.objects.bulk_create(
            Purchase(
                event=event,
                entry=entry,
                kind=Purchase.Kind.ENTRY,
                amount=entry.paid,
                chips=entry.chips,
                actor_label=actor.label,
            )
            for entry in entries
        )
        log_record(
            event=event,
            actor=actor,
            action="entry.import",
            summary=f"Registered {len(entries)} players: #{first} to #{entries[-1].number}",
            data={"first": first, "count": len(entries)},
        )
    return len(entries)


def entry_reenter(
    *, event_id: int, entry_id: int, actor: Actor, rng_seed: int | None = None
) -> Enrolment:
    """A busted player buys a new entry, seated by a new random draw (TDA 8-A)."""
    with transaction.atomic():
        event = event_lock(event_id)
        old = Entry.objects.select_related("player").filter(pk=entry_id, event=event).first()
        if old is None:
            raise SeatingError(f"no entry {entry_id} in this event", field="entry")
        if not event.reentry_allowed:
            raise SeatingError("this event does not allow re-entries")
        if old.status == Entry.Status.ACTIVE:
            raise SeatingError(f"{old.player.name} is still playing: no re-entry needed")
        _check_open(event)
        playing = Entry.objects.filter(player_id=old.player_id, status=Entry.Status.ACTIVE)
        if playing.filter(event=event).exists():
            raise SeatingError(f"{old.player.name} has re-entered already")
        return _enrol(event, old.player, Purchase.Kind.REENTRY, actor, new_seed(rng_seed))


def _check_open(event: Event) -> None:
    reason = registration_closed_reason(event)
    if reason:
        raise SeatingError(f"No new entries: {reason}.")


def _enrol(event: Event, player: Player, kind: str, actor: Actor, seed: int) -> Enrolment:
    """Create the entry, seat it if the seats are drawn, and rebalance around it."""
    rng = random.Random(seed)
    seatmap = SeatMap.read(event)
    placement = None
    if seatmap.drawn:
        tables = seatmap.engine_tables()
        if not any(table.empty_seats for table in tables):
            raise SeatingError("every seat is taken: put another table into play first")
        # The entry has no id yet; 0 stands in for it (no row has id 0).
        placement = engine_call(rules.seat_new_entry, tables, 0, rng, rule=event.button_rule)
    number = next_entry_number(event)
    try:
        entry = Entry.objects.create(
            event=event,
            player=player,
            number=number,
            is_reentry=kind == Purchase.Kind.REENTRY,
            chips=event.starting_stack,
            paid=Decimal(event.buy_in),
            table_id=seatmap.by_number[placement.table].pk if placement else None,
            seat=placement.seat if placement else None,
        )
    except IntegrityError:
        # Only code that bypasses the event lock gets here: the constraints held.
        raise SeatingError(
            f"the entry of {player.name} clashes with another (player, number or seat): try again"
        ) from None
    Purchase.objects.create(
        event=event,
        entry=entry,
        kind=kind,
        amount=entry.paid,
        chips=entry.chips,
        actor_label=actor.label,
    )
    applied = None
    where = "seat at the draw"
    if placement:
        seatmap.seated[entry.pk] = (placement.table, placement.seat)
        where = f"table {placement.table} seat {placement.seat}"
        if not placement.dealt_in:
            where += " (waits for the button)"
        plan = engine_call(
            rules.plan_after_elimination,
            seatmap.engine_tables(),
            break_order=seatmap.break_order,
            threshold=event.balance_threshold,
            rng=rng,
            rule=event.button_rule,
        )
        if plan.moves or plan.broken:
            applied = plan_apply(seatmap, plan, rng)
    label = "Re-entry" if kind == Purchase.Kind.REENTRY else "Entry"
    log_record(
        event=event,
        actor=actor,
        action="entry.reenter" if kind == Purchase.Kind.REENTRY else "entry.register",
        summary=f"{label} #{number}: {player.name}, {where}",
        data={
            "entry": entry.pk,
            "number": number,
            "seed": seed,
            "table": placement.table if placement else None,
            "seat": placement.seat if placement else None,
            "dealt_in": placement.dealt_in if placement else True,
            **(applied.as_log() if applied else {}),
        },
    )
    return Enrolment(entry, placement.dealt_in if placement else True, seed, applied)


def entry_purchase(
    *,
    event_id: int,
    entry_id: int,
    kind: str,
    actor: Actor,
    chips: int | None = None,
    amount: Decimal | None = None,
) -> Purchase:
    """A rebuy or an add-on: chips for the entry, money for the prize pool.

    By default a buy costs the event's buy-in and brings its starting stack.
    """
    if kind not in (Purchase.Kind.REBUY, Purchase.Kind.ADDON):
        raise SeatingError("a buy is a rebuy or an add-on", field="kind")
    with transaction.atomic():
        event = event_lock(event_id)
        chips = event.starting_stack if chips is None else int(chips)
        amount = Decimal(event.buy_in) if amount is None else Decimal(amount)
        if chips <= 0:
            raise SeatingError("a buy brings at least one chip", field="chips")
        if amount < 0:
            raise SeatingError("the amount cannot be negative", field="amount")
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(pk=entry_id, event=event)
            .first()
        )
        if entry is None:
            raise SeatingError(f"no entry {entry_id} in this event", field="entry")
        if entry.status != Entry.Status.ACTIVE:
            raise SeatingError(f"{entry.player.name} is out: a re-entry, not a {kind}")
        Entry.objects.filter(pk=entry.pk).update(chips=F("chips") + chips, paid=F("paid") + amount)
        purchase = Purchase.objects.create(
            event=event, entry=entry, kind=kind, amount=amount, chips=chips, actor_label=actor.label
        )
        log_record(
            event=event,
            actor=actor,
            action=f"entry.{kind}",
            summary=(
                f"{purchase.get_kind_display()} for #{entry.number} {entry.player.name}: "
                f"{chips} chips, {amount} to the prize pool"
            ),
            data={"entry": entry.pk, "chips": chips, "amount": str(amount)},
        )
    return purchase


# The draw and the hands -------------------------------------------------------------------


def seats_draw(*, event: Event, actor: Actor, seed: int | None = None) -> int:
    """Random draw of every active entry (TDA 7), even counts, a drawn button per table.

    The seed is logged: the same seed with the same entries and tables gives the same
    draw, so a draw can be reproduced in a dispute. Returns how many were seated.
    """
    seed = new_seed(seed)
    rng = random.Random(seed)
    with transaction.atomic():
        event = event_lock(event.pk)
        list(EventTable.objects.select_for_update().filter(event=event, in_play=True).values("pk"))
        seatmap = SeatMap.read(event)
        if seatmap.drawn:
            raise SeatingError("the seats are drawn already: use a redraw to draw again")
        if not seatmap.tables:
            raise SeatingError("put tables into play before the draw")
        entries = list(
            Entry.objects.select_for_update()
            .filter(event=event, status=Entry.Status.ACTIVE)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        if not entries:
            raise SeatingError("nobody to seat: register players first")
        draw = engine_call(rules.initial_draw, seatmap.engine_tables(), entries, rng)
        seats_write([(p.entry, seatmap.by_number[p.table].pk, p.seat) for p in draw.placements])
        update_rows(
            EventTable,
            ["button", "small_blind", "big_blind", "sitting_out"],
            [
                (seatmap.by_number[t.number].pk, t.button, t.small_blind, t.big_blind, [])
                for t in draw.tables
                if t.started
            ],
        )
        opened = sorted({p.table for p in draw.placements})
        log_record(
            event=event,
            actor=actor,
            action="seats.draw",
            summary=f"Seat draw: {len(entries)} players at {len(opened)} tables (seed {seed})",
            data={"seed": seed, "entries": len(entries), "tables": opened},
        )
    return len(entries)


def hand_count_checked(value: object) -> int:
    """The table's hand count a caller sends with "hand finished": a whole number, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SeatingError(
            gettext("hand: the hand count the page showed, a whole number, 0 or more"),
            field="hand",
        )
    return value


def table_hand_finish(
    *,
    event_id: int,
    table_number: int,
    actor: Actor,
    expected_hand: int | None,
    rng_seed: int | None = None,
) -> EventTable:
    """The hand at a table is over: move the button and blinds by the event's rule (D11).

    `expected_hand` is the table's hand count the caller saw, and it must be sent (None is
    a bad request): a retried request or a second tap on the same hand is refused, as is a
    page that is out of date, and nothing changes.
    """
    expected_hand = hand_count_checked(expected_hand)
    seed = new_seed(rng_seed)
    with transaction.atomic():
        event = event_lock(event_id)
        row = (
            EventTable.objects.select_for_update()
            .filter(event=event, number=table_number, in_play=True)
            .first()
        )
        if row is None:
            raise SeatingError(f"table {table_number} is not in play", field="table")
        if expected_hand < row.hand_number:
            raise SeatingError(
                gettext("table %(table)s: hand %(hand)s was already finished")
                % {"table": table_number, "hand": expected_hand + 1}
            )
        if expected_hand > row.hand_number:
            raise SeatingError(
                gettext(
                    "table %(table)s has finished %(count)s hands, not %(seen)s: reload the page"
                )
                % {"table": table_number, "count": row.hand_number, "seen": expected_hand}
            )
        occupants = Entry.objects.filter(table=row, status=Entry.Status.ACTIVE).values_list(
            "seat", "pk"
        )
        table = engine_table(row, occupants)
        if table.count < 2:
            raise SeatingError(f"table {table_number} has {table.count} player: no hand to deal")
        sitting_out = []
        if table.started:
            new = engine_call(rules.next_hand, table, event.button_rule)
            # Asked of the table before the move: who the coming hand's button passes by.
            sitting_out = [
                seat
                for seat in table.occupied_seats
                if not rules.is_dealt_in(table, seat, event.button_rule)
            ]
        else:
            new = engine_call(rules.start_hands, table, random.Random(seed))
        row.button, row.small_blind, row.big_blind = new.button, new.small_blind, new.big_blind
        row.hand_number += 1
        row.sitting_out = sitting_out
        row.save(update_fields=["button", "small_blind", "big_blind", "hand_number", "sitting_out"])
        notes = []
        if new.entry_at(new.button) is None:
            notes.append("dead button")
        if new.entry_at(new.small_blind) is None:
            notes.append("dead small blind")
        if new.button == new.small_blind:
            notes.append("heads-up")
        if sitting_out:
            notes.append(f"seat {', '.join(map(str, sitting_out))} waits for the button")
        log_record(
            event=event,
            actor=actor,
            action="table.hand",
            summary=(
                f"Table {table_number}, hand {row.hand_number + 1}: button seat {new.button}, "
                f"blinds seats {new.small_blind} and {new.big_blind}"
                + (f" ({', '.join(notes)})" if notes else "")
            ),
            data={
                "table": table_number,
                "hand": row.hand_number,
                "positions": [new.button, new.small_blind, new.big_blind],
                "sitting_out": sitting_out,
                "seed": None if table.started else seed,
            },
        )
    return row


# Move slips ------------------------------------------------------------------------------


def move_acknowledge(*, event_id: int, move_id: int, actor: Actor) -> Move:
    """The floor confirms a move slip was carried out. A second confirmation is a no-op."""
    now = timezone.now()
    with transaction.atomic():
        updated = Move.objects.filter(
            pk=move_id, event_id=event_id, acknowledged_at__isnull=True
        ).update(acknowledged_at=now, acknowledged_by=actor.user)
        move = Move.objects.select_related("entry__player", "event").filter(
            pk=move_id, event_id=event_id
        )
        move = move.first()
        if move is None:
            raise SeatingError(f"no move slip {move_id} in this event", field="move")
        if updated:
            log_record(
                event=move.event,
                actor=actor,
                action="move.ack",
                summary=f"Move done: {move}",
                data={"move": move.pk},
            )
    return move
