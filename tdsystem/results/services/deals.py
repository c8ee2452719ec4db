"""Deals among the players left: worked out by the engine (ICM or chip-chop), recorded, undone.

The players still in share the prizes of the places they hold (1..N). The counts the deal
is made on are the latest chip counts unless the director typed others; confirming a deal
records the typed counts as the latest (with who and when), stores each player's amount
(`DealShare`) and logs it. The finishing places and their prizes stay as they are: the
deal is shown beside them. Cancelling it keeps the row, marked cancelled, and is refused
once the event is finished.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.engine import deals as rules
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry

from ..errors import ResultsError
from ..models import ChipCount, ChipCountHistory, Deal, DealShare
from . import standings


@dataclass(frozen=True)
class DealRow:
    """One player left: the chips the deal is worked on, the place prize, the amount."""

    entry: Entry
    chips: int | None
    place: int
    place_prize: Decimal
    amount: Decimal | None = None


@dataclass(frozen=True)
class DealPreview:
    method: str
    rows: list[DealRow]
    play_for: Decimal
    unit: Decimal
    total: Decimal


def players_left(event: Event) -> list[Entry]:
    return list(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
        .select_related("player", "chip_count")
        .order_by("number")
    )


def latest_counts(entries: list[Entry]) -> dict[int, int]:
    counts = {}
    for entry in entries:
        count = getattr(entry, "chip_count", None)
        if count is not None:
            counts[entry.pk] = count.chips
    return counts


def standing_deal(event: Event) -> Deal | None:
    return (
        Deal.objects.filter(event=event, cancelled_at__isnull=True)
        .prefetch_related("shares__entry__player")
        .first()
    )


def deal_amounts(event: Event) -> dict[int, Decimal]:
    """The standing deal's amount by entry number ({} when no deal stands)."""
    rows = DealShare.objects.filter(deal__event=event, deal__cancelled_at__isnull=True)
    return dict(rows.values_list("entry__number", "amount"))


def deal_preview(
    *,
    event: Event,
    method: str,
    chips: Mapping[int, int] | None = None,
    play_for: Decimal = Decimal(0),
) -> DealPreview:
    """The deal the players left would get: each one's amount beside their place's prize.

    `chips` (entry id -> chips) overrides the latest counts. Raises ResultsError with the
    reason when no deal can be made (nothing is written either way).
    """
    entries = players_left(event)
    counts = {**latest_counts(entries), **(chips or {})}
    plan = standings.plan_or_default(event)
    fld = standings.field_read(event)
    prizes = standings.prizes_by_place(plan, fld.entries, fld.pool)
    rows = [
        DealRow(
            e, counts.get(e.pk), place, prizes[place - 1] if place <= len(prizes) else Decimal(0)
        )
        for place, e in enumerate(_by_chips(entries, counts), start=1)
    ]
    _refuse(rows, len(prizes))
    try:
        plan_ = rules.deal_plan(
            method=method,
            stacks=[r.chips or 0 for r in rows],
            prizes=[r.place_prize for r in rows],
            unit=plan.rounding,
            play_for=play_for,
        )
    except rules.DealError as exc:
        raise ResultsError(str(exc), field="play_for" if "play for" in str(exc) else None) from None
    rows = [
        DealRow(r.entry, r.chips, r.place, r.place_prize, amount)
        for r, amount in zip(rows, plan_.amounts, strict=True)
    ]
    return DealPreview(method, rows, play_for, plan.rounding, plan_.total)


def _by_chips(entries: list[Entry], counts: Mapping[int, int]) -> list[Entry]:
    return sorted(entries, key=lambda e: (-(counts.get(e.pk) or 0), e.number))


def _refuse(rows: list[DealRow], paid: int) -> None:
    if len(rows) < 2:
        raise ResultsError(_("a deal needs at least 2 players left"))
    if len(rows) > paid:
        raise ResultsError(
            _("%(left)s players left but only %(paid)s paid place(s): a deal shares paid places")
            % {"left": len(rows), "paid": paid}
        )
    if len(rows) > rules.MAX_ICM_PLAYERS:
        raise ResultsError(
            _("a deal is worked out for at most %(n)s players") % {"n": rules.MAX_ICM_PLAYERS}
        )
    missing = [f"#{r.entry.number}" for r in rows if r.chips is None]
    if missing:
        raise ResultsError(
            _("no chip count for %(who)s: count every stack first") % {"who": ", ".join(missing)}
        )
    if sum(r.chips or 0 for r in rows) == 0:
        raise ResultsError(_("the chip counts add up to 0: count the stacks first"))
    zero = [f"#{r.entry.number}" for r in rows if not r.chips]
    if zero:
        raise ResultsError(
            _("%(who)s has no chips: bust the player out first") % {"who": ", ".join(zero)}
        )


