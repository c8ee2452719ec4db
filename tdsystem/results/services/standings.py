"""Places and prizes as rows: worked out by the engine, written back, kept up to date.

The places follow from the field size and the bust-outs in order, each group placed by
the event's rule set (`group_places`), and the prizes from the pool and the payout plan
(the engine's `split_pool`). A bust-out
normally adds one group at the end: only its rows are written (a constant number of
queries, whatever the field). When the field or the pool changed since the prizes were
worked out (a late entry, a rebuy), or an earlier group changed (an undo, a late
hand-for-hand report), every standing finish is worked out again.

Callers hold the event's row lock.
"""

from __future__ import annotations

import decimal
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext

from tdsystem.core.sql import sql_names, update_rows
from tdsystem.engine import payouts as rules
from tdsystem.engine import satellites
from tdsystem.engine.bustout import Out, places_in_order
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry
from tdsystem.seating.signals import PrizeChange

from ..errors import ResultsError
from ..models import Finish, PayoutPlan
from . import snapshot


@dataclass(frozen=True)
class Field:
    entries: int
    active: int
    pool: Decimal
    # The players the places count down from when it is not the field: on Day 2 of an
    # event played in flights, the Day 2 field (the flights' busts took flight places).
    start: int | None = None

    @property
    def places_from(self) -> int:
        return self.entries if self.start is None else self.start


def field_read(event: Event) -> Field:
    """Entries, players left and the prize pool of the places (Entry.paid already sums
    the purchases; a bounty event's heads are taken out of it, see services/bounties).

    An event played in flights (docs/festivals.md) counts the whole event: its flights'
    entries, re-entries included, and their buy-ins; its Day 2 entries carried from a
    flight are not entries again, and its places count down from its own field. A flight
    pays no prizes (pool 0): its players' prizes are its event's. One query either way.
    """
    entries, active, here, pool = snapshot.field_counts(event.pk)
    pool = pool - bounty_pool(event, entries)
    if event.parent_id is not None:
        pool = Decimal(0)
    start = here if here != entries else None
    return Field(entries, active, max(pool, Decimal(0)), start)


# SQLite returns a sum of decimals as an int or a float; Django reads it so (15 digits).
_SQLITE_SUM = decimal.Context(prec=15).create_decimal_from_float


def main_and_flights() -> str:
    """The ids of an event and of the flights under it, as a subquery for a statement
    written out by hand: its parameters, the event's id twice."""
    events, v = sql_names(Event, "v")
    return f"(SELECT {v['id']} FROM {events} v WHERE {v['id']} = %s OR {v['parent']} = %s)"


def field_counted(event_id: int) -> tuple[int, int, int, Decimal]:
    """`snapshot.field_counts` counted from the entries themselves, one statement over the field:
    what the stored counts must agree with (the simulations' full checks compare them).

    Shaped for the `entry_field` index: the event and its flights listed first by the
    events' own keys, their entries then found by event in that index, which holds every
    column read here, so no entry row is read.
    """
    entries, e = sql_names(Entry, "e")
    sql = (
        f"SELECT COUNT(CASE WHEN NOT ({e['event']} = %s AND {e['carried_from']} IS NOT NULL) "
        f"THEN {e['event']} END), "
        f"COUNT(CASE WHEN {e['event']} = %s AND {e['status']} = %s THEN {e['event']} END), "
        f"COUNT(CASE WHEN {e['event']} = %s THEN {e['event']} END), "
        f"SUM({e['paid']}) "
        f"FROM {entries} e WHERE {e['event']} IN {main_and_flights()}"
    )
    with connection.cursor() as cursor:
        params: list[int | str] = [event_id, event_id, str(Entry.Status.ACTIVE), *[event_id] * 3]
        cursor.execute(sql, params)
        entries, active, here, pool = cursor.fetchone()
    if pool is None:
        pool = Decimal(0)
    elif not isinstance(pool, Decimal):
        pool = _SQLITE_SUM(pool)
    return entries or 0, active or 0, here or 0, pool


def bounty_pool(event: Event, entries: int) -> Decimal:
    """The part of the buy-ins that are bounties: one head per entry."""
    if not event.has_bounties:
        return Decimal(0)
    return Decimal(event.bounty_amount) * entries


def plan_for(event: Event) -> PayoutPlan:
    """The event's payout plan, made with the defaults the first time (under the lock)."""
    plan, _ = PayoutPlan.objects.get_or_create(event=event)
    plan.event = event  # read by prizes_by_place, without a query
    return plan


def plan_or_default(event: Event) -> PayoutPlan:
    """For reads: the stored plan, or the default one without writing it."""
    plan = PayoutPlan.objects.filter(event=event).first() or PayoutPlan(event=event)
    plan.event = event  # read by prizes_by_place, without a query
    return plan


