"""A bust-out's undo decided as a pure function: what the event stands at in, a refusal or
what to write out.

The results service reads everything an undo decides on in one snapshot
(`results/services/undo_snapshot.py`), calls `undo_decide` here and writes the outcome, as
a bust-out does with `engine/bustout.py`. Nothing here reads the database or the time.

An undo is refused when something done since depends on the bust-out; the refusals are
checked in a fixed order, and the first that applies is the answer (`Refusal`, which the
service words for the floor). Otherwise the players out sit down again where they sat, the
movers go back to the seats the move slips took them from, the slips are deleted, and the
tables the balancing changed get their buttons and seats back, save a table that has
dealt since: the hands played there stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# What the undo decides on ------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerOut:
    """A standing finish of the bust-out (the winner's aside): the player and the seat the
    report freed (table None: that table no longer exists)."""

    entry: int
    name: str
    table: int | None
    seat: int | None
    paid: bool  # the prize has been marked paid at the cage
    chips_removed: int  # taken out of play by this finish (a short big blind)
    entry_chips_removed: int  # the entry's own count now


@dataclass(frozen=True)
class MoveBack:
    """A move slip the bust-out's balancing wrote."""

    move: int
    entry: int
    name: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    carried_out: bool  # acknowledged by the floor


@dataclass(frozen=True)
class Mover:
    """Where a mover is now, and whether still in."""

    entry: int
    name: str
    active: bool
    table: int | None
    seat: int | None


@dataclass(frozen=True)
class Table:
    """One of the event's tables the undo touches, as it is now."""

    number: int
    in_play: bool
    hand_number: int
    venue_in_use: bool  # its venue table is in play for another event


@dataclass(frozen=True)
class TableBefore:
    """A table as the balancing read it just before changing it."""

    number: int
    hand_number: int | None  # None: not kept (the table is restored only if out of play)


@dataclass(frozen=True)
class Later:
    """The first later bust-out at a table this one touched: its table and time (HH:MM)."""

    table: int
    at: str


@dataclass(frozen=True)
class Sitter:
    """Someone who sits in a seat the undo would fill (a mover leaving it aside)."""

    table: int
    seat: int | None
    name: str


@dataclass(frozen=True)
class Named:
    """An entry named in a refusal: its number and the player's name."""

    number: int
    name: str


@dataclass(frozen=True)
class UndoSituation:
    """What the event stands at, as the snapshot read it under the event's lock."""

    undone: tuple[str, str] | None  # the bust-out was undone already: (by whom, HH:MM)
    finished: bool  # the event has finished
    players: tuple[PlayerOut, ...]  # in the order of places
    moves: tuple[MoveBack, ...]  # in the order they were written
    movers: tuple[Mover, ...]
    tables: tuple[Table, ...]
    before: tuple[TableBefore, ...]  # the tables the balancing changed, in its order
    broken: tuple[int, ...]  # the tables the balancing broke, in its order
    later: Later | None = None
    re_entries: tuple[Named, ...] = ()  # the players' entries in play now, first first
    sitters: tuple[Sitter, ...] = ()
    bounty_paid_on: Named | None = None  # a PKO head grown here, its player out since


# What the undo does ------------------------------------------------------------------------

UNDONE = "undone"
FINISHED = "finished"
PAID = "paid"
TABLE_GONE = "table_gone"
LATER = "later"
CARRIED_OUT = "carried_out"
BROKEN_IN_PLAY = "broken_in_play"
BROKEN_IN_USE = "broken_in_use"
MOVED_SINCE = "moved_since"
RE_ENTERED = "re_entered"
NOT_IN_PLAY = "not_in_play"
SEAT_TAKEN = "seat_taken"
BOUNTY_PAID_ON = "bounty_paid_on"

# The refusals in the order they are checked: the first that applies is the answer. The
# broken tables are checked one by one (BROKEN_IN_PLAY, then BROKEN_IN_USE, for each), and
# so are the seats the undo fills (NOT_IN_PLAY, then SEAT_TAKEN), the players' seats first.
REFUSALS = (
    UNDONE,
    FINISHED,
    PAID,
    TABLE_GONE,
    LATER,
    CARRIED_OUT,
    BROKEN_IN_PLAY,
    BROKEN_IN_USE,
    MOVED_SINCE,
    RE_ENTERED,
    NOT_IN_PLAY,
    SEAT_TAKEN,
    BOUNTY_PAID_ON,
)


@dataclass(frozen=True)
class Refusal:
    """Why the undo changes nothing: one of REFUSALS and the values its sentence names
    (PAID names the entries whose prizes are paid, in `entries`)."""

    reason: str
    values: Mapping[str, int | str | None] = field(default_factory=dict)
    entries: tuple[int, ...] = ()


@dataclass(frozen=True)
class Seat:
    """A player back in a seat; `chips_removed` is the entry's count after the undo."""

    entry: int
    table: int
    seat: int | None
    chips_removed: int = 0


@dataclass(frozen=True)
class Restore:
    """A table given back its state from before the balancing; a broken one back in play."""

    number: int
    back_in_play: bool


@dataclass(frozen=True)
class UndoOutcome:
    players: tuple[Seat, ...]  # the players out, active again in the seats they left
    movers: tuple[Seat, ...]  # one per move slip taken back, in the slips' order
    moves: tuple[int, ...]  # the move slips to delete
    restore: tuple[Restore, ...]  # the tables that have not dealt since
    broken: tuple[int, ...]  # the tables the balancing broke: in play again


def undo_decide(situation: UndoSituation) -> Refusal | UndoOutcome:
    """The undo's refusal, or what it writes."""
    return _refusal(situation) or _outcome(situation)


def _refusal(s: UndoSituation) -> Refusal | None:
    if s.undone is not None:
        return Refusal(UNDONE, {"who": s.undone[0], "at": s.undone[1]})
    if s.finished:
        return Refusal(FINISHED)
    paid = tuple(p.entry for p in s.players if p.paid)
    if paid:
        return Refusal(PAID, entries=paid)
    if any(p.table is None for p in s.players):
        return Refusal(TABLE_GONE)
    if s.later is not None:
        return Refusal(LATER, {"table": s.later.table, "at": s.later.at})
    done = next((m for m in s.moves if m.carried_out), None)
    if done is not None:
        return Refusal(
            CARRIED_OUT, {"name": done.name, "table": done.to_table, "seat": done.to_seat}
        )
    tables = {t.number: t for t in s.tables}
    for number in s.broken:
        table = tables.get(number)
        if table is None or table.in_play:
            return Refusal(BROKEN_IN_PLAY, {"table": number})
        if table.venue_in_use:
            return Refusal(BROKEN_IN_USE, {"table": number})
    # A player moved twice by one balancing answers for the last slip.
    movers = {m.entry: m for m in s.moves}
    now = {m.entry: m for m in s.movers}
    for entry, move in movers.items():
        mover = now[entry]
        if not mover.active or (mover.table, mover.seat) != (move.to_table, move.to_seat):
            return Refusal(
                MOVED_SINCE, {"name": mover.name, "table": move.to_table, "seat": move.to_seat}
            )
    # A re-entry first: it is the reason, even when the new entry sits in the old seat.
    if s.re_entries:
        again = s.re_entries[0]
        return Refusal(RE_ENTERED, {"name": again.name, "number": again.number})
    sitters: dict[tuple[int, int | None], str] = {}
    for sitter in s.sitters:
        sitters.setdefault((sitter.table, sitter.seat), sitter.name)
    for (number, seat), name in _wanted(s).items():
        table = tables.get(number)
        if table is None or (not table.in_play and number not in s.broken):
            return Refusal(NOT_IN_PLAY, {"table": number})
        taken = sitters.get((number, seat))
        if taken is not None:
            return Refusal(
                SEAT_TAKEN, {"table": number, "seat": seat, "taken": taken, "name": name}
            )
    if s.bounty_paid_on is not None:
        named = s.bounty_paid_on
        return Refusal(BOUNTY_PAID_ON, {"number": named.number, "name": named.name})
    return None


def _wanted(s: UndoSituation) -> dict[tuple[int, int | None], str]:
    """The seats the undo fills, once the movers have left the seats they were given, and
    who sits down in each: the players out's seats first, then the movers'."""
    wanted: dict[tuple[int, int | None], str] = {}
    for p in s.players:
        if p.table is not None:
            wanted[(p.table, p.seat)] = p.name
    for m in s.moves:
        wanted[(m.from_table, m.from_seat)] = m.name
    return wanted


def _outcome(s: UndoSituation) -> UndoOutcome:
    tables = {t.number: t for t in s.tables}
    restore = []
    for before in s.before:
        table = tables.get(before.number)
        # A table that has dealt since keeps its button: the hands played stand.
        if table is None or (table.in_play and table.hand_number != before.hand_number):
            continue
        restore.append(Restore(before.number, before.number in s.broken))
    players = tuple(
        Seat(p.entry, p.table, p.seat, max(0, p.entry_chips_removed - p.chips_removed))
        for p in s.players
        if p.table is not None  # refused otherwise (TABLE_GONE)
    )
    return UndoOutcome(
        players=players,
        movers=tuple(Seat(m.entry, m.from_table, m.from_seat) for m in s.moves),
        moves=tuple(m.move for m in s.moves),
        restore=tuple(restore),
        broken=s.broken,
    )
