"""Undoing a bust-out: the players sit down again and the moves it caused are taken back.

Built as the bust-out is: one lock, one read, one pure decision, one write. An undo takes
the event's lock (`core.locking.event_lock`), reads what it decides on in one snapshot
with the bust-out's row, its tables and its movers' entries locked in that order
(`undo_snapshot.undo_snapshot`), has the engine decide (`engine/undo.py` `undo_decide`),
and writes that: the players back in their seats, the move slips deleted, the tables
that have not dealt since given back their buttons and seats (a broken one back in play),
the finishes and bounties marked undone, the places worked out again from its group on,
the log.

An undo changes nothing when something done since depends on the bust-out: a later
bust-out at a table it touched, a move slip already carried out, a mover who moved or
busted since, a seat taken since, a broken table put back into use, a re-entry, a PKO
head grown here and paid on since. The engine names which; the answer here says it
plainly.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record, ngettext_noop
from tdsystem.core.models import LogEntry
from tdsystem.engine import undo as decision
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, Move
from tdsystem.seating.texts import SEMICOLONS, text_list

from ..errors import ResultsError
from ..models import BustOut, Finish
from . import bounties, standings
from .bustouts import TABLE_STATE
from .undo_snapshot import UndoSnapshot, undo_snapshot

# What the floor is told of each refusal (the engine's `REFUSALS`); the values are the
# engine's. PAID is worded by `standings.paid_refusal`, as every change to a paid prize is.
REFUSED = {
    decision.UNDONE: gettext_noop("this bust-out was undone already (%(who)s, %(at)s)"),
    decision.FINISHED: gettext_noop(
        "the event has finished and its clock is stopped: a finished event cannot be reopened"
    ),
    decision.TABLE_GONE: gettext_noop("a table these players sat at no longer exists"),
    decision.LATER: gettext_noop(
        "there has been a later bust-out at table %(table)s (%(at)s): undo that one first"
    ),
    decision.CARRIED_OUT: gettext_noop(
        "the move of %(name)s to table %(table)s seat %(seat)s has been carried out: "
        "move the player back by hand first"
    ),
    decision.BROKEN_IN_PLAY: gettext_noop(
        "table %(table)s broke then and has been put into play again"
    ),
    decision.BROKEN_IN_USE: gettext_noop(
        "table %(table)s broke then and is in use by another event now"
    ),
    decision.MOVED_SINCE: gettext_noop(
        "%(name)s has moved or busted since the move to table %(table)s seat %(seat)s"
    ),
    decision.RE_ENTERED: gettext_noop(
        "%(name)s has re-entered (entry #%(number)s): undo would give them two entries"
    ),
    decision.NOT_IN_PLAY: gettext_noop("table %(table)s is no longer in play"),
    decision.SEAT_TAKEN: gettext_noop(
        "table %(table)s seat %(seat)s is taken by %(taken)s since: %(name)s cannot "
        "sit down there again"
    ),
    decision.BOUNTY_PAID_ON: gettext_noop(
        "#%(number)s %(name)s won a bounty onto their head here and is out since: "
        "undo that bust-out first"
    ),
}


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
        snap = undo_snapshot(event, bustout_id)
        outcome = decision.undo_decide(snap.situation)
        if isinstance(outcome, decision.Refusal):
            raise _refusal(event, outcome)
        bustout = snap.bustout
        entries = _write(snap, outcome, actor)
        standings.standings_refresh(
            event=event,
            plan=standings.plan_for(event),
            field=standings.field_read(event),
            since=bustout.group.seq,  # the groups before it keep their places
        )
        moves, broken = list(snap.moves), list(outcome.broken)
        _log(event, bustout, entries, moves, broken, actor)
    return Undone(bustout, entries, len(moves), broken)


def _refusal(event: Event, refusal: decision.Refusal) -> ResultsError:
    if refusal.reason == decision.PAID:
        return standings.paid_refusal(event, list(refusal.entries))
    text = gettext(REFUSED[refusal.reason])
    return ResultsError(text % dict(refusal.values) if refusal.values else text)


def _write(snap: UndoSnapshot, outcome: decision.UndoOutcome, actor: Actor) -> list[Entry]:
    """Write what the engine decided: the tables, the movers' seats and slips, the players
    back, the finishes, the bust-out and its bounties undone."""
    event, bustout, tables = snap.event, snap.bustout, snap.tables
    now = timezone.now()
    states = bustout.rebalance.get("tables", {})
    restored = []
    for restore in outcome.restore:
        table, state = tables[restore.number], states[str(restore.number)]
        for name in TABLE_STATE:
            setattr(table, name, state[name])
        if restore.back_in_play:
            table.in_play, table.broken_at = True, None
        restored.append(table)
    EventTable.objects.bulk_update(restored, [*TABLE_STATE, "in_play", "broken_at"])
    # The movers leave the seats they were given before anyone takes the seats back.
    Entry.objects.filter(pk__in=[m.entry for m in outcome.movers]).update(table=None, seat=None)
    Entry.objects.bulk_update(
        [Entry(pk=m.entry, table_id=tables[m.table].pk, seat=m.seat) for m in outcome.movers],
        ["table", "seat"],
    )
    Move.objects.filter(pk__in=outcome.moves).delete()
    finishes = {f.entry_id: f for f in snap.finishes}
    entries = []
    for back in outcome.players:
        f = finishes[back.entry]
        entry = f.entry
        entry.status, entry.table, entry.seat = Entry.Status.ACTIVE, f.from_table, back.seat
        entry.chips_removed = back.chips_removed
        entries.append(entry)
    Finish.objects.filter(pk__in=[f.pk for f in snap.finishes]).update(undone_at=now, slot=None)
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
