"""What a bust-out decides on, read in one place under the event's lock.

`bustout_snapshot` reads the players out (locked), their table and its hand, the field and
the pool, the payout plan's prizes, hand-for-hand and the group a report joins, the big
blind ante of the hand, the eliminators and the heads of a bounty event, and the rule
set's settings, and hands the engine (`engine/bustout.py`) its plain part: `Situation`
and `Report`. The service then writes what the engine decided (`services/bustouts.py`).
The SQL this path tunes by hand (the field's stored counts) is here and nowhere else in
it.

Every read here refuses as the floor would be told: a player already out, not seated, at
another table, bagged for the day; an eliminator who is not in, or at another table; too
many out for the players left; a hand-for-hand hand that is not being played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from tdsystem.engine import bustout as decision
from tdsystem.engine import clock as clockrules
from tdsystem.events.hooks import Field
from tdsystem.events.models import Event
from tdsystem.seating.models import Bag, Entry, EventTable
from tdsystem.seating.seatmap import sql_names
from tdsystem.structures.models import AnteType

from ..errors import ResultsError
from ..models import BustOutGroup, FieldCount, Finish, HandForHand, HandForHandReport, PayoutPlan
from . import bounties, standings

BIG_BLIND_ANTES = (AnteType.BIG_BLIND, AnteType.BIG_BLIND_ANTE_FIRST)


@dataclass(frozen=True)
class BustoutSnapshot:
    """Everything one report decides on. The rows are the service's to write to."""

    event: Event
    entries: tuple[Entry, ...]  # the players out, locked, in primary-key order
    table: EventTable
    hfh: HandForHand | None
    field: standings.Field
    plan: PayoutPlan
    hand: int  # the table's hand, or the hand-for-hand hand
    group: BustOutGroup | None  # the hand-for-hand group the report joins, if it exists
    last_seq: int  # the last group's sequence number (0: none yet)
    others: tuple[Finish, ...]  # the joined group's standing finishes
    winner: Entry | None  # the one left in when the report leaves one
    situation: decision.Situation
    report: decision.Report


def hand_for_hand(event: Event) -> HandForHand | None:
    """Hand-for-hand while it is on."""
    return HandForHand.objects.filter(event=event, active=True).first()


def entries_locked(event: Event, ids: Sequence[int]) -> list[Entry]:
    """The entries, locked in primary-key order (after the event's row), each checked in
    and seated."""
    if event.status == Event.Status.FINISHED:  # before "no seat": the winner's seat went back
        raise ResultsError(gettext("the event has finished"))
    entries = list(
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .select_related("player", "table")
        .filter(event=event, pk__in=ids)
        .order_by("pk")
    )
    missing = set(ids) - {e.pk for e in entries}
    if missing:
        raise ResultsError(
            gettext("no entry %(id)s in this event") % {"id": min(missing)}, field="entries"
        )
    for entry in entries:
        if entry.status != Entry.Status.ACTIVE:
            place = _place_of(entry)
            values = {"number": entry.number, "name": entry.player.name, "place": place}
            raise ResultsError(
                (
                    gettext("#%(number)s %(name)s is already out (place %(place)s)")
                    if place
                    else gettext("#%(number)s %(name)s is already out")
                )
                % values
            )
        if entry.table is None:
            raise ResultsError(
                gettext("#%(number)s %(name)s has no seat yet")
                % {"number": entry.number, "name": entry.player.name}
            )
    return entries


def _place_of(entry: Entry) -> str | None:
    """Where a player out finished ("5", or "5-6" for a tie): their standing finish. None
    for a flight's survivor through to Day 2, who has none."""
    finish = Finish.objects.filter(entry=entry, undone_at__isnull=True).first()
    return finish.place_label if finish else None


