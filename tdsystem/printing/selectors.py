"""The documents read from the event's rows: what each one says, as plain values."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.events.models import Event
from tdsystem.results.models import Bounty, DealShare, Finish
from tdsystem.results.selectors import money
from tdsystem.seating.models import Bag, Entry, Move, Purchase

from .documents import (
    ChipVoucher,
    Doc,
    EntryReceipt,
    MoveSlip,
    PayoutSlip,
    RedrawReceipt,
    SeatCard,
    TableBreak,
)
from .links import player_link, player_links


def _now() -> str:
    return timezone.now().isoformat()


def entry_receipt(purchase: Purchase) -> EntryReceipt:
    entry = purchase.entry
    return EntryReceipt(
        event=purchase.event.name,
        at=purchase.created_at.isoformat(),
        player=entry.player.name,
        entry=entry.number,
        kind=purchase.kind,
        amount=money(purchase.amount),
        fee=money(purchase.fee),
        chips=purchase.chips,
        cashier=purchase.actor_label,
    )


def entry_receipt_last(entry: Entry) -> EntryReceipt | None:
    """The receipt of the entry's latest buy."""
    purchase = Purchase.objects.filter(entry=entry).select_related("event", "entry__player").last()
    return entry_receipt(purchase) if purchase else None


def seat_card(entry: Entry, url: str | None = None) -> SeatCard | None:
    """The entry's seat card, or None while it has no seat; its QR code is the player's own
    page (`url` when the caller read it already)."""
    if entry.table_id is None or entry.seat is None:
        return None
    return SeatCard(
        event=entry.event.name,
        at=_now(),
        player=entry.player.name,
        entry=entry.number,
        table_number=entry.table.number,
        seat=entry.seat,
        url=url or player_link(entry),
        dealt_in=entry.seat not in (entry.table.sitting_out or []),
    )


def seat_cards(event: Event, table: int | None = None) -> list[SeatCard]:
    """Every seated player's card, by table and seat (one table's with `table`)."""
    rows = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
    if table is not None:
        rows = rows.filter(table__number=table)
    rows = list(rows.select_related("event", "player", "table").order_by("table__number", "seat"))
    urls = player_links(rows)
    cards = (seat_card(row, urls[row.pk]) for row in rows)
    return [card for card in cards if card is not None]


def move_documents(event: Event, move_ids: Sequence[int], *, per_table: bool) -> list[Doc]:
    """The slips of these moves: a redraw's one receipt of every seat; a break's one card
    per breaking table (`per_table`) or a slip per move; any other move's own slip."""
    moves = list(
        Move.objects.filter(event=event, pk__in=move_ids)
        .select_related("entry__player")
        .order_by("from_table", "from_seat", "id")
    )
    at = _now()
    out: list[Doc] = []
    if any(m.reason == Move.Reason.REDRAW for m in moves):
        out.append(redraw_receipt(event, tables=len({m.to_table for m in moves})))
        moves = [m for m in moves if m.reason != Move.Reason.REDRAW]
    breaking: dict[int, list[Move]] = defaultdict(list)
    for move in moves:
        if per_table and move.reason == Move.Reason.BREAK:
            breaking[move.from_table].append(move)
        else:
            out.append(move_slip(move, at=at))
    for table, slips in sorted(breaking.items()):
        out.append(
            TableBreak(
                event=event.name,
                at=at,
                table_number=table,
                moves=tuple(
                    (m.from_seat, m.entry.player.name, m.entry.number, m.to_table, m.to_seat)
                    for m in slips
                ),
            )
        )
    return out


def move_slip(move: Move, *, at: str | None = None) -> MoveSlip:
    return MoveSlip(
        event=move.event.name,
        at=at or _now(),
        player=move.entry.player.name,
        entry=move.entry.number,
        from_table=move.from_table,
        from_seat=move.from_seat,
        to_table=move.to_table,
        to_seat=move.to_seat,
        reason=move.reason,
        dealt_in=move.dealt_in,
    )


