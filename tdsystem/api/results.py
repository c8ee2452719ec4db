"""Bust-outs and results: report and undo bust-outs; the public standings with prizes;
chip counts (the count list, public; a table's counts, staff)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Status

from tdsystem.core.actors import Actor
from tdsystem.results import selectors, services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import Finish as FinishRow
from tdsystem.results.selectors_chips import ChipTotal, CountRow, chip_total, count_rows
from tdsystem.results.services.cashier import prize_paid_set
from tdsystem.results.services.chips import chip_counts_record
from tdsystem.seating.models import Entry
from tdsystem.seating.selectors import move_json

from .auth import AuthedRequest, StaffToken
from .common import READ_ERRORS, WRITE_ERRORS, event_exists, event_found
from .schemas import (
    BustOutIn,
    BustOutRecorded,
    BustOutUndone,
    ChipCounts,
    ChipCountsIn,
    ChipCountsSaved,
    PrizePaidIn,
    ResultRow,
    Results,
)

router = Router(tags=["Bust-outs and results"], exclude_unset=True)
EVENT = "/events/{int:event_id}"
bustout = StaffToken("bustout")


def finish_json(finish: FinishRow) -> dict:
    return {
        "entry": finish.entry.number,
        "player": finish.entry.player.name,
        "place": finish.place,
        "place_to": finish.place_to,
        "place_label": finish.place_label,
        "prize": selectors.money(finish.prize),
        "starting_stack": finish.starting_stack,
    }


def seat_back_json(entry: Entry) -> dict:
    """A player an undo put back. bustout_undo refuses when a player's table is gone, so
    an entry it gives back without a table or seat is a bug: a 500, not an answer."""
    if entry.table is None or entry.seat is None:
        raise RuntimeError(f"entry {entry.pk} given back by an undo without a seat")
    return {
        "entry": entry.number,
        "player": entry.player.name,
        "table": entry.table.number,
        "seat": entry.seat,
    }


def entry_ids(event_id: int, report: BustOutIn) -> tuple[list[int], dict[int, int]]:
    """The report's entry numbers as entry ids, and its stacks by entry id."""
    ids = dict(
        Entry.objects.filter(
            event_id=event_id, number__in=[*report.entries, *report.eliminated_by]
        ).values_list("number", "pk")
    )
    for name, numbers in (("entries", report.entries), ("eliminated_by", report.eliminated_by)):
        unknown = [n for n in numbers if n not in ids]
        if unknown:
            message = _("no entry #%(number)s in this event") % {"number": unknown[0]}
            raise ResultsError(message, field=name)
    stacks = {ids[int(number)]: chips for number, chips in report.stacks.items()}
    return [ids[n] for n in report.entries], stacks


def eliminators(event_id: int, report: BustOutIn) -> list[int]:
    """The report's eliminators' entry numbers as entry ids (entry_ids checked them)."""
    ids = dict(
        Entry.objects.filter(event_id=event_id, number__in=report.eliminated_by).values_list(
            "number", "pk"
        )
    )
    return [ids[n] for n in report.eliminated_by]


@router.get(
    EVENT + "/results",
    response={200: Results, **READ_ERRORS},
    url_name="results",
    summary="Read the results",
    description="Standings and prizes as they stand now: the pool, the payouts by place and "
    "every finished player.",
)
def results(request: HttpRequest, event_id: int):
    return selectors.results_payload(event_found(event_id))


@router.post(
    EVENT + "/results/{int:number}/paid",
    auth=StaffToken("seating"),
    response={200: ResultRow, **WRITE_ERRORS},
    url_name="prize_paid",
    summary="Mark a prize paid",
    description="The cashier's mark on entry `number`'s prize (`paid` false takes it back). "
    "From then on the prize never changes: a late entry, a rebuy, a payout plan or an undo "
    "that would change it is refused. 409 for an entry without a prize.",
)
def prize_paid(request: AuthedRequest, event_id: int, number: int, payload: PrizePaidIn):
    event_exists(event_id)
    finish = prize_paid_set(
        event_id=event_id, entry_number=number, paid=payload.paid, actor=Actor.of(request.auth)
    )
    return {
        "place": finish.place,
        "place_to": finish.place_to,
        "place_label": finish.place_label,
        "player": finish.entry.player.name,
        "entry": number,
        "prize": selectors.money(finish.prize),
        "paid": finish.paid_at is not None,
    }