def deal_make(
    *,
    event_id: int,
    method: str,
    actor: Actor,
    chips: Mapping[int, int] | None = None,
    play_for: Decimal = Decimal(0),
) -> Deal:
    """Record the deal the preview shows, for the players left now; logged."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        if event.status == Event.Status.FINISHED:
            raise ResultsError(_("the event is finished: no deal can be made"))
        if Deal.objects.filter(event=event, cancelled_at__isnull=True).exists():
            raise ResultsError(_("a deal already stands: cancel it first to make another"))
        preview = deal_preview(event=event, method=method, chips=chips, play_for=play_for)
        now = timezone.now()
        _record_counts(event, preview.rows, now, actor)
        try:
            with transaction.atomic():
                deal = Deal.objects.create(
                    event=event,
                    method=method,
                    play_for=play_for,
                    unit=preview.unit,
                    total=preview.total,
                    made_at=now,
                    made_by=actor.label,
                )
        except IntegrityError:  # a second director confirming at the same moment
            raise ResultsError(
                _("a deal already stands: cancel it first to make another")
            ) from None
        DealShare.objects.bulk_create(
            DealShare(deal=deal, entry=r.entry, chips=r.chips or 0, amount=r.amount or 0)
            for r in preview.rows
        )
        shares = ", ".join(f"#{r.entry.number} {r.amount:,}" for r in preview.rows)
        log_record(
            event=event,
            actor=actor,
            action="results.deal",
            summary=Text(
                gettext_noop(
                    "Deal (%(method)s) of %(players)s players: %(shares)s; %(kept)s played for"
                )
                if play_for
                else gettext_noop("Deal (%(method)s) of %(players)s players: %(shares)s"),
                method=method,
                players=len(preview.rows),
                shares=shares,
                **({"kept": f"{play_for:,}"} if play_for else {}),
            ),
            data={
                "deal": deal.pk,
                "method": method,
                "play_for": str(play_for),
                "shares": {r.entry.number: str(r.amount) for r in preview.rows},
                "chips": {r.entry.number: r.chips for r in preview.rows},
            },
        )
    return deal


def _record_counts(event: Event, rows: list[DealRow], now, actor: Actor) -> None:
    """Counts typed for the deal that differ from the latest become the latest."""
    for row in rows:
        latest = getattr(row.entry, "chip_count", None)
        if row.chips is None or (latest is not None and latest.chips == row.chips):
            continue
        ChipCount.objects.update_or_create(
            entry=row.entry,
            defaults={
                "event": event,
                "chips": row.chips,
                "counted_at": now,
                "actor_label": actor.label,
            },
        )
        ChipCountHistory.objects.create(
            entry=row.entry, event=event, chips=row.chips, counted_at=now, actor_label=actor.label
        )


def deal_cancel(*, event_id: int, actor: Actor) -> Deal:
    """Cancel the standing deal (before the event finishes); the row is kept, marked."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        deal = Deal.objects.filter(event=event, cancelled_at__isnull=True).first()
        if deal is None:
            raise ResultsError(_("no deal stands in this event"))
        if event.status == Event.Status.FINISHED:
            raise ResultsError(_("the event is finished: its deal can no longer be cancelled"))
        deal.cancelled_at, deal.cancelled_by = timezone.now(), actor.label
        deal.save(update_fields=["cancelled_at", "cancelled_by"])
        log_record(
            event=event,
            actor=actor,
            action="results.deal_cancel",
            summary=Text(
                gettext_noop("Deal (%(method)s) of %(at)s cancelled"),
                method=deal.method,
                at=f"{deal.made_at:%H:%M}",
            ),
            data={"deal": deal.pk},
        )
    return deal