def redraw_receipt(event: Event, *, tables: int) -> RedrawReceipt:
    """Every seat of the event as it is now (after the redraw), by table and seat."""
    rows = (
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, table__isnull=False)
        .order_by("table__number", "seat")
        .values_list("table__number", "seat", "player__name", "number")
    )
    return RedrawReceipt(event=event.name, at=_now(), tables=tables, seats=tuple(rows))


def payout_slip(finish: Finish, *, paid_by: Actor | None = None) -> PayoutSlip:
    """The finish's payout: the deal's amount when the player was in the standing deal
    (the winner's with what was played for), bounties won; who pays, when printed by them."""
    entry = finish.entry
    share = (
        DealShare.objects.filter(entry=entry, deal__cancelled_at__isnull=True)
        .select_related("deal")
        .first()
    )
    deal = ""
    if share is not None:
        extra = share.deal.play_for if finish.is_winner else Decimal(0)
        deal = money(share.amount + extra)
    won = sum(
        Bounty.objects.filter(eliminator=entry, undone_at__isnull=True).values_list(
            "paid", flat=True
        ),
        Decimal(0),
    )
    return PayoutSlip(
        event=finish.event.name,
        at=_now(),
        player=entry.player.name,
        entry=entry.number,
        place=finish.place,
        place_to=finish.place_to,
        prize=money(finish.prize),
        deal=deal,
        bounties=money(won) if won else "",
        table_number=finish.bustout.table_number if finish.bustout_id else None,
        paid_by=paid_by.label if paid_by else "",
        paid_at=_now() if paid_by else "",
    )


def finishes_paid(event: Event, finish_ids: Sequence[int]) -> list[Finish]:
    """Of these finishes, the standing ones in the money (a prize, a deal or bounties)."""
    rows = Finish.objects.filter(event=event, pk__in=finish_ids, undone_at__isnull=True)
    rows = rows.select_related("event", "entry__player", "bustout").order_by("place", "id")
    return [f for f in rows if f.prize > 0 or _in_deal(f) or _won_bounties(f)]


def _in_deal(finish: Finish) -> bool:
    return DealShare.objects.filter(entry=finish.entry, deal__cancelled_at__isnull=True).exists()


def _won_bounties(finish: Finish) -> bool:
    return Bounty.objects.filter(
        eliminator=finish.entry, undone_at__isnull=True, paid__gt=0
    ).exists()


def finish_of(event: Event, entry_number: int) -> Finish | None:
    return (
        Finish.objects.filter(event=event, entry__number=entry_number, undone_at__isnull=True)
        .select_related("event", "entry__player", "bustout")
        .first()
    )


def chip_vouchers(event: Event, day: int | None = None) -> list[ChipVoucher]:
    """The bagged stacks of a day (the last day bagged when not given), by table and seat,
    each with the next day's seat once it is drawn (a flight's bag: its Day 2 entry's)."""
    bags = Bag.objects.filter(event=event)
    if day is None:
        day = bags.order_by("-day").values_list("day", flat=True).first()
        if day is None:
            return []
    rows = (
        bags.filter(day=day)
        .select_related("entry__player", "entry__table", "entry__carried_to__table")
        .order_by("table_number", "seat")
    )
    at = _now()
    out = []
    for bag in rows:
        seated = getattr(bag.entry, "carried_to", None) or bag.entry
        drawn = seated.table_id is not None and (seated is not bag.entry or event.day > day)
        out.append(
            ChipVoucher(
                event=event.name,
                at=at,
                day=day,
                player=bag.entry.player.name,
                entry=bag.entry.number,
                bag=bag.number,
                chips=bag.chips,
                table_number=bag.table_number,
                next_table=seated.table.number if drawn and seated.table else None,
                next_seat=seated.seat if drawn else None,
            )
        )
    return out
