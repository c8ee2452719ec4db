"""Undoing a bust-out: the players sit down again and the moves it caused are taken back.

An undo changes nothing when something done since depends on the bust-out: a later
bust-out at a table it touched, a move slip already carried out, a mover who moved or
busted since, a seat taken since, a broken table put back into use, a re-entry. The
answer then says which, plainly.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.log import log_record
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, Move

from ..errors import ResultsError
from ..models import BustOut, Finish
from . import bounties, standings
from .bustouts import TABLE_STATE
from .locks import event_lock


@dataclass(frozen=True)
class Undone:
    bustout: BustOut
    entries: list[Entry]
    moves_reverted: int
    tables_restored: list[int]


def bustout_undo(*, event_id: int, bustout_id: int, actor: Actor) -> Undone:
    """Take a bust-out back, with the unacknowledged moves it caused; log who did it."""
    with transaction.atomic():
        event = event_lock(event_id)
        bustout = (
            BustOut.objects.select_for_update(of=("self",))
            .select_related("group")
            .filter(pk=bustout_id, event=event)
            .first()
        )
        if bustout is None:
            raise ResultsError(f"no bust-out {bustout_id} in this event", field="bustout")
        if bustout.undone_at is not None:
            raise ResultsError(
                f"this bust-out was undone already ({bustout.undone_by}, "
                f"{timezone.localtime(bustout.undone_at):%H:%M})"
            )
        if event.status == Event.Status.FINISHED:
            raise ResultsError(
                "the event has finished and its clock is stopped: a finished event cannot "
                "be reopened"
            )
        finishes = list(
            bustout.finishes.filter(undone_at__isnull=True, is_winner=False).select_related(
                "entry__player", "from_table"
            )
        )
        moves = list(bustout.moves.select_related("entry__player").order_by("pk"))
        snapshot = bustout.rebalance.get("tables", {})
        broken = [int(n) for n in bustout.rebalance.get("broken", [])]
        tables = _tables(event, finishes, moves, snapshot)
        _refuse_conflicts(event, bustout, finishes, moves, tables, broken)
        bounties.bounties_undo_check(bustout)
        entries = _apply(event, bustout, finishes, moves, tables, snapshot, broken, actor)
        standings.standings_refresh(
            event=event, plan=standings.plan_for(event), field=standings.field_read(event)
        )
        _log(event, bustout, entries, moves, broken, actor)
    return Undone(bustout, entries, len(moves), broken)


def _tables(event, finishes, moves, snapshot) -> dict[int, EventTable]:
    """The event's tables the undo touches, locked (after the event, before the entries)."""
    numbers = {f.from_table.number for f in finishes if f.from_table}
    numbers |= {m.from_table for m in moves} | {m.to_table for m in moves}
    numbers |= {int(n) for n in snapshot}
    rows = EventTable.objects.select_for_update().filter(event=event, number__in=numbers)
    return {t.number: t for t in rows.order_by("pk")}