@router.post(
    EVENT + "/bustouts",
    auth=bustout,
    response={201: BustOutRecorded, **WRITE_ERRORS},
    url_name="bustout",
    summary="Report a bust-out",
    description='One hand\'s players out (one player: `{"entries": [n]}`), with places, '
    "prizes, balancing moves and the winner when one player is left. 409 when a player is "
    "out already.",
)
def record(request: AuthedRequest, event_id: int, payload: BustOutIn):
    event_exists(event_id)
    ids, stacks = entry_ids(event_id, payload)
    done = services.bustout_record(
        event_id=event_id,
        entry_ids=ids,
        table_number=payload.table,
        hand=payload.hand,
        stacks=stacks,
        eliminated_by=eliminators(event_id, payload),
        actor=Actor.of(request.auth),
    )
    rebalance = done.rebalance
    moves = (
        done.bustout.moves.select_related("entry__player").order_by("pk")
        if rebalance and rebalance.moves
        else []
    )
    group = sorted(done.group, key=lambda f: (f.place, f.entry_id))
    body = {
        "bustout": done.bustout.pk,
        "table": done.bustout.table_number,
        "hand": done.bustout.hand,
        "hand_for_hand": done.bustout.group.hfh_hand is not None,
        "finishes": [finish_json(f) for f in done.finishes],
        "group": [finish_json(f) for f in group],
        "players_left": done.players_left,
        "rebalance": rebalance.kind if rebalance else None,
        "broken": rebalance.broken if rebalance else [],
        "moves": [move_json(m) for m in moves],
        "winner": finish_json(done.winner) if done.winner else None,
    }
    return Status(201, body)


@router.post(
    EVENT + "/bustouts/{int:bustout_id}/undo",
    auth=bustout,
    response={200: BustOutUndone, **WRITE_ERRORS},
    url_name="undo",
    summary="Undo a bust-out",
    description="Puts the players back in their seats and withdraws the moves it caused. 409 "
    "when later actions clash (undo those first).",
)
def undo(request: AuthedRequest, event_id: int, bustout_id: int):
    event_exists(event_id)
    undone = services.bustout_undo(
        event_id=event_id, bustout_id=bustout_id, actor=Actor.of(request.auth)
    )
    return {
        "bustout": undone.bustout.pk,
        "undone": True,
        "entries": [seat_back_json(e) for e in undone.entries],
        "moves_withdrawn": undone.moves_reverted,
        "tables_back_in_play": undone.tables_restored,
    }


def count_json(row: CountRow) -> dict:
    entry, count = row.entry, row.count
    return {
        "rank": row.rank,
        "entry": entry.number,
        "player": entry.player.name,
        "table": entry.table.number if entry.table else None,
        "seat": entry.seat,
        "chips": count.chips if count else None,
        "counted_at": count.counted_at.isoformat() if count else None,
    }


def total_json(total: ChipTotal) -> dict:
    return {
        "chips_in_play": total.in_play,
        "counted_chips": total.counted_chips,
        "counted": total.counted,
        "players_left": total.players,
        "all_counted": total.all_counted,
        "difference": total.difference if total.all_counted else None,
        "summary": total.summary,
        "warning": total.warning,
    }


@router.get(
    EVENT + "/chips",
    response={200: ChipCounts, **READ_ERRORS},
    url_name="chips",
    summary="Read the chip counts",
    description="The players still in by their latest chip count (largest first), then those "
    "never counted; the counted total against the chips in play.",
)
def chips(request: HttpRequest, event_id: int):
    event = event_found(event_id)
    rows = count_rows(event)
    return {
        "event": {"id": event.pk, "name": event.name, "status": event.status},
        "total": total_json(chip_total(event, rows)),
        "counts": [count_json(r) for r in rows],
    }


@router.post(
    EVENT + "/chip-counts",
    auth=bustout,
    response={200: ChipCountsSaved, **WRITE_ERRORS},
    url_name="chip_counts",
    summary="Record chip counts",
    description="One or more players' counts, recorded together or not at all; each is "
    "kept in the history with who and when. With `table`, every player must sit there. "
    "400 naming the player when one is out, unknown or elsewhere.",
)
def chip_counts(request: AuthedRequest, event_id: int, payload: ChipCountsIn):
    event_exists(event_id)
    done = chip_counts_record(
        event_id=event_id,
        counts={c.entry: c.chips for c in payload.counts},
        actor=Actor.of(request.auth),
        table=payload.table,
    )
    saved = {c.entry_id for c in done}
    event = event_found(event_id)
    rows = count_rows(event)
    return {
        "saved": len(done),
        "table": payload.table,
        "counts": [count_json(r) for r in rows if r.entry.pk in saved],
        "total": total_json(chip_total(event, rows)),
    }
