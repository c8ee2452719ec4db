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
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record, ngettext_noop
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.seating.texts import SEMICOLONS, text_list

from ..errors import ResultsError
from ..models import BustOut, Finish
from . import bounties, standings
from .bustouts import TABLE_STATE


@dataclass(frozen=True)
class Undone:
    bustout: BustOut
    entries: list[Entry]
    moves_reverted: int
    tables_restored: list[int]


def bustout_undo(*, event_id: int, bustout_id: int, actor: Actor) -> Undone:
    """Take a bust-out back, with the unacknowledged moves it caused; log who did it."""
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=ResultsError)
        bustout = (
            BustOut.objects.select_for_update(of=("self",))
            .select_related("group")
            .filter(pk=bustout_id, event=event)
            .first()
        )
        if bustout is None:
            raise ResultsError(
                gettext("no bust-out %(id)s in this event") % {"id": bustout_id}, field="bustout"
            )
        if bustout.undone_at is not None:
            raise ResultsError(
                gettext("this bust-out was undone already (%(who)s, %(at)s)")
                % {"who": bustout.undone_by, "at": f"{timezone.localtime(bustout.undone_at):%H:%M}"}
            )
        if event.status == Event.Status.FINISHED:
            raise ResultsError(
                gettext(
                    "the event has finished and its clock is stopped: a finished event cannot "
                    "be reopened"
                )
            )
        finishes = list(
            bustout.finishes.filter(undone_at__isnull=True, is_winner=False).select_related(
                "entry__player", "from_table"
            )
        )
        paid = [f for f in finishes if f.paid_at is not None]
        if paid:
            raise standings.paid_refusal(event, [f.entry_id for f in paid])
        moves = list(bustout.moves.select_related("entry__player").order_by("pk"))
        snapshot = bustout.rebalance.get("tables", {})
        broken = [int(n) for n in bustout.rebalance.get("broken", [])]
        tables = _tables(event, finishes, moves, snapshot)
        _refuse_conflicts(event, bustout, finishes, moves, tables, broken)
        bounties.bounties_undo_check(bustout)
        entries = _apply(event, bustout, finishes, moves, tables, snapshot, broken, actor)
        standings.standings_refresh(
            event=event,
            plan=standings.plan_for(event),
            field=standings.field_read(event),
            since=bustout.group.seq,  # the groups before it keep their places
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
        raise ResultsError(gettext("a table these players sat at no longer exists"))
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
            gettext(
                "there has been a later bust-out at table %(table)s (%(at)s): undo that one first"
            )
            % {"table": later.table_number, "at": f"{timezone.localtime(later.recorded_at):%H:%M}"}
        )
    done = [m for m in moves if m.acknowledged_at]
    if done:
        m = done[0]
        raise ResultsError(
            gettext(
                "the move of %(name)s to table %(table)s seat %(seat)s has been carried out: "
                "move the player back by hand first"
            )
            % {"name": m.entry.player.name, "table": m.to_table, "seat": m.to_seat}
        )
    for number in broken:
        table = tables.get(number)
        if table is None or table.in_play:
            raise ResultsError(
                gettext("table %(table)s broke then and has been put into play again")
                % {"table": number}
            )
        if EventTable.objects.filter(venue_table=table.venue_table_id, in_play=True).exists():
            raise ResultsError(
                gettext("table %(table)s broke then and is in use by another event now")
                % {"table": number}
            )
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
                gettext(
                    "%(name)s has moved or busted since the move to table %(table)s seat %(seat)s"
                )
                % {"name": entry.player.name, "table": move.to_table, "seat": move.to_seat}
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
            gettext("%(name)s has re-entered (entry #%(number)s): undo would give them two entries")
            % {"name": again.player.name, "number": again.number}
        )
    # The seats the undo fills, once the movers have left the seats they were given.
    wanted = {(f.from_table.number, f.from_seat): f.entry for f in finishes}
    wanted |= {(m.from_table, m.from_seat): m.entry for m in moves}
    leaving = set(movers)
    for (number, seat), entry in wanted.items():
        table = tables.get(number)
        if table is None or (not table.in_play and number not in broken):
            raise ResultsError(gettext("table %(table)s is no longer in play") % {"table": number})
        taken = (
            Entry.objects.filter(table=table, seat=seat, status=Entry.Status.ACTIVE)
            .exclude(pk__in=leaving)
            .select_related("player")
            .first()
        )
        if taken is not None:
            raise ResultsError(
                gettext(
                    "table %(table)s seat %(seat)s is taken by %(taken)s since: %(name)s cannot "
                    "sit down there again"
                )
                % {
                    "table": number,
                    "seat": seat,
                    "taken": taken.player.name,
                    "name": entry.player.name,
                }
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
        entry.chips_removed = max(0, entry.chips_removed - f.chips_removed)
        entries.append(entry)
    Finish.objects.filter(pk__in=[f.pk for f in finishes]).update(undone_at=now, slot=None)
    Entry.objects.bulk_update(entries, ["status", "table", "seat", "chips_removed"])
    BustOut.objects.filter(pk=bustout.pk).update(undone_at=now, undone_by=actor.label)
    bounties.bounties_undo(bustout, now)
    bustout.undone_at, bustout.undone_by = now, actor.label
    # The console's log marks the bust-out's entry undone, as it does an undone clock action.
    LogEntry.objects.filter(
        event=event, action="bustout.record", data__bustout=bustout.pk, undone_at__isnull=True
    ).update(undone_at=now)
    return entries


def _log(event, bustout, entries, moves, broken, actor) -> None:
    parts: list[Text | str] = [
        Text(
            gettext_noop("#%(number)s %(name)s back to table %(table)s seat %(seat)s"),
            number=e.number,
            name=e.player.name,
            table=e.table.number,
            seat=e.seat,
        )
        for e in entries
    ]
    if moves:
        parts.append(
            Text(
                ngettext_noop("%(count)s move slip taken back", "%(count)s move slips taken back"),
                count=len(moves),
            )
        )
    if broken:
        parts.append(
            Text(gettext_noop("table %(tables)s back in play"), tables=", ".join(map(str, broken)))
        )
    log_record(
        event=event,
        actor=actor,
        action="bustout.undo",
        summary=Text(gettext_noop("Bust-out undone: %(what)s"), what=text_list(parts, SEMICOLONS)),
        data={
            "bustout": bustout.pk,
            "entries": [e.pk for e in entries],
            "moves": [
                [m.entry_id, m.from_table, m.from_seat, m.to_table, m.to_seat] for m in moves
            ],
            "broken": broken,
        },
    )
