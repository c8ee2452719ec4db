"""A whole tournament played through the real services, checked after every step.

Registration, the seat draw, random bust-outs (sometimes several on one hand, some tied),
balancing and table breaks, hand-for-hand at the bubble, the final table redraw,
heads-up and the winner. After each step the invariants are checked against the
database; the first one broken stops the run with an error naming the step.

The per-step checks read the tables the step changed (its own table and those of the
moves it made; seats elsewhere cannot have changed) and the finishes the step wrote (its
group's), kept in a `Ledger` of the standing finishes: the places' slots, ties and prizes
are checked from it, so a step's check costs the same at 1,000 or 10,000 players (read
over the whole field after every bust-out, the checks made a run O(n^2)). The ledger is
read whole again when the field or the pool changed (the service then works every place
out again) and at every full check; after an undo, the step's tables are read again and
the finishes from its group on (the service works out only those again). The full check
(every table read again, the seating engine's own invariant check, and every place worked
out again from scratch in Python) runs every `full_every` steps and at the end.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import accumulate
from typing import Protocol

from django.db import connection
from django.db.models import Count, F, Max, Q, Sum

from tdsystem.core.actors import Actor
from tdsystem.core.sql import sql_names
from tdsystem.engine.payouts import place_label
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action, event_create
from tdsystem.results import services
from tdsystem.results.models import BustOut, BustOutGroup, Finish, HandForHand
from tdsystem.results.services import snapshot, standings
from tdsystem.results.services.handforhand import playing_table_hands, playing_tables
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry, EventTable, Move, VenueTable
from tdsystem.structures.services import structure_create

from .seatings import seating_problems

ACTOR = Actor(label="simulation")
LEVELS = [
    {"small_blind": sb, "big_blind": 2 * sb, "ante": sb // 5, "duration_seconds": 1200}
    for sb in (50, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1500, 2000, 3000, 4000)
]
STACKS = (2500, 5000, 5000, 8000, 12000, 20000)  # repeats make ties


class InvariantBroken(Exception):
    """An invariant failed; the message names the step."""


class Alongside(Protocol):
    """What runs beside a simulated event, step by step (the dealers' rotation: `--dealers
    N`: `dealers.DealersAlongside`), given to `Simulation` by name."""

    def setup(self, simulation: Simulation) -> None: ...

    def step(self, simulation: Simulation, n: int) -> None: ...

    def summary(self, simulation: Simulation) -> dict: ...

    def close(self) -> None: ...


@dataclass
class Stats:
    times_ms: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    undos: int = 0
    simultaneous: int = 0
    hfh_hands: int = 0
    hand_finishes: int = 0
    heads_up_hands: int = 0
    steps: int = 0


@contextmanager
def counting():
    """Count the queries run inside (without keeping their text)."""
    count = [0]

    def wrapper(execute, sql, params, many, context):
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield count


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Ledger:
    """The standing finishes as the place checks see them: by finish, with the slots, the
    ties (place, place_to) and the prizes counted, kept up to date from the rows a step
    wrote instead of read whole after every step."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[int | None, int, int, Decimal, bool]] = {}
        self.slots: Counter[int] = Counter()
        self.ties: Counter[tuple[int, int]] = Counter()
        self.prizes = Decimal(0)
        self.winners = 0
        self.changed: set[tuple[int, int]] = set()  # the ties to check again
        self.field: tuple[int, Decimal] | None = None  # (entries, pool) when read whole
        self.stale = True

    def read(self, rows: Iterable[tuple], field: tuple[int, Decimal]) -> None:
        """Every standing finish, as (pk, slot, place, place_to, prize, is_winner)."""
        self.__init__()  # type: ignore[misc]
        self.put(rows)
        self.field, self.stale = field, False

    def put(self, rows: Iterable[tuple]) -> None:
        """Standing finishes written by a step, as `read` takes them."""
        for pk, slot, place, place_to, prize, winner in rows:
            old = self.rows.get(pk)
            if old is not None:
                self._count(old, -1)
            new = (slot, place, place_to, prize or Decimal(0), bool(winner))
            self.rows[pk] = new
            self._count(new, 1)

    def drop(self, pks: Iterable[int]) -> None:
        """Finishes no longer standing (an undo's)."""
        for pk in pks:
            old = self.rows.pop(pk, None)
            if old is not None:
                self._count(old, -1)

    def _count(self, row: tuple[int | None, int, int, Decimal, bool], sign: int) -> None:
        slot, place, place_to, prize, winner = row
        if slot is not None:
            self.slots[slot] += sign
            if not self.slots[slot]:
                del self.slots[slot]
        self.ties[(place, place_to)] += sign
        if not self.ties[(place, place_to)]:
            del self.ties[(place, place_to)]
        self.changed.add((place, place_to))
        self.prizes += sign * prize
        self.winners += sign * winner

    def bad_ties(self) -> int:
        """Tied places shared by the wrong number of players, among those changed since
        the last call (the others were checked when they changed)."""
        bad = sum(
            1
            for place, place_to in self.changed
            if self.ties.get((place, place_to), 0) not in (0, place_to - place + 1)
        )
        self.changed = set()
        return bad


class Simulation:
    def __init__(
        self,
        *,
        players: int,
        seed: int,
        seats_per_table: int = 9,
        full_every: int | None = None,
        progress: Callable[[str], None] | None = None,
        alongside: dict[str, Alongside] | None = None,
    ) -> None:
        if players < 2:
            raise ValueError("a tournament needs at least 2 players")
        if not 6 <= seats_per_table <= 10:
            raise ValueError("tables have 6 to 10 seats")
        self.players, self.seed, self.seats = players, seed, seats_per_table
        self.full_every = full_every or (1 if players <= 200 else max(100, players // 20))
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.progress = progress or (lambda text: None)
        self.active: list[int] = []
        self.position: dict[int, int] = {}
        self.counts: dict[int, int] = {}  # players per table, re-read where a step changed them
        self.sizes: Counter[int] = Counter()  # tables by their count: the spread at a glance
        self.seated = 0  # the counts' sum
        self.last_move = 0
        self.ledger = Ledger()
        self.alongside = alongside or {}
        self._sums_of: tuple[Decimal, ...] | None = None
        self._sums: list[Decimal] = []

    # Set-up -----------------------------------------------------------------------------

    def setup(self) -> None:
        template, _ = structure_create(
            name=f"Simulation {self.seed} structure",
            levels=LEVELS,
            starting_stack=20_000,
            is_template=False,
            confirm_warnings=True,
        )
        self.event = event_create(
            name=f"Simulation {self.seed}",
            template=template,
            actor=ACTOR,
            buy_in=Decimal(100),
            fee=Decimal(10),
            seats_per_table=self.seats,
            starting_stack=20_000,
            simulated=True,  # never the room's current event
        )
        tables = -(-self.players // self.seats)
        # Venue tables of its own, numbered after every table the room has.
        first = (VenueTable.objects.aggregate(m=Max("number"))["m"] or 0) + 1
        numbers = list(range(first, first + tables))
        seating.tables_setup(event=self.event, numbers=numbers, seats=self.seats, actor=ACTOR)
        self.tables = tables
        seating.players_import(
            event_id=self.event.pk,
            names=[f"Player {i:05d}" for i in range(1, self.players + 1)],
            actor=ACTOR,
        )
        seating.seats_draw(event=self.event, actor=ACTOR, seed=self.seed)
        clock_action(event_id=self.event.pk, action="start", actor=ACTOR)
        self.active = list(
            Entry.objects.filter(event=self.event).order_by("pk").values_list("pk", flat=True)
        )
        self.position = {pk: i for i, pk in enumerate(self.active)}
        prizes = standings.prizes_by_place(
            standings.plan_or_default(self.event), self.players, Decimal(100 * self.players)
        )
        self.paid = len(prizes)
        self.check("the seat draw", full=True)

    # Moves of the game ------------------------------------------------------------------

    def _drop(self, pk: int) -> None:
        """Remove from the in-memory list of players in: swap with the last, O(1)."""
        i = self.position.pop(pk)
        last = self.active.pop()
        if last != pk:
            self.active[i], self.position[last] = last, i

    def _add(self, pk: int) -> None:
        self.position[pk] = len(self.active)
        self.active.append(pk)

    def _mates(self, pk: int) -> tuple[int | None, list[int]]:
        """The player's table (its id) and the players in at it, by seat: one statement
        through the cursor (built by the ORM at every step, it cost as much as reading)."""
        entries, e = sql_names(Entry, "e")
        _, m = sql_names(Entry, "m")
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {e['pk']}, {e['table']} FROM {entries} e WHERE {e['table']} = "
                f"(SELECT {m['table']} FROM {entries} m WHERE {m['pk']} = %s) "
                f"AND {e['status']} = %s ORDER BY {e['seat']}",
                [pk, Entry.Status.ACTIVE],
            )
            rows = cursor.fetchall()
        return (rows[0][1] if rows else None), [mate for mate, _ in rows]

    def bust(self, entries: list[int], stacks: dict[int, int] | None, step: str) -> None:
        seed = self.rng.randrange(2**32)
        started = time.perf_counter()
        with counting() as queries:
            done = services.bustout_record(
                event_id=self.event.pk,
                entry_ids=entries,
                stacks=stacks,
                actor=ACTOR,
                rng_seed=seed,
            )
        self.stats.times_ms.append((time.perf_counter() - started) * 1000)
        self.stats.queries.append(queries[0])
        for pk in entries:
            self._drop(pk)
        if len(entries) > 1:
            self.stats.simultaneous += 1
        self.note(done.bustout)
        touched = self.touched(done.bustout.table_number)
        self.check(step, tables=touched)
        if (
            done.winner is None
            and self.rng.random() < 0.02
            and not done.bustout.moves.filter(acknowledged_at__isnull=False).exists()
        ):
            services.bustout_undo(event_id=self.event.pk, bustout_id=done.bustout.pk, actor=ACTOR)
            for pk in entries:
                self._add(pk)
            self.stats.undos += 1
            self.undone(done.bustout)
            # The players sit down again and the moves are taken back: the same tables.
            self.check(f"{step}, undone", tables=touched)
            again = services.bustout_record(
                event_id=self.event.pk,
                entry_ids=entries,
                stacks=stacks,
                actor=ACTOR,
                rng_seed=seed,
            )
            for pk in entries:
                self._drop(pk)
            self.note(again.bustout)
            self.check(f"{step}, recorded again", tables=self.touched(done.bustout.table_number))

    def note(self, bustout: BustOut) -> None:
        """Keep the finishes a report wrote: its group's (a hand-for-hand hand's earlier
        reports may have moved) and the winner's."""
        rows = Finish.objects.filter(
            Q(group_id=bustout.group_id) | Q(bustout_id=bustout.pk), undone_at__isnull=True
        ).values_list("pk", "slot", "place", "place_to", "prize", "is_winner")
        self.ledger.put(rows)

    def undone(self, bustout: BustOut) -> None:
        """Keep what an undo changed: its finishes gone, those of its group and the later
        groups worked out again (the undo's `since`)."""
        self.ledger.drop(bustout.finishes.values_list("pk", flat=True))
        rows = Finish.objects.filter(
            event=self.event, undone_at__isnull=True, group__seq__gte=bustout.group.seq
        ).values_list("pk", "slot", "place", "place_to", "prize", "is_winner")
        self.ledger.put(rows)

    def stacks_for(self, entries: list[int], *, always: bool) -> dict[int, int] | None:
        if len(entries) < 2 and not always:
            return None
        return {pk: self.rng.choice(STACKS) for pk in entries}

    def step_free(self, n: int) -> None:
        """A hand somewhere: one player out, or now and then several at one table."""
        pk = self.rng.choice(self.active)
        table_id, mates = self._mates(pk)
        left = len(self.active)
        out = [pk]
        if len(mates) > 2 and left > 3 and self.rng.random() < 0.1:
            others = [other for other in mates if other != pk]
            extra = self.rng.randint(1, min(2, len(others) - 1, left - 2))
            out += self.rng.sample(others, extra)
        if self.rng.random() < 0.05 and len(mates) >= 2:
            row = EventTable.objects.get(pk=table_id)
            # The simulated floor never walks players over (slips stay pending), so a table
            # it counts as halted deals on, as the floor may decide (confirm_halted).
            seating.table_hand_finish(
                event_id=self.event.pk,
                table_number=row.number,
                expected_hand=row.hand_number,
                confirm_halted=True,
                actor=ACTOR,
            )
            self.stats.hand_finishes += 1
        self.bust(out, self.stacks_for(out, always=False), f"step {n}: {len(out)} out")

    def hand_for_hand(self, n: int) -> None:
        """One hand-for-hand hand: some tables lose a player, then every table reports."""
        tables = playing_tables(self.event)
        hand = HandForHand.objects.get(pk=self.event.pk).hand
        chance = min(0.5, 2.5 / len(tables))
        for number in tables:
            left = len(self.active)
            if left <= 2 or self.rng.random() >= chance:
                continue
            at = Entry.objects.filter(
                event=self.event, status=Entry.Status.ACTIVE, table__number=number
            ).values_list("pk", flat=True)
            at = list(at)
            if len(at) < 2:
                continue
            out = [self.rng.choice(at)]
            self.bust(
                out,
                self.stacks_for(out, always=True),
                f"step {n}: hand-for-hand hand {hand}, table {number}",
            )
        playing = playing_table_hands(self.event)
        for number in self.rng.sample(list(playing), k=len(playing)):
            services.handforhand_hand_finish(
                event_id=self.event.pk,
                table_number=number,
                expected_hand=playing[number],
                confirm_halted=True,
                actor=ACTOR,
            )
        self.stats.hfh_hands += 1
        self.ledger.stale = True  # rare: read every finish again rather than assume
        self.check(f"step {n}: hand-for-hand hand {hand} finished", tables=set())

    def heads_up(self, n: int) -> None:
        """Two left: the button posts the small blind and the big blind alternates (D11)."""
        (number,) = playing_tables(self.event)
        big_blinds = []
        count = EventTable.objects.get(event=self.event, number=number).hand_number
        for hand in range(count, count + 3):
            table = seating.table_hand_finish(
                event_id=self.event.pk, table_number=number, expected_hand=hand, actor=ACTOR
            )
            if table.button != table.small_blind:
                raise InvariantBroken(
                    f"step {n}: heads-up, the button does not post the small blind"
                )
            big_blinds.append(table.big_blind)
            self.stats.heads_up_hands += 1
        if big_blinds[0] == big_blinds[1] or big_blinds[1] == big_blinds[2]:
            raise InvariantBroken(
                f"step {n}: heads-up, a player posted the big blind twice running"
            )

    # The run ------------------------------------------------------------------------------

    def run(self) -> dict:
        try:
            return self._run()
        finally:
            for companion in self.alongside.values():
                companion.close()

    def _run(self) -> dict:
        started, self.cpu_started = time.perf_counter(), time.process_time()
        self.setup()
        for companion in self.alongside.values():
            companion.setup(self)
        n, headsup_done = 0, False
        while len(self.active) > 1:
            n += 1
            self.stats.steps = n
            left = len(self.active)
            hfh = HandForHand.objects.filter(pk=self.event.pk, active=True).exists()
            if hfh and left <= self.paid:
                services.handforhand_stop(event_id=self.event.pk, actor=ACTOR)
                self.ledger.stale = True
                self.check(f"step {n}: the bubble burst, hand-for-hand ends", tables=set())
                hfh = False
            near = self.paid < left <= self.paid + self.seats
            if not hfh and near and len(playing_tables(self.event)) >= 2:
                started_hfh = HandForHand.objects.filter(pk=self.event.pk).exists()
                if not started_hfh:
                    services.handforhand_start(event_id=self.event.pk, actor=ACTOR)
                    hfh = True
            if left == 2 and not headsup_done:
                self.heads_up(n)
                headsup_done = True
            if hfh:
                self.hand_for_hand(n)
            else:
                self.step_free(n)
            for companion in self.alongside.values():
                companion.step(self, n)
            if n % 500 == 0:
                recent = self.stats.times_ms[-500:]
                self.progress(
                    f"step {n}: {len(self.active)} left, bust-out median "
                    f"{statistics.median(recent) if recent else 0:.1f} ms over the last 500, "
                    f"{time.perf_counter() - started:.0f} s in all "
                    f"({time.process_time() - self.cpu_started:.0f} s of CPU)"
                )
        self.check("the end", full=True, final=True)
        summary = self.summary(time.perf_counter() - started)
        for name, companion in self.alongside.items():
            summary[name] = companion.summary(self)
        return summary

    # Invariants ---------------------------------------------------------------------------

    def touched(self, table: int) -> set[int]:
        """The tables a step may have changed: its own and those of the moves it made."""
        moves = Move.objects.filter(event=self.event, pk__gt=self.last_move).values_list(
            "pk", "from_table", "to_table"
        )
        numbers = {table}
        for pk, source, target in moves:
            numbers |= {source, target}
            self.last_move = max(self.last_move, pk)
        return numbers

    def check(
        self,
        step: str,
        *,
        tables: set[int] | None = None,
        full: bool = False,
        final: bool = False,
    ) -> None:
        """`tables`: the tables the step changed (None: any, all are read again)."""
        thorough = self.thorough(full)
        if thorough or tables is None:
            self.ledger.stale = True  # every finish read again too
        problems = self.seat_problems(tables) + self.place_problems()
        if not problems and thorough:
            problems = self.full_problems()
        if not problems and final:
            problems = self.final_problems()
        if problems:
            raise InvariantBroken(f"{step}: " + "; ".join(problems[:5]))

    def thorough(self, full: bool = False) -> bool:
        """Whether this step's check is a full one (asked for, or every `full_every` steps)."""
        return full or self.stats.steps % self.full_every == 0

    def seat_problems(self, tables: set[int] | None) -> list[str]:
        """Seats, read where the step changed them; the full check reads every table.

        Every active entry seated (the tables' counts add up to the players in), no seat
        holding two, no player at a table out of play, tables balanced within the event's
        threshold.
        """
        event, problems = self.event, []
        fields = ("table__number", "seat", "table__in_play", "event_id", "status")
        if tables is None:
            self.counts, self.sizes, self.seated = {}, Counter(), 0
            self.last_move = Move.objects.filter(event=event).aggregate(m=Max("pk"))["m"] or 0
            rows = Entry.objects.filter(
                event=event, status=Entry.Status.ACTIVE, table__isnull=False
            ).values_list(*fields)
        elif not tables:
            rows = Entry.objects.none().values_list(*fields)
        else:
            # Found by the tables (the event's table numbers, then their seats), not among
            # the event's entries: that read every entry of the field on every step.
            # Whoever sits there is read, so a stranger is seen too.
            rows = Entry.objects.filter(table__event=event, table__number__in=tables).values_list(
                *fields
            )
        seen: dict[tuple[int, int], int] = {}
        fresh = dict.fromkeys(tables or (), 0)
        for number, seat, in_play, event_id, status in rows:
            if event_id != event.pk or status != Entry.Status.ACTIVE:
                problems.append(f"table {number} seat {seat} holds a player not in the event")
                continue
            if not in_play:
                problems.append(f"a player sits at table {number}, which is out of play")
            seen[(number, seat)] = seen.get((number, seat), 0) + 1
            fresh[number] = fresh.get(number, 0) + 1
        shared = [where for where, n in seen.items() if n > 1]
        if shared:
            problems.append(f"table {shared[0][0]} seat {shared[0][1]} holds two players")
        for number, count in fresh.items():
            # The sum and the spread kept as the counts change: over every table after
            # each step they cost as much as the step's own read at 1,100 tables.
            old = self.counts.pop(number, 0)
            if old:
                self.sizes[old] -= 1
                if not self.sizes[old]:
                    del self.sizes[old]
            if count:
                self.counts[number] = count
                self.sizes[count] += 1
            self.seated += count - old
        seated = self.seated
        if seated != len(self.active) and not (seated == 0 and self.over()):
            problems.append(f"{seated} players seated, {len(self.active)} in")
        if self.sizes:
            low, high = min(self.sizes), max(self.sizes)
            if high - low > event.balance_threshold:
                problems.append(f"tables unbalanced: {low} to {high} players")
        return problems

    def place_problems(self) -> list[str]:
        """Places unique and contiguous (ties shared by as many), prizes adding up.

        The places count down from the field (`Field.places_from`: on Day 2 of an event
        played in flights, the Day 2 field); the prizes are the whole field's and pool's.
        From the ledger of standing finishes (`Ledger`), read whole again when the field or
        the pool changed since it was (every place is then worked out again) or `stale`.
        """
        event, problems = self.event, []
        fld = standings.field_read(event)
        start = fld.places_from
        if fld.active != len(self.active):
            problems.append(f"{fld.active} players in, {len(self.active)} expected")
        ledger = self.ledger
        if ledger.stale or ledger.field != (fld.entries, fld.pool):
            rows = Finish.objects.filter(event=event, undone_at__isnull=True).values_list(
                "pk", "slot", "place", "place_to", "prize", "is_winner"
            )
            ledger.read(rows, (fld.entries, fld.pool))
        n, winners = len(ledger.rows), ledger.winners
        busted = start - fld.active
        if n - winners != busted:
            problems.append(f"{busted} players out but {n - winners} finishes")
        if n:
            top = 1 if winners else fld.active + 1
            lo, hi, slots = (
                min(ledger.slots, default=None),
                max(ledger.slots, default=None),
                len(ledger.slots),
            )
            if (lo, hi, slots) != (top, start, n):
                problems.append(
                    f"places not contiguous: slots {lo}..{hi} ({slots} "
                    f"distinct) for {n} finishes, expected {top}..{start}"
                )
        bad_ties = ledger.bad_ties()
        if bad_ties:
            problems.append(f"{bad_ties} tied places shared by the wrong number of players")
        prizes = standings.prizes_by_place(standings.plan_for(event), fld.entries, fld.pool)
        sums = self.prize_sums(prizes)
        if sums[-1] != fld.pool:
            problems.append(f"the payouts add up to {sums[-1]}, not the pool {fld.pool}")
        top = 1 if winners else fld.active + 1
        last = min(start, len(prizes))
        owed = sums[last] - sums[top - 1] if top <= last else Decimal(0)
        if ledger.prizes != owed:
            problems.append(f"prizes awarded {ledger.prizes} but places {top}+ pay {owed}")
        return problems

    def prize_sums(self, prizes: tuple[Decimal, ...]) -> list[Decimal]:
        """The prizes' running sums (the first k places' in [k]), kept while the prizes
        are the same (the same tuple, cached): summed again at every step, the paid places'
        prizes cost more than the rest of the check."""
        if self._sums_of is not prizes:
            self._sums_of, self._sums = prizes, [Decimal(0), *accumulate(prizes)]
        return self._sums

    def over(self) -> bool:
        """Finished: the tables went back to the venue and the winner, still in, sits nowhere."""
        return Event.objects.filter(pk=self.event.pk, status=Event.Status.FINISHED).exists()

    def full_problems(self) -> list[str]:
        """Everything read again: every table (the step checks' bookkeeping with it), and
        the field counted from the entries against the counts stored (which the step
        checks and the bust-outs read)."""
        problems = self.seat_problems(None)
        if not self.over():
            problems += seating_problems(self.event)
        # Tuples, not model rows with their groups, reports and entries: a full check at
        # 3,000 finishes cost 430 ms of CPU as rows.
        rows = list(
            Finish.objects.filter(event=self.event, undone_at__isnull=True, is_winner=False)
            .order_by("group__seq", "entry_id")
            .values_list(
                "entry_id",
                "starting_stack",
                "bustout__table_number",
                "group__seq",
                "group__hfh_hand",
                "place",
                "place_to",
            )
        )
        groups: dict[int, tuple[bool, list[standings.Out]]] = {}
        for entry, stack, table, seq, hfh_hand, *_ in rows:
            _, members = groups.setdefault(seq, (hfh_hand is not None, []))
            members.append(standings.Out(entry, stack or 0, table))
        stored, counted = (
            snapshot.field_counts(self.event.pk),
            standings.field_counted(self.event.pk),
        )
        if stored != counted:
            problems.append(f"the stored field counts {stored}, the entries {counted}")
        fld = standings.field_read(self.event)
        plan = standings.plan_or_default(self.event)
        paid = len(standings.prizes_by_place(plan, fld.entries, fld.pool))
        ordered = [groups[s] for s in sorted(groups)]
        expected = {
            f.entry: (f.place, f.place_to)
            for placed in standings.places_in_order(
                fld.places_from, ordered, self.event.rules, paid
            )
            for f in placed.finishes
        }
        for entry, *_, place, place_to in rows:
            if (place, place_to) != expected[entry]:
                problems.append(f"entry {entry} has place {place_label(place, place_to)}")
        return problems

    def final_problems(self) -> list[str]:
        event = Event.objects.get(pk=self.event.pk)
        problems = []
        if event.status != Event.Status.FINISHED:
            problems.append(f"the event is {event.status}, not finished")
        if Clock.objects.get(pk=event.pk).status != Clock.Status.FINISHED:
            problems.append("the clock did not stop")
        total = Finish.objects.filter(event=event, undone_at__isnull=True).aggregate(
            s=Sum("prize"), n=Count("id")
        )
        fld = standings.field_read(event)
        if total["s"] != fld.pool:
            problems.append(f"prizes add up to {total['s']}, the pool is {fld.pool}")
        if total["n"] != fld.places_from:
            problems.append(f"{total['n']} finishes for {fld.places_from} players")
        return problems

    def summary(self, seconds: float) -> dict:
        event = self.event
        winner = Finish.objects.filter(event=event, is_winner=True).select_related("entry__player")
        winner = winner.first()
        multi = (
            BustOutGroup.objects.filter(event=event)
            .annotate(n=Count("finishes", filter=Q(finishes__undone_at__isnull=True)))
            .filter(n__gt=1)
        )
        ties = (
            Finish.objects.filter(event=event, undone_at__isnull=True, place_to__gt=F("place"))
            .values("place")
            .distinct()
            .count()
        )
        times, queries = self.stats.times_ms, self.stats.queries
        return {
            "event": event.pk,
            "name": event.name,
            "players": self.players,
            "seed": self.seed,
            "seats_per_table": self.seats,
            "entries": Entry.objects.filter(event=event).count(),
            "tables": self.tables,
            "tables_broken": EventTable.objects.filter(
                event=event, in_play=False, broken_at__isnull=False
            ).count(),
            "moves": Move.objects.filter(event=event).count(),
            "bustouts": BustOut.objects.filter(event=event, undone_at__isnull=True).count(),
            "simultaneous_groups": multi.count(),
            "tied_places": ties,
            "undos": self.stats.undos,
            "hand_for_hand_hands": self.stats.hfh_hands,
            "heads_up_hands": self.stats.heads_up_hands,
            "paid_places": self.paid,
            "prize_pool": str(standings.field_read(event).pool.quantize(Decimal("0.01"))),
            "winner": winner.entry.player.name if winner else None,
            "bustout_ms": {
                "median": round(statistics.median(times), 2) if times else 0,
                "p95": round(percentile(times, 0.95), 2),
                "max": round(max(times, default=0), 2),
            },
            "bustout_queries": {
                "median": statistics.median(queries) if queries else 0,
                "p95": percentile(queries, 0.95),
                "max": max(queries, default=0),
            },
            "total_seconds": round(seconds, 2),
            # The process's own CPU time: the wall clock counts the machine's other work too.
            "cpu_seconds": round(time.process_time() - self.cpu_started, 2),
        }


def simulate(**kwargs) -> dict:
    return Simulation(**kwargs).run()
