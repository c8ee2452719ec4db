"""Random seat draws: the start of an event, late entries, and redraws (TDA 7, 8-A)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from .buttons import is_dealt_in, start_hands
from .model import (
    NO_HOLDS,
    ButtonRule,
    Counted,
    Draw,
    Holds,
    Move,
    Placement,
    Plan,
    Reason,
    Reserved,
    SeatingError,
    Table,
    apply_moves,
    tables_by_number,
)

# Final table sizes by the number of seats at the event's tables. The last two tables
# play with five each (8- to 10-handed) or four each (6- and 7-handed); the players
# combine when one more busts (nine, or seven), or at once when the tables seat all of
# them (ten at 10-handed tables). An 8- or 6-handed final table thus has one seat more.
FINAL_TABLE_SIZES = {10: 10, 9: 9, 8: 9, 7: 7, 6: 7}


def _even_base(capacities: Sequence[int], players: int) -> tuple[list[int], list[int], int]:
    """Counts that differ by at most one where seats allow, before the extra players.

    Raising every table to a common level fills it evenly; a table with fewer seats than
    the level stays full. Returns the counts without the extra players, the tables that
    may take one (by index), and how many extra players there are.
    """
    level = 0
    while sum(min(capacity, level) for capacity in capacities) < players:
        level += 1
    counts = [min(capacity, level - 1) if level else 0 for capacity in capacities]
    extra = players - sum(counts)
    room = [index for index, capacity in enumerate(capacities) if capacity >= level]
    return counts, room, extra


def _opened(
    tables: tuple[Table, ...], table_count: int, named: Collection[int], players: int
) -> list[Table]:
    """The tables a draw opens: `table_count` of them, those named by a reserved seat
    first, then from the front; more from the front if the seats do not suffice."""
    wanted = [table for table in tables if table.number in named][:table_count]
    rest = [table for table in tables if table.number not in named]
    chosen = {table.number for table in wanted + rest[: table_count - len(wanted)]}
    if named:
        extra = iter(rest[table_count - len(wanted) :])
        while sum(t.seats for t in tables if t.number in chosen) < players:
            table = next(extra, None)
            if table is None:
                break
            chosen.add(table.number)
    return [table for table in tables if table.number in chosen]


def _reserved_seats(
    opened: Sequence[Table],
    players: int,
    reserved: Mapping[int, Reserved],
    rng: random.Random,
) -> tuple[list[int], list[dict[int, int]]]:
    """Each opened table's count and its reserved seats (seat -> entry).

    A reservation naming an opened table is kept there; any other keeps its seat number
    at a table drawn at random among those where the seat is free and the player fits the
    table's even count. The tables that get the extra players are then those the
    reserved seats need, and the rest are drawn at random, as without reservations.
    """
    base, room, extra = _even_base([table.seats for table in opened], players)
    allowed = [count + (1 if index in room else 0) for index, count in enumerate(base)]
    fixed: list[dict[int, int]] = [{} for _ in opened]
    index_of = {table.number: index for index, table in enumerate(opened)}
    named = sorted(entry for entry, r in reserved.items() if r.table in index_of)
    unnamed = sorted(set(reserved).difference(named))
    for entry in named:
        seat, index = reserved[entry].seat, index_of[reserved[entry].table or 0]
        table = opened[index]
        if seat > table.seats:
            raise SeatingError(f"table {table.number} has no seat {seat} to keep for {entry}")
        if seat in fixed[index]:
            raise SeatingError(f"table {table.number} seat {seat} is reserved twice")
        if len(fixed[index]) >= allowed[index]:
            raise SeatingError(f"table {table.number} has more reserved seats than players")
        fixed[index][seat] = entry
    for entry in unnamed:
        seat = reserved[entry].seat
        fits = [
            index
            for index, table in enumerate(opened)
            if seat <= table.seats and seat not in fixed[index]
            if len(fixed[index]) < allowed[index]
        ]
        # A place within a table's count first: the extra players stay a random draw.
        within = [index for index in fits if len(fixed[index]) < base[index]]
        if not (within or fits):
            raise SeatingError(f"no table can keep seat {seat} for entry {entry}")
        fixed[rng.choice(within or fits)][seat] = entry
    needing = [index for index in range(len(opened)) if len(fixed[index]) > base[index]]
    if len(needing) > extra:
        raise SeatingError("the reserved seats leave the tables uneven")
    counts = list(base)
    for index in needing:
        counts[index] += 1
    left = [index for index in room if index not in needing]
    for index in rng.sample(left, extra - len(needing)):
        counts[index] += 1
    return counts, fixed


def initial_draw(
    tables: Sequence[Table],
    entries: Sequence[int],
    rng: random.Random,
    *,
    table_count: int | None = None,
    holds: Holds = NO_HOLDS,
) -> Draw:
    """Seat every entry by random draw (TDA 7) and set each table's first button.

    `tables` are empty tables in the order they open. By default the draw uses the
    fewest of them (from the front) that seat everyone; `table_count` opens that many
    instead. Player counts differ by at most one between the opened tables; seats and
    the tables that get an extra player are random. Tables with two or more players get
    a random button (`start_hands`); unopened tables come back as they were.

    Entries with a reserved seat in `holds` sit in it (TDA 9): at the table it names
    (opened first), or at that seat number of a table the draw opens (see
    `_reserved_seats`); a reservation that cannot be kept is refused.
    """
    tables = tuple(tables)
    tables_by_number(tables)
    if any(table.occupants for table in tables):
        raise SeatingError("the draw needs empty tables")
    if len(set(entries)) != len(entries):
        raise SeatingError("an entry appears twice in the draw")
    players = len(entries)
    if table_count is None:
        table_count, capacity = 0, 0
        while capacity < players and table_count < len(tables):
            capacity += tables[table_count].seats
            table_count += 1
    elif not 0 <= table_count <= len(tables):
        raise SeatingError(f"cannot open {table_count} of {len(tables)} tables")
    drawing = set(entries)
    reserved = {e: r for e, r in holds.reserved.items() if e in drawing}
    named = {r.table for r in reserved.values() if r.table is not None}
    opened = _opened(tables, table_count, named, players)
    capacity = sum(table.seats for table in opened)
    if players > capacity:
        raise SeatingError(f"{players} entries do not fit in {capacity} seats")

    counts, fixed = _reserved_seats(opened, players, reserved, rng)
    drawn = [entry for entry in entries if entry not in reserved]
    rng.shuffle(drawn)
    placements: list[Placement] = []
    seated: list[Table] = []
    start = 0
    for table, count, kept in zip(opened, counts, fixed, strict=True):
        free = [seat for seat in range(1, table.seats + 1) if seat not in kept]
        seats = rng.sample(free, count - len(kept))
        chosen = drawn[start : start + len(seats)]
        start += len(seats)
        pairs = [*kept.items(), *zip(seats, chosen, strict=True)]
        placements.extend(Placement(entry, table.number, seat) for seat, entry in pairs)
        filled = Table(table.number, table.seats, tuple(pairs))
        seated.append(start_hands(filled, rng) if count >= 2 else filled)
    numbers = {table.number for table in opened}
    return Draw(tuple(placements), (*seated, *(t for t in tables if t.number not in numbers)))


def new_entry_tables(tables: Sequence[Table | Counted]) -> list[int]:
    """The numbers of the tables a new entry's seat is drawn at (`seat_new_entry`), in
    the order of `tables`: those with the fewest players among the tables with a player
    and an empty seat, or, when every such table is full, the first empty table. Judged
    from head counts, so a large field reads in full only these tables."""
    open_tables = [table for table in tables if 0 < table.count < table.seats]
    if open_tables:
        fewest = min(table.count for table in open_tables)
        return [table.number for table in open_tables if table.count == fewest]
    return [table.number for table in tables if not table.count][:1]


def seat_new_entry(
    tables: Sequence[Table],
    entry: int,
    rng: random.Random,
    *,
    rule: str = ButtonRule.DEAD,
    skip_empty: bool = False,
    leaving: Collection[tuple[int, int]] = (),
) -> Placement:
    """Seat a late registration or a re-entry (TDA 8-A).

    The seat is drawn at random from the empty seats of the tables in play with the
    fewest players, the same pool as everyone else's. When every table in play is full,
    the first empty table in `tables` opens (balancing then fills it). The player is not
    dealt in while the seat lies between the small blind and the button (`skip_empty`:
    the dead button moves over empty seats, buttons.py).

    `leaving` names seats as (table, seat) that a moved player may still be sitting in
    (their move slip not yet acknowledged): free in the seat map, but the newcomer would
    arrive to find someone there. They are drawn only when those tables have no other
    empty seat.
    """
    if any(seated == entry for table in tables for _, seated in table.occupants):
        raise SeatingError(f"entry {entry} already has a seat")
    numbers = set(new_entry_tables(tables))
    pool = [
        (table, seat) for table in tables if table.number in numbers for seat in table.empty_seats
    ]
    if not pool:
        raise SeatingError(f"no empty seat for entry {entry}")
    if leaving:
        left = set(leaving)
        pool = [(t, seat) for t, seat in pool if (t.number, seat) not in left] or pool
    table, seat = rng.choice(pool)
    dealt_in = is_dealt_in(table.with_entry(entry, seat), seat, rule, skip_empty=skip_empty)
    return Placement(entry, table.number, seat, dealt_in)


def plan_reserved_seat(
    tables: Sequence[Table],
    entry: int,
    reserved: Reserved,
    rng: random.Random,
    *,
    holds: Holds = NO_HOLDS,
    rule: str = ButtonRule.DEAD,
) -> Plan:
    """Move a seated player into the seat just reserved for them (TDA 9).

    Nothing moves when they sit in it already. A named table must be in play and have
    the seat. Without one the player's own table keeps them when it has that seat
    number; else the seat number at a table in play where it is free, one with the
    fewest players. A free seat is taken; a taken one is swapped: its player, unless
    held in `holds` (reserved, or do not move), takes the reserved player's seat. Call
    `plan_after_elimination` after it: a player who changed tables may leave them uneven.
    """
    source = next((table for table in tables if table.seat_of(entry) is not None), None)
    if source is None:
        raise SeatingError(f"entry {entry} has no seat")
    from_seat = source.seat_of(entry)
    assert from_seat is not None
    if reserved.kept_by(source, from_seat):
        return Plan((), (), tuple(tables))
    seat = reserved.seat
    playing = [table for table in tables if table.occupants]
    if reserved.table is not None:
        candidates = [table for table in playing if table.number == reserved.table]
        if not candidates:
            raise SeatingError(f"table {reserved.table} is not in play")
        if seat > candidates[0].seats:
            raise SeatingError(f"table {reserved.table} has no seat {seat}")
    else:
        others = [
            table
            for table in playing
            if table is not source and seat <= table.seats and table.entry_at(seat) is None
        ]
        ranked = sorted(others, key=lambda table: (table.count, rng.random()))
        candidates = ([source] if seat <= source.seats else []) + ranked
    for target in candidates:
        occupant = target.entry_at(seat)
        if occupant is not None and holds.held(occupant):
            continue
        trips = [(entry, source.number, from_seat, target.number, seat)]
        if occupant is not None:
            trips.append((occupant, target.number, seat, source.number, from_seat))
        break
    else:
        raise SeatingError(f"seat {seat} is kept for another player wherever it is free")
    moves = [Move(*trip, Reason.RESERVED) for trip in trips]
    after = tables_by_number(apply_moves(tables, moves))
    moves = [
        Move(*trip, Reason.RESERVED, is_dealt_in(after[trip[3]], trip[4], rule)) for trip in trips
    ]
    return Plan((), tuple(moves), tuple(after[table.number] for table in tables))


def final_table_size(seats_per_table: int, size: int = 0) -> int:
    """How many players the final table seats, for events at 6- to 10-handed tables.

    `size` is the rule set's (WSOP R68: ten at 9-handed events); 0 gives the usual size
    (FINAL_TABLE_SIZES). A size more than one seat above the event's tables is not
    meant for them (a 6-handed WSOP event's final table is the usual seven).
    """
    if size and seats_per_table in FINAL_TABLE_SIZES and size <= seats_per_table + 1:
        return size
    try:
        return FINAL_TABLE_SIZES[seats_per_table]
    except KeyError:
        raise SeatingError(
            f"no final table size for {seats_per_table}-handed tables (6 to 10)"
        ) from None


def redraw_due(
    tables: Sequence[Table],
    seats_per_table: int,
    *,
    redraw_at: Collection[int] = (1,),
    final_size: int = 0,
) -> int | None:
    """The number of tables to redraw into now, or None.

    A redraw into k tables (k in `redraw_at`; 1 is the final table) is due once the
    players fit into k tables and more than k are in play: k full tables, or for k = 1
    the final table size (`final_table_size(seats_per_table, final_size)`). Call it
    before `plan_after_elimination`: at that point the redraw replaces the table break.
    """
    if any(k < 1 for k in redraw_at):
        raise SeatingError("a redraw needs at least one table")
    in_play = sum(1 for table in tables if table.occupants)
    players = sum(table.count for table in tables)
    for k in sorted(set(redraw_at)):
        final = final_table_size(seats_per_table, final_size) if k == 1 else 0
        capacity = final or k * seats_per_table
        if k < in_play and players <= capacity:
            return k
    return None


def plan_redraw(
    tables: Sequence[Table],
    *,
    target_tables: Sequence[Table],
    rng: random.Random,
    holds: Holds = NO_HOLDS,
) -> Plan:
    """Redraw every seated player into the empty `target_tables` (final or k tables).

    Seats are drawn at random with counts even across the targets, and each target gets
    a fresh button by draw. Every player gets a move, even one drawn back into the same
    seat. A target may reuse the number of a table in play; tables in play that are not
    targets close and are listed as broken. A reserved seat in `holds` is kept: at the
    target of the table it names, else at that seat number of a target.
    """
    targets = tuple(target_tables)
    if any(table.occupants for table in targets):
        raise SeatingError("a redraw needs empty target tables")
    origins = {entry: (table.number, seat) for table in tables for seat, entry in table.occupants}
    draw = initial_draw(targets, list(origins), rng, table_count=len(targets), holds=holds)
    moves = tuple(
        Move(
            placement.entry,
            *origins[placement.entry],
            placement.table,
            placement.seat,
            Reason.REDRAW,
        )
        for placement in draw.placements
    )
    target_numbers = {table.number for table in targets}
    closed = [table for table in tables if table.number not in target_numbers]
    return Plan(
        broken=tuple(table.number for table in closed if table.occupants),
        moves=moves,
        tables=(*draw.tables, *(table.emptied() for table in closed)),
    )
