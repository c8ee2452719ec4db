"""What a bust-out's undo decides on, read in one place under the event's lock.

`undo_snapshot` locks what the undo may write after the event's row (the caller's
`event_lock`), in the order every change of an event takes them so that none waits on
another: the bust-out's row, the tables it touched, then the movers' entries. It reads the
bust-out's standing finishes and move slips, the tables as they are and as the balancing
found them, the later bust-out at those tables, the movers' seats, the players'
re-entries, who sits in the seats the undo fills, and a PKO head grown here that has been
paid on since; and hands the engine (`engine/undo.py`) its plain part, `UndoSituation`.
The service (`services/undo.py`) then writes what the engine decided.

Nothing here refuses but a bust-out that is not the event's: there is nothing to read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tdsystem.engine import undo as decision
from tdsystem.events.models import Event
from tdsystem.seating.models import Entry, EventTable, Move

from ..errors import ResultsError
from ..models import Bounty, BustOut, Finish


@dataclass(frozen=True)
class UndoSnapshot:
    """Everything one undo decides on. The rows are the service's to write to."""

    event: Event
    bustout: BustOut  # locked, with its group
    finishes: tuple[Finish, ...]  # its standing finishes, the winner's aside, by place
    moves: tuple[Move, ...]  # the move slips its balancing wrote, in the order written
    tables: Mapping[int, EventTable]  # the tables it touched, locked, by number
    situation: decision.UndoSituation


def undo_snapshot(event: Event, bustout_id: int) -> UndoSnapshot:
    """Read what undoing bust-out `bustout_id` of `event` (locked) decides on."""
    bustout = (
        BustOut.objects.select_for_update(of=("self",), no_key=True)
        .select_related("group")
        .filter(pk=bustout_id, event=event)
        .first()
    )
    if bustout is None:
        raise ResultsError(
            gettext("no bust-out %(id)s in this event") % {"id": bustout_id}, field="bustout"
        )
    finishes = tuple(
        bustout.finishes.filter(undone_at__isnull=True, is_winner=False).select_related(
            "entry__player", "from_table"
        )
    )
    moves = tuple(bustout.moves.select_related("entry__player").order_by("pk"))
    before = bustout.rebalance.get("tables", {})
    broken = tuple(int(n) for n in bustout.rebalance.get("broken", []))
    tables = _tables_locked(event, finishes, moves, before)
    movers = _movers_locked(moves)
    situation = decision.UndoSituation(
        undone=(bustout.undone_by, _clock(bustout.undone_at)) if bustout.undone_at else None,
        finished=event.status == Event.Status.FINISHED,
        players=tuple(_player(f) for f in finishes),
        moves=tuple(_move(m) for m in moves),
        movers=tuple(
            decision.Mover(
                entry=e.pk,
                name=e.player.name,
                active=e.status == Entry.Status.ACTIVE,
                table=e.table.number if e.table else None,
                seat=e.seat,
            )
            for e in movers
        ),
        tables=tuple(_tables_now(tables, broken)),
        before=tuple(
            decision.TableBefore(int(number), state.get("hand_number"))
            for number, state in before.items()
        ),
        broken=broken,
        later=_later(event, bustout, moves),
        re_entries=tuple(
            decision.Named(e.number, e.player.name) for e in _re_entries(event, finishes)
        ),
        sitters=tuple(_sitters(tables, finishes, moves)),
        bounty_paid_on=_bounty_paid_on(bustout),
    )
    return UndoSnapshot(event, bustout, finishes, moves, tables, situation)


def _clock(at) -> str:
    return f"{timezone.localtime(at):%H:%M}"


def _tables_locked(
    event: Event, finishes: Iterable[Finish], moves: Iterable[Move], before: Mapping
) -> dict[int, EventTable]:
    """The event's tables the undo touches, locked (after the event, before the entries)."""
    numbers = {f.from_table.number for f in finishes if f.from_table}
    numbers |= {m.from_table for m in moves} | {m.to_table for m in moves}
    numbers |= {int(n) for n in before}
    rows = EventTable.objects.select_for_update(no_key=True).filter(event=event, number__in=numbers)
    return {t.number: t for t in rows.order_by("pk")}