def bustout_snapshot(
    event: Event,
    entries: Sequence[Entry],
    *,
    hfh: HandForHand | None,
    table_number: int | None,
    hand: int | None,
    stacks: Mapping[int, int | None],
    eliminated_by: Sequence[int] | None = None,
    short_big_blind: bool = False,
) -> BustoutSnapshot:
    """Read what the report of `entries` (locked by `entries_locked`) decides on. A short
    big blind (the house rule) has no eliminator: the player keeps their head."""
    if event.status == Event.Status.FINISHED:
        raise ResultsError(gettext("the event has finished"))
    eliminators = [] if short_big_blind else bounties.eliminators_for(event, entries, eliminated_by)
    table = _table_of(entries, table_number)
    if table.hands_left is not None:
        _refuse_bagged(event, entries)
    fld = standings.field_read(event)
    if len(entries) >= fld.active:
        raise ResultsError(
            gettext("%(out)s cannot be out when %(left)s are left: one must win")
            % {"out": len(entries), "left": fld.active},
            field="entries",
        )
    plan = standings.plan_for(event)
    group, hand_no = _group_of(event, hfh, hand, table)
    last_seq = BustOutGroup.objects.filter(event=event).aggregate(m=Max("seq"))["m"] or 0
    ante = None if short_big_blind else _ante_due(event, table, entries, stacks, hand_no, hfh)
    others: tuple[Finish, ...] = ()
    if group is not None:
        others = tuple(
            Finish.objects.filter(group=group, undone_at__isnull=True).select_related(
                "entry__player", "bustout"
            )
        )
    current = standings.is_current(plan, fld) and (group is None or group.seq == last_seq)
    one_left = fld.active - len(entries) == 1
    prizes = standings.prizes_by_place(plan, fld.entries, fld.pool) if current or one_left else ()
    winner = None
    if one_left:
        out = {e.pk for e in entries}
        winner = next(
            e
            for e in Entry.objects.select_related("player", "table").filter(
                event=event, status=Entry.Status.ACTIVE
            )
            if e.pk not in out
        )
    situation = decision.Situation(
        left=fld.active,
        settings=event.rules,
        prizes=tuple(prizes),
        unit=Decimal(plan.rounding),
        current=current,
        hand_for_hand=hfh is not None,
        others=tuple(decision.Out(f.entry_id, f.starting_stack or 0, _table(f)) for f in others),
        ante=ante,
        still_in=(*(e.pk for e in entries), winner.pk) if winner else (),
        heads=_heads(event, entries, eliminators, winner),
    )
    report = decision.Report(
        table=table.number,
        players=tuple(decision.Player(e.pk, e.seat, stacks.get(e.pk)) for e in entries),
        short_big_blind=short_big_blind,
    )
    return BustoutSnapshot(
        event=event,
        entries=tuple(entries),
        table=table,
        hfh=hfh,
        field=fld,
        plan=plan,
        hand=hand_no,
        group=group,
        last_seq=last_seq,
        others=others,
        winner=winner,
        situation=situation,
        report=report,
    )


def _heads(
    event: Event, entries: Sequence[Entry], eliminators: Sequence[Entry], winner: Entry | None
) -> decision.Heads | None:
    """The bounties' part: None outside a bounty event when nobody named an eliminator."""
    if not event.has_bounties and not eliminators:
        return None
    ids = [e.pk for e in entries] + ([winner.pk] if winner else [])
    return decision.Heads(
        kind=bounties.kind_of(event),
        eliminators=tuple(e.pk for e in eliminators),
        heads=bounties.heads(event, ids) if event.has_bounties else {},
        unit=bounties.UNIT,
    )