@lru_cache(maxsize=512)
def _prizes(
    table: str, percentages: tuple[str, ...], unit: Decimal, entries: int, pool: Decimal
) -> tuple[Decimal, ...]:
    plan = PayoutPlan(table=table, percentages=list(percentages), unit=unit)
    return tuple(rules.split_pool(pool, plan.table_percentages(entries), unit))


def prizes_by_place(plan: PayoutPlan, entries: int, pool: Decimal) -> tuple[Decimal, ...]:
    """The prize of each paid place; they add up to the pool exactly.

    A satellite pays seats in its target (each worth the target's buy-in and fee) and the
    rest in cash to the next place; a pool too small for one seat is paid by the plan."""
    if entries < 1:
        return ()
    event = plan.event
    if event.satellite_target_id is not None:
        target = event.satellite_target
        assert target is not None
        value = Decimal(target.buy_in) + Decimal(target.fee)
        seats = satellites.satellite_prizes(Decimal(pool), value) if value > 0 else ()
        if seats:
            return seats
    try:
        return _prizes(
            plan.table,
            tuple(str(p) for p in plan.percentages),
            plan.rounding,
            entries,
            Decimal(pool),
        )
    except rules.PayoutError as exc:
        raise ResultsError(
            gettext("the payout plan cannot be used: %(reason)s") % {"reason": exc}
        ) from exc


def unpaid_message(plan: PayoutPlan, entries: int, pool: Decimal) -> str | None:
    """Why the plan's rounding unit leaves a paid place of this field with nothing (the
    payout page refuses such a unit and warns when a grown field makes it so), or None."""
    if entries < 1:
        return None
    try:
        percentages = plan.table_percentages(entries)
        place = rules.unpaid_place(Decimal(pool), percentages, plan.rounding)
    except rules.PayoutError:
        return None  # the plan itself cannot be used: prizes_by_place says why
    if place is None:
        return None
    unit = plan.rounding
    share = Decimal(pool) * percentages[place - 1] / 100
    message = gettext(
        "rounding to %(unit)s leaves place %(place)s with nothing (its share of the "
        "%(pool)s pool is %(share)s)"
    ) % {"unit": _amount(unit), "place": place, "pool": _amount(pool), "share": _amount(share)}
    better = rules.largest_paying_unit(Decimal(pool), percentages, below=unit)
    if better is not None:
        message += gettext(": round to %(unit)s or less") % {"unit": _amount(better)}
    return message


def _amount(value: Decimal) -> str:
    """1234.5 -> "1,234.50", 1200 -> "1,200" (as the pages show money)."""
    value = Decimal(value)
    if value == value.to_integral_value():
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def prizes_of(
    finishes: Sequence[rules.Finish], prizes: Sequence[Decimal], unit: Decimal
) -> dict[int, Decimal]:
    return rules.prizes_for(finishes, prizes, Decimal(unit))


def write_changes(
    rows: Iterable[Finish],
    fields: Sequence[str] = ("place", "place_to", "slot"),
    *,
    slots_cleared: bool = False,
):
    """Save changed finishes.

    Slots are cleared first (unless the caller has) and then set, so two players trading
    places never meet on the one-player-per-place constraint half way.

    Written a row a statement (`update_rows`), not by bulk_update, whose CASE over 500 ids
    a batch is evaluated row by row (PostgreSQL) and built in Python. Rows that only move
    by a number of places go through `shift_places` instead.
    """
    rows = list(rows)
    if not rows:
        return
    if not slots_cleared:
        Finish.objects.filter(pk__in=[r.pk for r in rows]).update(slot=None)
    update_rows(
        Finish,
        [*fields, "prize"],
        [(r.pk, *(getattr(r, name) for name in fields), r.prize) for r in rows],
    )


# A standing finish as read: (pk, entry, place, place_to, slot, prize, paid_at).
StoredRow = tuple[int, int, int, int, int | None, Decimal, object]
# What the rules give it now: (place, place_to, slot, prize).
WorkedOut = tuple[int, int, int, Decimal]


