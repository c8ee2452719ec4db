"""What bust-outs set off: balancing, table breaks and redraws (TDA 10, 11).

`tables_rebalance` asks the engine what the seating needs now and carries it out as move
slips. A bust-out itself is recorded by one service only, the results app's
`bustout_record` (finish, place, prize, undo record), which frees the seats and calls
`tables_rebalance` in the same transaction, so the floor never sees a half-done change.

What the seating does follows the event's rule set (`event.rules`): the automatic
redraws (`redraws`), the final table's size, which table gives a player and the
tolerance (`Procedure`), and whether the dead button moves over empty seats.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext, gettext_noop, ngettext

from tdsystem.core.actors import Actor
from tdsystem.core.locking import event_lock
from tdsystem.core.log import Text, log_record
from tdsystem.engine import rulesets
from tdsystem.engine import seating as rules
from tdsystem.events.models import Event

from .errors import SeatingError
from .models import Entry, Move
from .seatmap import (
    SeatMap,
    engine_call,
    has_blinds,
    head_counts,
    new_seed,
    plan_apply,
    table_spread,
)
from .selectors_dayend import last_hands_on
from .texts import SEMICOLONS, text_list

REDRAW_TABLE_COUNTS = (1, 2, 3)


@dataclass(frozen=True)
class Rebalance:
    """What a rebalance did: "balance", "break" or "redraw" (None: nothing was needed)."""

    kind: str | None
    seed: int
    moves: list[Move]
    broken: list[int]
    before: dict[int, dict] = field(default_factory=dict)  # the written tables as they were


def tables_rebalance(
    *, event_id: int, actor: Actor, rng_seed: int | None = None, locked: Event | None = None
) -> Rebalance:
    """Carry out what the seating needs after players left or joined.

    The seats are redrawn at once when the field comes down to one of the rule set's
    redraw table counts (WSOP: 3, 2 and 1 tables from 100 entries), and the last tables
    combine into the final table once its players fit it (every set). Otherwise the next
    table in the break order breaks when the players fit one table fewer, then the
    tables are balanced by the rule set's procedure (TDA 10, 11-A, 11-C; WSOP R67). The
    seed is logged.

    `locked`: the event's row, read by a caller that holds the event's lock already in
    its transaction (a bust-out): the lock is not taken, nor the row read, a second time.
    """
    seed = new_seed(rng_seed)
    rng = random.Random(seed)
    # No savepoint: a refusal here fails the caller's whole change, never half of it.
    with transaction.atomic(savepoint=False):
        if locked is not None:
            assert locked.pk == event_id
        event = locked or event_lock(Event.objects, event_id, error=SeatingError)
        if last_hands_on(event):  # R125: balancing waits for the next day's draw
            return Rebalance(None, seed, [], [])
        settings = event.rules
        spread = table_spread(event)
        redraw_at = _redraws_within_reach(event, settings, spread.players)
        if _settled(event, settings, redraw_at, spread):
            return Rebalance(None, seed, [], [])
        due = None
        if redraw_at:  # a field of a few tables: every seat read, to see if one is due
            seatmap = SeatMap.read(event)
            tables = seatmap.engine_tables()
            due = _redraw_due(event, settings, tables, redraw_at)
            if due:
                kind, plan = "redraw", _redraw_plan(event, seatmap, tables, due, rng)
        else:  # a break or a balancing move reads the few tables it touches
            seatmap = SeatMap.read_lazily(event, head_counts(event))
        if not due:
            plan = rebalance_plan(event, seatmap, rng, settings)
            kind = "break" if plan.broken else "balance"
        if not plan.moves and not plan.broken:
            return Rebalance(None, seed, [], [])
        applied = plan_apply(seatmap, plan, rng)
        data = {"seed": seed, **applied.as_log()}
        if due:
            data |= {"tables": due, "automatic": True, "rule": _redraw_rule(event, due)}
        log_record(
            event=event,
            actor=actor,
            action=f"seats.{kind}",
            summary=_summary(event, kind, applied.moves, applied.broken),
            data=data,
        )
    return Rebalance(kind, seed, applied.moves, applied.broken, applied.before)


def balance_procedure(settings: rulesets.Settings) -> rules.Procedure:
    """The rule set's balancing procedure, as the engine reads it."""
    return rules.Procedure(
        from_large=settings.balance_from_large,
        from_small=settings.balance_from_small,
        large_tables=settings.large_field_tables,
        within_one_at=settings.balance_within_one_at,
    )


