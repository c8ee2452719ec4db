"""Places and prizes as rows: worked out by the engine, written back, kept up to date.

The engine gives the places from the field size and the bust-outs in order
(`places_for_groups`) and the prizes from the pool and the payout plan. A bust-out
normally adds one group at the end: only its rows are written (a constant number of
queries, whatever the field). When the field or the pool changed since the prizes were
worked out (a late entry, a rebuy), or an earlier group changed (an undo, a late
hand-for-hand report), every standing finish is worked out again.

Callers hold the event's row lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from django.db.models import Count, Q, Sum

from tdsystem.engine import payouts as rules
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry

from ..errors import ResultsError
from ..models import Finish, PayoutPlan

BATCH = 500


@dataclass(frozen=True)
class Field:
    entries: int
    active: int
    pool: Decimal


def field_read(event: Event) -> Field:
    """Entries, players left and the prize pool (Entry.paid already sums the purchases)."""
    agg = Entry.objects.filter(event=event).aggregate(
        entries=Count("id"),
        active=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        pool=Sum("paid"),
    )
    return Field(agg["entries"] or 0, agg["active"] or 0, agg["pool"] or Decimal(0))


def plan_for(event: Event) -> PayoutPlan:
    """The event's payout plan, made with the defaults the first time (under the lock)."""
    plan, _ = PayoutPlan.objects.get_or_create(event=event)
    return plan


def plan_or_default(event: Event) -> PayoutPlan:
    """For reads: the stored plan, or the default one without writing it."""
    return PayoutPlan.objects.filter(event=event).first() or PayoutPlan(event=event)


@lru_cache(maxsize=512)
def _prizes(
    table: str, percentages: tuple[str, ...], unit: Decimal, entries: int, pool: Decimal
) -> tuple[Decimal, ...]:
    plan = PayoutPlan(table=table, percentages=list(percentages), unit=unit)
    return tuple(rules.split_pool(pool, plan.table_percentages(entries), unit))


def prizes_by_place(plan: PayoutPlan, entries: int, pool: Decimal) -> tuple[Decimal, ...]:
    """The prize of each paid place; they add up to the pool exactly."""
    if entries < 1:
        return ()
    try:
        return _prizes(
            plan.table,
            tuple(str(p) for p in plan.percentages),
            Decimal(plan.unit),
            entries,
            Decimal(pool),
        )
    except rules.PayoutError as exc:
        raise ResultsError(f"the payout plan cannot be used: {exc}") from exc


def slots_of(finishes: Sequence[rules.Finish]) -> dict[int, int]:
    """Each finisher's own place within a tie's range, in entry order."""
    taken: dict[tuple[int, int], int] = {}
    slots = {}
    for finish in sorted(finishes, key=lambda f: (f.place, f.entry)):
        key = (finish.place, finish.place_to)
        slots[finish.entry] = finish.place + taken.get(key, 0)
        taken[key] = taken.get(key, 0) + 1
    return slots


def prizes_of(
    finishes: Sequence[rules.Finish], prizes: Sequence[Decimal], unit: Decimal
) -> dict[int, Decimal]:
    return rules.prizes_for(finishes, prizes, Decimal(unit))


def write_changes(rows: Iterable[Finish], fields: Sequence[str] = ("place", "place_to", "slot")):
    """Save changed finishes and their entries' place and prize.

    Slots are cleared first and then set, so two players trading places never meet on
    the one-player-per-place constraint half way.
    """
    rows = list(rows)
    if not rows:
        return
    Finish.objects.filter(pk__in=[r.pk for r in rows]).update(slot=None)
    Finish.objects.bulk_update(rows, [*fields, "prize"], batch_size=BATCH)
    Entry.objects.bulk_update(
        [Entry(pk=r.entry_id, place=r.place, prize=r.prize) for r in rows],
        ["place", "prize"],
        batch_size=BATCH,
    )


def standings_refresh(*, event: Event, plan: PayoutPlan, field: Field) -> int:
    """Work out every standing finish again; write those that changed. Returns how many."""
    rows = list(
        Finish.objects.filter(event=event, undone_at__isnull=True)
        .select_related("group")
        .only(
            "pk",
            "entry_id",
            "group__seq",
            "starting_stack",
            "place",
            "place_to",
            "slot",
            "prize",
            "is_winner",
        )
    )
    groups: dict[int, list[tuple[int, int]]] = {}
    winners = []
    for row in rows:
        if row.is_winner:
            winners.append(row)
        else:
            assert row.group is not None  # only the winner's finish has no bust-out group
            groups.setdefault(row.group.seq, []).append((row.entry_id, row.starting_stack or 0))
    ordered = [sorted(groups[seq]) for seq in sorted(groups)]
    try:
        finishes = rules.places_for_groups(field.entries, ordered)
    except rules.PayoutError as exc:
        raise ResultsError(f"the places cannot be worked out: {exc}") from exc
    finishes += [rules.Finish(w.entry_id, 1, 1) for w in winners]
    prizes = prizes_by_place(plan, field.entries, field.pool)
    won = prizes_of(finishes, prizes, plan.unit)
    slots = slots_of(finishes)
    by_entry = {f.entry: f for f in finishes}
    changed = []
    for row in rows:
        f = by_entry[row.entry_id]
        new = (f.place, f.place_to, slots[f.entry], won[f.entry])
        if (row.place, row.place_to, row.slot, row.prize) != new:
            row.place, row.place_to, row.slot, row.prize = new
            changed.append(row)
    write_changes(changed)
    PayoutPlan.objects.filter(pk=plan.pk).update(
        figured_entries=field.entries, figured_pool=field.pool
    )
    plan.figured_entries, plan.figured_pool = field.entries, field.pool
    return len(changed)


def is_current(plan: PayoutPlan, field: Field) -> bool:
    """Whether the stored prizes were worked out for this field and pool."""
    return plan.figured_entries == field.entries and Decimal(plan.figured_pool) == field.pool