def standings_work_out(
    *, event: Event, plan: PayoutPlan, field: Field, since: int | None = None
) -> tuple[list[StoredRow], dict[int, WorkedOut]]:
    """Every standing finish worked out again for `field`, nothing written: the rows as
    stored and, by entry, what the rules give each now.

    The finishes are read as tuples: a re-entry in a flight works every place out again,
    and reading 2,000 finishes as model rows with their groups and reports cost 45 ms of
    CPU on PostgreSQL, as tuples 3 ms.

    `since` is the `seq` of the first group that changed (an undo's). The places are
    worked out group after group, each from the players left before it
    (`places_in_order`), so the groups before it keep theirs and their prizes while the
    stored ones are current (`is_current`): only the later groups' finishes are read,
    the earlier ones counted. The undo of the last bust-out of 10,000 reads a handful.
    """
    standing = Finish.objects.filter(event=event, undone_at__isnull=True)
    before = 0  # players out in the groups not read
    if since is not None and is_current(plan, field):
        before = standing.filter(is_winner=False, group__seq__lt=since).count()
        standing = standing.filter(Q(group__seq__gte=since) | Q(is_winner=True))
    read = standing.values_list(
        "pk",
        "entry_id",
        "group_id",
        "group__seq",
        "group__hfh_hand",
        "bustout__table_number",
        "starting_stack",
        "place",
        "place_to",
        "slot",
        "prize",
        "is_winner",
        "paid_at",
    )
    groups: dict[int, tuple[bool, list[Out]]] = {}
    winners = []
    rows: list[StoredRow] = []
    for (
        pk,
        entry,
        group,
        seq,
        hfh_hand,
        table,
        stack,
        place,
        place_to,
        slot,
        prize,
        is_winner,
        paid_at,
    ) in read:
        rows.append((pk, entry, place, place_to, slot, prize, paid_at))
        if is_winner:
            winners.append(entry)
            continue
        if group is None:
            continue  # a satellite's seat winner, play stopped: kept as awarded (satellites)
        assert table is not None  # a bust-out's finish has its report
        _, members = groups.setdefault(seq, (hfh_hand is not None, []))
        members.append(Out(entry, stack or 0, table))
    prizes = prizes_by_place(plan, field.entries, field.pool)
    try:
        placed = places_in_order(
            field.places_from - before,
            [groups[seq] for seq in sorted(groups)],
            event.rules,
            len(prizes),
        )
    except rules.PayoutError as exc:
        raise ResultsError(
            gettext("the places cannot be worked out: %(reason)s") % {"reason": exc}
        ) from exc
    winner_finishes = [rules.Finish(entry, 1, 1) for entry in winners]
    won = rules.prizes_for(winner_finishes, prizes, plan.rounding)
    slots = {f.entry: 1 for f in winner_finishes}
    by_entry = {f.entry: f for f in winner_finishes}
    for placed_group in placed:
        won |= placed_group.prizes(prizes, plan.rounding)
        slots |= placed_group.slots
        by_entry |= {f.entry: f for f in placed_group.finishes}
    worked = {e: (f.place, f.place_to, slots[e], won[e]) for e, f in by_entry.items()}
    return rows, worked


def paid_changed(rows: Sequence[StoredRow], worked: Mapping[int, WorkedOut]) -> list[int]:
    """The entries whose prize is marked paid and whose place or prize would change."""
    return [
        entry
        for _pk, entry, place, place_to, _slot, prize, paid_at in rows
        if paid_at is not None
        and entry in worked
        and (place, place_to, prize) != (worked[entry][0], worked[entry][1], worked[entry][3])
    ]


def paid_refusal(event: Event, entries: Sequence[int]) -> ResultsError:
    """The refusal of a change to prizes already paid, naming them."""
    rows = (
        Finish.objects.filter(event=event, undone_at__isnull=True, entry_id__in=list(entries))
        .select_related("entry__player")
        .order_by("place", "entry_id")
    )
    named = "; ".join(
        gettext("#%(number)s %(name)s, place %(place)s, %(prize)s")
        % {
            "number": f.entry.number,
            "name": f.entry.player.name,
            "place": f.place_label,
            "prize": _amount(f.prize),
        }
        for f in rows[:5]
    )
    return ResultsError(
        gettext("it would change a prize already paid (%(paid)s): a paid prize is never changed")
        % {"paid": named + ("; …" if len(entries) > 5 else "")}
    )


def standings_refresh(
    *, event: Event, plan: PayoutPlan, field: Field, since: int | None = None
) -> int:
    """Work out every standing finish again; write those that changed. Returns how many.

    Refused (ResultsError, nothing written) when a prize already marked paid would change.
    See `standings_work_out` for `since`.
    """
    rows, worked = standings_work_out(event=event, plan=plan, field=field, since=since)
    paid = paid_changed(rows, worked)
    if paid:
        raise paid_refusal(event, paid)
    changed = []
    shifted: dict[int, list[int]] = {}
    for pk, entry, place, place_to, slot, prize, _paid_at in rows:
        new = worked.get(entry)
        if new is None:
            continue
        if (place, place_to, slot, prize) == new:
            continue
        by = new[0] - place
        if new == (place + by, place_to + by, None if slot is None else slot + by, prize):
            shifted.setdefault(by, []).append(pk)
            continue
        place, place_to, slot, prize = new
        changed.append(
            Finish(pk=pk, entry_id=entry, place=place, place_to=place_to, slot=slot, prize=prize)
        )
    if changed:
        # Their slots out of the way of the shifted rows' (set again by write_changes).
        Finish.objects.filter(pk__in=[r.pk for r in changed]).update(slot=None)
    shift_places(shifted)
    write_changes(changed, slots_cleared=True)
    PayoutPlan.objects.filter(pk=plan.pk).update(
        figured_entries=field.entries, figured_pool=field.pool
    )
    plan.figured_entries, plan.figured_pool = field.entries, field.pool
    return len(changed) + sum(map(len, shifted.values()))