def _refuse_conflicts(event, bustout, finishes, moves, tables, broken) -> None:
    if any(f.from_table is None for f in finishes):
        raise ResultsError("a table these players sat at no longer exists")
    numbers = {bustout.table_number} | {m.from_table for m in moves} | {m.to_table for m in moves}
    later = (
        BustOut.objects.filter(event=event, undone_at__isnull=True, pk__gt=bustout.pk)
        .filter(
            Q(table_number__in=numbers)
            | Q(moves__from_table__in=numbers)
            | Q(moves__to_table__in=numbers)
        )
        .order_by("pk")
        .first()
    )
    if later is not None:
        raise ResultsError(
            f"there has been a later bust-out at table {later.table_number} "
            f"({timezone.localtime(later.recorded_at):%H:%M}): undo that one first"
        )
    done = [m for m in moves if m.acknowledged_at]
    if done:
        m = done[0]
        raise ResultsError(
            f"the move of {m.entry.player.name} to table {m.to_table} seat {m.to_seat} "
            "has been carried out: move the player back by hand first"
        )
    for number in broken:
        table = tables.get(number)
        if table is None or table.in_play:
            raise ResultsError(f"table {number} broke then and has been put into play again")
        if EventTable.objects.filter(venue_table=table.venue_table_id, in_play=True).exists():
            raise ResultsError(f"table {number} broke then and is in use by another event now")
    movers = {m.entry_id: m for m in moves}
    seated = {
        e.pk: e
        for e in Entry.objects.select_for_update(of=("self",))
        .filter(pk__in=movers)
        .select_related("player", "table")
        .order_by("pk")
    }
    for entry_id, move in movers.items():
        entry = seated[entry_id]
        where = (entry.table.number if entry.table else None, entry.seat)
        if entry.status != Entry.Status.ACTIVE or where != (move.to_table, move.to_seat):
            raise ResultsError(
                f"{entry.player.name} has moved or busted since the move to table "
                f"{move.to_table} seat {move.to_seat}"
            )
    # A re-entry first: it is the reason, even when the new entry sits in the old seat.
    players = [f.entry for f in finishes]
    again = (
        Entry.objects.filter(
            event=event, player__in=[e.player_id for e in players], status=Entry.Status.ACTIVE
        )
        .select_related("player")
        .first()
    )
    if again is not None:
        raise ResultsError(
            f"{again.player.name} has re-entered (entry #{again.number}): "
            "undo would give them two entries"
        )
    # The seats the undo fills, once the movers have left the seats they were given.
    wanted = {(f.from_table.number, f.from_seat): f.entry for f in finishes}
    wanted |= {(m.from_table, m.from_seat): m.entry for m in moves}
    leaving = set(movers)
    for (number, seat), entry in wanted.items():
        table = tables.get(number)
        if table is None or (not table.in_play and number not in broken):
            raise ResultsError(f"table {number} is no longer in play")
        taken = (
            Entry.objects.filter(table=table, seat=seat, status=Entry.Status.ACTIVE)
            .exclude(pk__in=leaving)
            .select_related("player")
            .first()
        )
        if taken is not None:
            raise ResultsError(
                f"table {number} seat {seat} is taken by {taken.player.name} since: "
                f"{entry.player.name} cannot sit down there again"
            )


def _apply(event, bustout, finishes, moves, tables, snapshot, broken, actor) -> list[Entry]:
    now = timezone.now()
    restored = []
    for number, state in snapshot.items():
        table = tables.get(int(number))
        # A table that has dealt since keeps its button: the hands played stand.
        if table is None or (table.in_play and table.hand_number != state["hand_number"]):
            continue
        for name in TABLE_STATE:
            setattr(table, name, state[name])
        if table.number in broken:
            table.in_play, table.broken_at = True, None
        restored.append(table)
    EventTable.objects.bulk_update(restored, [*TABLE_STATE, "in_play", "broken_at"])
    movers = [m.entry_id for m in moves]
    Entry.objects.filter(pk__in=movers).update(table=None, seat=None)
    Entry.objects.bulk_update(
        [Entry(pk=m.entry_id, table_id=tables[m.from_table].pk, seat=m.from_seat) for m in moves],
        ["table", "seat"],
    )
    Move.objects.filter(pk__in=[m.pk for m in moves]).delete()
    entries = []
    for f in finishes:
        entry = f.entry
        entry.status, entry.table, entry.seat = Entry.Status.ACTIVE, f.from_table, f.from_seat
        entry.busted_at, entry.place, entry.prize = None, None, None
        entry.chips_removed = max(0, entry.chips_removed - f.chips_removed)
        entries.append(entry)
    Finish.objects.filter(pk__in=[f.pk for f in finishes]).update(undone_at=now, slot=None)
    Entry.objects.bulk_update(
        entries, ["status", "table", "seat", "busted_at", "place", "prize", "chips_removed"]
    )
    BustOut.objects.filter(pk=bustout.pk).update(undone_at=now, undone_by=actor.label)
    bounties.bounties_undo(bustout, now)
    bustout.undone_at, bustout.undone_by = now, actor.label
    # The console's log marks the bust-out's entry undone, as it does an undone clock action.
    LogEntry.objects.filter(
        event=event, action="bustout.record", data__bustout=bustout.pk, undone_at__isnull=True
    ).update(undone_at=now)
    return entries


def _log(event, bustout, entries, moves, broken, actor) -> None:
    who = "; ".join(
        f"#{e.number} {e.player.name} back to table {e.table.number} seat {e.seat}" for e in entries
    )
    extra = f"; {len(moves)} move slip(s) taken back" if moves else ""
    if broken:
        extra += f"; table {', '.join(map(str, broken))} back in play"
    log_record(
        event=event,
        actor=actor,
        action="bustout.undo",
        summary=f"Bust-out undone: {who}{extra}",
        data={
            "bustout": bustout.pk,
            "entries": [e.pk for e in entries],
            "moves": [
                [m.entry_id, m.from_table, m.from_seat, m.to_table, m.to_seat] for m in moves
            ],
            "broken": broken,
        },
    )