def field_counts(event_id: int) -> tuple[int, int, int, Decimal]:
    """(entries, active, here, pool) of `standings.field_read`, from the stored counts
    (`FieldCount`, kept by the database's triggers on every change of an entry): the rows
    of the event and its flights, a few rows whatever the field. Every bust-out and every
    step of the simulations reads it; counting the entries instead reads the whole field
    each time (docs/bust-outs-and-results.md). `standings.field_counted` counts the entries
    themselves. It goes through the cursor: the ORM's compiling of such an aggregate costs
    several times the reading.
    """
    counts, c = sql_names(FieldCount, "c")
    here = f"CASE WHEN {c['event_id']} = %s THEN"
    sql = (
        f"SELECT SUM({c['entries']}) - SUM({here} {c['carried']} ELSE 0 END), "
        f"SUM({here} {c['active']} ELSE 0 END), SUM({here} {c['entries']} ELSE 0 END), "
        f"SUM({c['paid_cents']}) "
        f"FROM {counts} c WHERE {c['event_id']} IN {standings.main_and_flights()}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [event_id] * 5)
        entries, active, here_n, cents = cursor.fetchone()
    # PostgreSQL sums bigints as numeric: read as Decimal.
    return int(entries or 0), int(active or 0), int(here_n or 0), Decimal(cents or 0).scaleb(-2)


def screen_counts(event_id: int, main_id: int) -> Field:
    """The clock's field (`events.hooks.field_counts`) from the stored counts of the main
    event and its flights (`main_id` is the event's own when it is one), and the event's
    chips in play summed over its entries: one statement, made again on every change the
    screens show (the figures: docs/load-and-faults.md)."""
    counts, c = sql_names(FieldCount, "c")
    entries, e = sql_names(Entry, "e")
    chips = (
        f"CASE WHEN {c['event_id']} = %s THEN (SELECT COALESCE(SUM({e['chips']}), 0) - "
        f"COALESCE(SUM({e['chips_removed']}), 0) FROM {entries} e "
        f"WHERE {e['event']} = %s) END"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {c['event_id']}, {c['entries']}, {c['carried']}, {c['active']}, "
            f"{c['paid_cents']}, {chips} FROM {counts} c "
            f"WHERE {c['event_id']} IN {standings.main_and_flights()}",
            [event_id, event_id, main_id, main_id],
        )
        rows = cursor.fetchall()
    own = whole = left = cents = in_play = 0
    for event, entered, carried, active, paid, bought in rows:
        counted = int(entered) - (int(carried) if event == main_id else 0)
        whole += counted
        cents += int(paid)
        if event == event_id:
            own, left, in_play = counted, int(active), int(bought)
    return Field(own, whole, left, Decimal(cents).scaleb(-2), in_play)


def level_now(event: Event):
    """The level being played (the next one during a break), from the clock."""
    from tdsystem.events.selectors import schedule

    clock = event.clock
    state = clockrules.ClockState(
        clock.status, clock.level_index, clock.ends_at, clock.remaining_ms, clock.version
    )
    rows = schedule(event)
    if not rows:
        raise ResultsError(gettext("the event has no levels"))
    state, _ = clockrules.settle(state, [s.duration_seconds for s in rows], timezone.now())
    index = min(state.level_index, len(rows) - 1)
    return next((s for s in rows[index:] if not s.is_break), rows[index])


def _table(finish: Finish) -> int:
    assert finish.bustout is not None  # a group's finish has its report
    return finish.bustout.table_number


def _seated_at(entry: Entry) -> EventTable:
    assert entry.table is not None  # the entries were checked seated before
    return entry.table


def _table_of(entries: Sequence[Entry], table_number: int | None) -> EventTable:
    """The table of the report: where the players sit (one table per report)."""
    if table_number is not None:
        strangers = [e for e in entries if _seated_at(e).number != table_number]
        if strangers:
            e = strangers[0]
            raise ResultsError(
                gettext("#%(number)s %(name)s sits at table %(table)s, not table %(asked)s")
                % {
                    "number": e.number,
                    "name": e.player.name,
                    "table": _seated_at(e).number,
                    "asked": table_number,
                },
                field="table",
            )
    tables = {_seated_at(e).number for e in entries}
    if len(tables) > 1:
        raise ResultsError(
            gettext(
                "these players sit at tables %(tables)s: record each table's bust-out on its own"
            )
            % {"tables": ", ".join(map(str, sorted(tables)))},
            field="entries",
        )
    return _seated_at(entries[0])


def _refuse_bagged(event: Event, entries: Sequence[Entry]) -> None:
    """In the last hands of a day (the table counts its hands down), a player whose stack
    is already in its bag is through to the next day: not out."""
    bag = (
        Bag.objects.filter(event=event, day=event.day, entry__in=entries)
        .select_related("entry__player")
        .first()
    )
    if bag is not None:
        raise ResultsError(
            gettext("#%(number)s %(name)s has bagged for the day (bag %(bag)s): not out")
            % {"number": bag.entry.number, "name": bag.entry.player.name, "bag": bag.number},
            field="entries",
        )


def _group_of(
    event: Event, hfh: HandForHand | None, hand: int | None, table: EventTable
) -> tuple[BustOutGroup | None, int]:
    """The hand-for-hand group the report joins (None: a new group), and the hand number."""
    if hfh is None:
        return None, hand if hand is not None else table.hand_number + 1
    number = hfh.hand if hand is None else hand
    if not 1 <= number <= hfh.hand:
        raise ResultsError(
            gettext("the hand-for-hand hand is 1 to %(hand)s (the one being played)")
            % {"hand": hfh.hand},
            field="hand",
        )
    return BustOutGroup.objects.filter(event=event, hfh_hand=number).first(), number


def _ante_due(
    event: Event,
    table: EventTable,
    entries: Sequence[Entry],
    stacks: Mapping[int, int | None],
    hand_no: int,
    hfh: HandForHand | None,
) -> decision.AnteDue | None:
    """The big blind ante of the hand, when the rule set ranks by the stack after it
    (`stack_after_ante`, TDA 2026) and a player out on it is the big blind with a stack
    given. None when the rule does not apply or the big blind of that hand is no longer
    known (the table has moved on)."""
    if not event.rules.stack_after_ante or event.ante_type not in BIG_BLIND_ANTES:
        return None
    big = next((e for e in entries if e.seat == table.big_blind), None)
    if big is None or stacks.get(big.pk) is None or table.big_blind is None:
        return None
    if hfh is not None:
        moved_on = (
            hand_no != hfh.hand
            or HandForHandReport.objects.filter(
                hand__event=event, hand__number=hand_no, table_number=table.number
            ).exists()
        )
    else:
        moved_on = hand_no != table.hand_number + 1
    if moved_on:
        return None
    level = level_now(event)
    return decision.AnteDue(
        seat=table.big_blind,
        ante=level.ante,
        big_blind=level.big_blind,
        blind_first=event.ante_type == AnteType.BIG_BLIND,
    )