def button_options(event: Event, settings: rulesets.Settings | None = None) -> dict:
    """How the button moves at the event's tables: the engine's `rule` and `skip_empty`
    keyword arguments (the event's button rule; the rule set's dead button over empty
    seats)."""
    settings = settings or event.rules
    return {"rule": event.button_rule, "skip_empty": settings.dead_button_skips_empty}


def rebalance_plan(
    event: Event,
    seatmap: SeatMap,
    rng: random.Random,
    settings: rulesets.Settings | None = None,
) -> rules.Plan:
    """What the tables need now (a table break, balancing moves, or nothing), as the
    event's rules have it: its threshold, the rule set's procedure and dead button, the
    players held in their seats, by position for stud. Every change that may leave the
    tables unbalanced asks here. A seat map read lazily reads the tables the plan needs
    (`SeatMap.load`); the plan is the same."""
    settings = settings or event.rules
    return engine_call(
        rules.plan_after_elimination,
        seatmap.plan_tables(),
        load=seatmap.load,
        break_order=seatmap.break_order,
        threshold=event.balance_threshold,
        rng=rng,
        holds=seatmap.holds,
        procedure=balance_procedure(settings),
        by_position=not has_blinds(event),
        **button_options(event, settings),
    )


def balance_tolerance(event: Event, tables_in_play: int) -> int:
    """How many players short of the largest a table may be, with that many tables in
    play: the event's threshold, or one at the rule set's `balance_within_one_at`."""
    procedure = balance_procedure(event.rules)
    return procedure.threshold(tables_in_play, event.balance_threshold)


def redraw_counts(event: Event, settings: rulesets.Settings | None = None) -> set[int]:
    """The table counts the seats are redrawn at automatically: the rule set's redraws for
    the event's number of entries (re-entries count), and the final table (1) wherever
    the event has a final table size."""
    settings = settings or event.rules
    counts: set[int] = set()
    if settings.redraws:
        entries = Entry.objects.filter(event=event).count()
        counts.update(rulesets.redraw_tables(settings, entries))
    if final_table_size(event, settings) is None:
        counts.discard(1)
    else:
        counts.add(1)
    return counts


def _redraws_within_reach(event: Event, settings: rulesets.Settings, players: int) -> set[int]:
    """`redraw_counts`, or none while the players in play outnumber the seats of the
    largest redraw the rule set could make: until then no redraw can be due, whatever
    the number of entries, so a large field's bust-out does not count its entries."""
    counts_possible = {1} | {k for rule in settings.redraws for k in rule.tables}
    reach = max(_capacity(event, settings, k) for k in counts_possible)
    if players > reach:
        return set()
    return redraw_counts(event, settings)


def _settled(
    event: Event, settings: rulesets.Settings, redraw_at: set[int], spread: rules.Spread
) -> bool:
    """Nothing to break, balance or redraw, judged from the tables' spread (one row of
    sums: `table_spread`).

    Most bust-outs change nothing; this spares them listing the tables and reading every
    seat of the field.
    """
    for k in redraw_at:
        if k < spread.tables and spread.players <= _capacity(event, settings, k):
            return False  # a redraw is due
    return engine_call(
        rules.settled,
        spread,
        threshold=event.balance_threshold,
        procedure=balance_procedure(settings),
    )


def _capacity(event: Event, settings: rulesets.Settings, table_count: int) -> int:
    if table_count == 1:
        return final_table_size(event, settings) or 0
    return table_count * event.seats_per_table


def tables_redraw(
    *, event_id: int, table_count: int, actor: Actor, rng_seed: int | None = None
) -> Rebalance:
    """The director redraws every seat into `table_count` tables (3, 2, or the final 1).

    The tables that stay are the last ones in the break order; all players get a move
    slip with reason "redraw", and each table a fresh button by draw.
    """
    if table_count not in REDRAW_TABLE_COUNTS:
        raise SeatingError(gettext("redraw into 1, 2 or 3 tables"), field="tables")
    seed = new_seed(rng_seed)
    rng = random.Random(seed)
    with transaction.atomic():
        event = event_lock(Event.objects, event_id, error=SeatingError)
        if last_hands_on(event):
            raise SeatingError(gettext("no redraw during the last hands of the day"))
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
            summary=_summary(event, "redraw", applied.moves, applied.broken),
            data={
                "seed": seed,
                "tables": table_count,
                "automatic": False,
                "rule": _redraw_rule(event, table_count),
                **applied.as_log(),
            },
        )
    return Rebalance("redraw", seed, applied.moves, applied.broken, applied.before)


