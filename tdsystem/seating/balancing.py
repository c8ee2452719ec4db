"""What bust-outs set off: balancing, table breaks and redraws (TDA 10, 11).

`tables_rebalance` asks the engine what the seating needs now and carries it out as move
slips. A bust-out itself is recorded by one service only, the results app's
`bustout_record` (finish, place, prize, undo record), which frees the seats and calls
`tables_rebalance` in the same transaction, so the floor never sees a half-done change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import transaction

from tdsystem.core.actors import Actor
from tdsystem.core.log import log_record
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from .errors import SeatingError
from .models import Move
from .seatmap import SeatMap, engine_call, event_lock, head_counts, new_seed, plan_apply

REDRAW_TABLE_COUNTS = (1, 2, 3)


@dataclass(frozen=True)
class Rebalance:
    """What a rebalance did: "balance", "break" or "redraw" (None: nothing was needed)."""

    kind: str | None
    seed: int
    moves: list[Move]
    broken: list[int]
    before: dict[int, dict] = field(default_factory=dict)  # the written tables as they were


def tables_rebalance(*, event_id: int, actor: Actor, rng_seed: int | None = None) -> Rebalance:
    """Carry out what the seating needs after players left or joined.

    The final table is redrawn once its players fit it; before that the next table in
    the break order breaks when the players fit one table fewer, then the tables are
    balanced to the event's threshold (TDA 10, 11-A). The seed is logged.
    """
    seed = new_seed(rng_seed)
    rng = random.Random(seed)
    # No savepoint: a refusal here fails the caller's whole change, never half of it.
    with transaction.atomic(savepoint=False):
        event = event_lock(event_id)
        if _settled(event):
            return Rebalance(None, seed, [], [])
        seatmap = SeatMap.read(event)
        tables = seatmap.engine_tables()
        if _redraw_due(event, tables) == 1:
            kind, plan = "redraw", _redraw_plan(event, seatmap, tables, 1, rng)
        else:
            plan = engine_call(
                rules.plan_after_elimination,
                tables,
                break_order=seatmap.break_order,
                threshold=event.balance_threshold,
                rng=rng,
                rule=event.button_rule,
                holds=seatmap.holds,
            )
            kind = "break" if plan.broken else "balance"
        if not plan.moves and not plan.broken:
            return Rebalance(None, seed, [], [])
        applied = plan_apply(seatmap, plan, rng)
        log_record(
            event=event,
            actor=actor,
            action=f"seats.{kind}",
            summary=_summary(kind, applied.moves, applied.broken),
            data={"seed": seed, **applied.as_log()},
        )
    return Rebalance(kind, seed, applied.moves, applied.broken, applied.before)


def _settled(event: Event) -> bool:
    """Nothing to break, balance or redraw, judged from head counts in one query.

    Most bust-outs change nothing; this spares them reading every seat of the field.
    """
    tables = sorted(head_counts(event), key=lambda t: (t.break_rank, -t.number))
    counts = [(t.number, t.seats, t.players) for t in tables]
    playing = [players for _, _, players in counts if players]
    final = final_table_size(event)
    if final is not None and len(playing) > 1 and sum(playing) <= final:
        return False  # the final table redraw is due
    return engine_call(
        rules.settled,
        counts,
        break_order=[number for number, _, _ in counts],
        threshold=event.balance_threshold,
    )


def tables_redraw(
    *, event_id: int, table_count: int, actor: Actor, rng_seed: int | None = None
) -> Rebalance:
    """The director redraws every seat into `table_count` tables (3, 2, or the final 1).

    The tables that stay are the last ones in the break order; all players get a move
    slip with reason "redraw", and each table a fresh button by draw.
    """
    if table_count not in REDRAW_TABLE_COUNTS:
        raise SeatingError("redraw into 1, 2 or 3 tables", field="tables")
    seed = new_seed(rng_seed)
    rng = random.Random(seed)
    with transaction.atomic():
        event = event_lock(event_id)
        seatmap = SeatMap.read(event)
        tables = seatmap.engine_tables()
        refusal = redraw_refusal(event, tables, table_count)
        if refusal:
            raise SeatingError(refusal)
        plan = _redraw_plan(event, seatmap, tables, table_count, rng)
        applied = plan_apply(seatmap, plan, rng)
        log_record(
            event=event,
            actor=actor,
            action="seats.redraw",
            summary=_summary("redraw", applied.moves, applied.broken),
            data={"seed": seed, "tables": table_count, **applied.as_log()},
        )
    return Rebalance("redraw", seed, applied.moves, applied.broken, applied.before)


def final_table_size(event: Event) -> int | None:
    try:
        return rules.final_table_size(event.seats_per_table)
    except rules.SeatingError:
        return None  # tables of 2 to 5 seats: no final table redraw


def redraw_refusal(event: Event, tables, table_count: int) -> str | None:
    """Why a redraw into `table_count` tables cannot be done now, or None."""
    playing = [table for table in tables if table.occupants]
    players = sum(table.count for table in playing)
    final = final_table_size(event)
    if table_count == 1 and final is None:
        return f"no final table size for {event.seats_per_table}-handed tables"
    capacity = final if table_count == 1 else table_count * event.seats_per_table
    if len(playing) < table_count:
        return f"only {len(playing)} table(s) in play"
    if players > (capacity or 0):
        return f"{players} players do not fit {table_count} table(s) of {capacity // table_count}"
    return None


def _redraw_due(event: Event, tables) -> int | None:
    if final_table_size(event) is None:
        return None
    return rules.redraw_due(tables, event.seats_per_table, redraw_at=(1,))


def _redraw_plan(event: Event, seatmap: SeatMap, tables, table_count: int, rng) -> rules.Plan:
    """The redraw into the tables that break last; the final table gets its full size."""
    staying = rules.break_sequence(tables, seatmap.break_order)[-table_count:]
    final = final_table_size(event) if table_count == 1 else None
    targets = []
    for number in reversed(staying):
        seats = seatmap.by_number[number].seats
        targets.append(rules.Table(number, max(seats, final or 0)))
    return engine_call(
        rules.plan_redraw, tables, target_tables=targets, rng=rng, holds=seatmap.holds
    )


def _summary(kind: str, moves: list[Move], broken: list[int]) -> str:
    if kind == "redraw":
        tables = sorted({m.to_table for m in moves})
        label = "Final table redraw" if len(tables) == 1 else "Redraw"
        return f"{label}: {len(moves)} players to table {', '.join(map(str, tables))}"
    if broken:
        return f"Table {', '.join(map(str, broken))} breaks: {len(moves)} move slips"
    return "Balancing: " + "; ".join(
        f"table {m.from_table} seat {m.from_seat} to table {m.to_table} seat {m.to_seat}"
        for m in moves
    )