def field_change_preview(event: Event, *, entries: int, pool: Decimal) -> list[PrizeChange]:
    """What `entries` more entries and `pool` more in the prize pool would change among the
    finishes in the money (a prize before or after), nothing written: the places and
    prizes moved, paid ones marked. Empty while nobody is out. A payout plan the new field
    cannot use changes nothing here (the payouts page says why). A flight pays no prizes:
    nothing of its changes."""
    if event.parent_id is not None:
        return []
    if not Finish.objects.filter(event=event, undone_at__isnull=True).exists():
        return []
    now = field_read(event)
    start = None if now.start is None else now.start + entries
    added = pool - bounty_pool(event, entries)  # the places' part: a bounty's head is not
    after = Field(
        now.entries + entries, now.active + entries, max(now.pool + added, Decimal(0)), start
    )
    plan = plan_or_default(event)
    try:
        rows, worked = standings_work_out(event=event, plan=plan, field=after)
    except ResultsError:
        return []
    moved = {}
    for _pk, entry, place, place_to, _slot, prize, paid_at in rows:
        new = worked.get(entry)
        if new is None or (place, place_to, prize) == (new[0], new[1], new[3]):
            continue
        if not prize and not new[3]:
            continue  # out of the money before and after: only its place moves
        moved[entry] = (place, place_to, prize, new, paid_at is not None)
    if not moved:
        return []
    who = {
        pk: (number, name)
        for pk, number, name in Entry.objects.filter(pk__in=list(moved)).values_list(
            "pk", "number", "player__name"
        )
    }
    ordered = sorted(moved.items(), key=lambda item: (item[1][0], who[item[0]][0]))
    return [
        PrizeChange(
            number=who[entry][0],
            name=who[entry][1],
            place_before=rules.place_label(place, place_to),
            place_after=rules.place_label(new[0], new[1]),
            prize_before=Decimal(prize),
            prize_after=Decimal(new[3]),
            paid=paid,
        )
        for entry, (place, place_to, prize, new, paid) in ordered
    ]


# Above any place: the rows shifted are lifted clear of every other place first.
_APART = 1_000_000_000
_BATCH = 500  # ids a statement (SQLite's limit on parameters is 999 in older builds)


def shift_places(shifted: Mapping[int, Sequence[int]]) -> None:
    """Move finishes (by id) by a number of places, their tie ranges and slots with them:
    a few statements for thousands of rows.

    A re-entry or a late registration while players are already out moves every place
    taken by one (the field grew by one), prizes unchanged; written a row a statement,
    that was three statements for each finish of the field at every re-entry, a cost
    growing with the square of the field (a flight of 6,250). The rows are lifted above
    every place and then set down, so no row meets another's slot half way (the
    one-player-per-place constraint is checked row by row).
    """
    if not shifted:
        return
    finishes, f = sql_names(Finish)
    move = (
        f"UPDATE {finishes} SET {f['place']} = {f['place']} + %s, "
        f"{f['place_to']} = {f['place_to']} + %s, {f['slot']} = {f['slot']} + %s "
        f"WHERE {f['pk']} IN "
    )
    with connection.cursor() as cursor:
        for step in ("lift", "set down"):
            for by, rows in shifted.items():
                offset = by + _APART if step == "lift" else -_APART
                for marks, ids in _batches(list(rows)):
                    cursor.execute(f"{move}({marks})", [offset] * 3 + ids)


def _batches(ids: list[int]) -> Iterable[tuple[str, list[int]]]:
    """The ids _BATCH at a time, each batch with its placeholders ("%s, %s, ...")."""
    for start in range(0, len(ids), _BATCH):
        batch = ids[start : start + _BATCH]
        yield ", ".join(["%s"] * len(batch)), batch


def is_current(plan: PayoutPlan, field: Field) -> bool:
    """Whether the stored prizes were worked out for this field and pool."""
    return plan.figured_entries == field.entries and Decimal(plan.figured_pool) == field.pool