def final_table_size(event: Event, settings: rulesets.Settings | None = None) -> int | None:
    """How many the final table seats: the rule set's size (WSOP R68: ten at 9-handed
    events), else the usual size for the event's tables; None for 2 to 5 seats."""
    size = (settings or event.rules).final_table_size
    try:
        return rules.final_table_size(event.seats_per_table, size)
    except rules.SeatingError:
        return None  # tables of 2 to 5 seats: no final table redraw


def redraw_refusal(event: Event, tables, table_count: int) -> str | None:
    """Why a redraw into `table_count` tables cannot be done now, or None."""
    playing = [table for table in tables if table.occupants]
    players = sum(table.count for table in playing)
    settings = event.rules
    final = final_table_size(event, settings)
    if table_count == 1 and final is None:
        return gettext("no final table size for %(seats)s-handed tables") % {
            "seats": event.seats_per_table
        }
    capacity = (final or 0) if table_count == 1 else table_count * event.seats_per_table
    if len(playing) < table_count:
        return ngettext(
            "only %(count)s table in play", "only %(count)s tables in play", len(playing)
        ) % {"count": len(playing)}
    if players > capacity:
        return ngettext(
            "%(players)s players do not fit %(count)s table of %(seats)s",
            "%(players)s players do not fit %(count)s tables of %(seats)s",
            table_count,
        ) % {"players": players, "count": table_count, "seats": capacity // table_count}
    return None


def _redraw_due(event: Event, settings: rulesets.Settings, tables, redraw_at) -> int | None:
    if not redraw_at:
        return None
    return engine_call(
        rules.redraw_due,
        tables,
        event.seats_per_table,
        redraw_at=redraw_at,
        final_size=settings.final_table_size,
    )


def _redraw_rule(event: Event, table_count: int) -> str:
    """The rule a redraw follows in the event's set ("WSOP R68" for the final table)."""
    return event.cite("final_table" if table_count == 1 else "redraw")


def _redraw_plan(event: Event, seatmap: SeatMap, tables, table_count: int, rng) -> rules.Plan:
    """The redraw into the tables that break last. The final table seats the final table
    size, whatever the table seated before (ten at a 9-handed WSOP event)."""
    staying = rules.break_sequence(tables, seatmap.break_order)[-table_count:]
    final = final_table_size(event) if table_count == 1 else None
    targets = []
    for number in reversed(staying):
        seats = final or seatmap.by_number[number].seats
        targets.append(rules.Table(number, seats))
    return engine_call(
        rules.plan_redraw, tables, target_tables=targets, rng=rng, holds=seatmap.holds
    )


def _summary(event: Event, kind: str, moves: list[Move], broken: list[int]) -> Text:
    if kind == "redraw":
        tables = sorted({m.to_table for m in moves})
        return Text(
            gettext_noop("Final table redraw: %(players)s players to table %(tables)s (%(rule)s)")
            if len(tables) == 1
            else gettext_noop("Redraw: %(players)s players to table %(tables)s (%(rule)s)"),
            players=len(moves),
            tables=", ".join(map(str, tables)),
            rule=_redraw_rule(event, len(tables)),
        )
    if broken:
        return Text(
            gettext_noop("Table %(tables)s breaks: %(moves)s move slips"),
            tables=", ".join(map(str, broken)),
            moves=len(moves),
        )
    slips = [
        Text(
            gettext_noop(
                "table %(from_table)s seat %(from_seat)s to table %(to_table)s seat %(to_seat)s"
            ),
            from_table=m.from_table,
            from_seat=m.from_seat,
            to_table=m.to_table,
            to_seat=m.to_seat,
        )
        for m in moves
    ]
    return Text(gettext_noop("Balancing: %(moves)s"), moves=text_list(slips, SEMICOLONS))