def _movers_locked(moves: Iterable[Move]) -> list[Entry]:
    """The movers' entries, locked (after the tables), in primary-key order."""
    return list(
        Entry.objects.select_for_update(of=("self",), no_key=True)
        .filter(pk__in={m.entry_id for m in moves})
        .select_related("player", "table")
        .order_by("pk")
    )


def _player(finish: Finish) -> decision.PlayerOut:
    entry = finish.entry
    return decision.PlayerOut(
        entry=entry.pk,
        name=entry.player.name,
        table=finish.from_table.number if finish.from_table else None,
        seat=finish.from_seat,
        paid=finish.paid_at is not None,
        chips_removed=finish.chips_removed,
        entry_chips_removed=entry.chips_removed,
    )


def _move(move: Move) -> decision.MoveBack:
    return decision.MoveBack(
        move=move.pk,
        entry=move.entry_id,
        name=move.entry.player.name,
        from_table=move.from_table,
        from_seat=move.from_seat,
        to_table=move.to_table,
        to_seat=move.to_seat,
        carried_out=bool(move.acknowledged_at),
    )


def _tables_now(
    tables: Mapping[int, EventTable], broken: Iterable[int]
) -> Iterable[decision.Table]:
    """The tables as they are; for a table that broke, whether its venue table is in play
    now (for another event: the broken table itself is out of play, or refused first)."""
    venue = {tables[n].venue_table_id for n in broken if n in tables}
    in_use = set(
        EventTable.objects.filter(venue_table__in=venue, in_play=True).values_list(
            "venue_table", flat=True
        )
    )
    for number, table in tables.items():
        yield decision.Table(
            number=number,
            in_play=table.in_play,
            hand_number=table.hand_number,
            venue_in_use=number in broken and table.venue_table_id in in_use,
        )


def _later(event: Event, bustout: BustOut, moves: Iterable[Move]) -> decision.Later | None:
    """The first later bust-out standing at a table this one touched, or that moved a
    player to or from one."""
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
    return decision.Later(later.table_number, _clock(later.recorded_at)) if later else None


def _re_entries(event: Event, finishes: Iterable[Finish]) -> list[Entry]:
    """The players' entries in play now (theirs are out): re-entries."""
    return list(
        Entry.objects.filter(
            event=event,
            player__in=[f.entry.player_id for f in finishes],
            status=Entry.Status.ACTIVE,
        ).select_related("player")
    )


def _sitters(
    tables: Mapping[int, EventTable], finishes: Iterable[Finish], moves: Iterable[Move]
) -> Iterable[decision.Sitter]:
    """Who sits in the seats the undo fills, the movers aside (they leave theirs)."""
    wanted = {(f.from_table.number, f.from_seat) for f in finishes if f.from_table}
    wanted |= {(m.from_table, m.from_seat) for m in moves}
    rows = [tables[n] for n in {n for n, _ in wanted} if n in tables]
    if not rows:
        return
    seated = (
        Entry.objects.filter(table__in=rows, status=Entry.Status.ACTIVE)
        .exclude(pk__in=[m.entry_id for m in moves])
        .select_related("player", "table")
    )
    for entry in seated:
        assert entry.table is not None  # filtered on its table
        if (entry.table.number, entry.seat) in wanted:
            yield decision.Sitter(entry.table.number, entry.seat, entry.player.name)


def _bounty_paid_on(bustout: BustOut) -> decision.Named | None:
    """A PKO head that grew on this bust-out and has been paid on since (its player is out
    now): that player's bust-out is to be undone first."""
    grown = Bounty.objects.filter(bustout=bustout, undone_at__isnull=True, to_head__gt=0)
    later = (
        Finish.objects.filter(
            entry__in=grown.values("eliminator"), undone_at__isnull=True, is_winner=False
        )
        .select_related("entry__player")
        .first()
    )
    return decision.Named(later.entry.number, later.entry.player.name) if later else None
