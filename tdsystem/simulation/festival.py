"""A whole festival played through the real services, checked after every step.

A main event with its Day 1 flights (1A, 1B, ...). The players are split over the flights;
some play two flights (registered in both under one member id) and some re-enter in their
flight while late registration is open. The flights play at once on venue tables of their
own: each step is a hand in one of them, chosen at random, so their bust-outs interleave.
A flight plays down to about a quarter to a third of its entries, then its end of day
(WSOP R125): the last hands drawn, every table playing them out (a few more players out on
the way, balancing suspended), a bag for every survivor, the day closed. Once every flight
has closed its day, Day 2 combines the bags (one per player, by the event's bag rule) and
the main event plays to a winner with the single-event simulation's moves (event.py).

After every step the per-event invariants of event.py are checked on the event the
step changed, and the festival's: the whole event's entries are the flights' entries, its
pool the flights' paid. At the combination: one Day 2 entry per player who bagged, each
with the bag the rule keeps, the chips in play those bags' chips. During Day 2: places of
the whole event from the Day 2 field down to 1, unique; at the end the prizes add up to
the whole pool.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, Max, Q, Sum

from tdsystem.events.models import Event
from tdsystem.events.services import clock_action, event_create
from tdsystem.results.services import snapshot, standings
from tdsystem.seating import services as seating
from tdsystem.seating.models import Bag, Entry, EventTable, Purchase, VenueTable
from tdsystem.seating.services import dayend, flights
from tdsystem.structures.services import structure_create

from .event import ACTOR, LEVELS, InvariantBroken, Simulation, Stats, percentile

BUY_IN, FEE, STACK = Decimal(100), Decimal(10), 20_000
# Flights advance their clock by hand (paused, never by the wall clock: a long run must
# not close late registration at a different step than a short one).
LATE_LEVELS = 4  # late registration and re-entries until level 4 ends
DAY_LEVELS = 9  # the level a flight reaches by its end of day
TWICE = 0.08  # of the entries at the draws: second flights of players who played one
REENTER = 0.15  # of the players out while late registration is open
# The balance the last hands leave alone (R125): the only check relaxed during them.
UNBALANCED = ("tables unbalanced", "fewer than table")


def flight_name(index: int) -> str:
    return f"1{chr(ord('A') + index)}"


class FlightPlay(Simulation):
    """One flight: the simulation's moves and per-event checks on a flight the festival
    made, with re-entries, the clock moved on by hand, and the end of its day."""

    def __init__(self, *, festival: Festival, event: Event, people: list[tuple[str, str]]):
        super().__init__(
            players=max(2, len(people)),
            seed=festival.rng.randrange(2**32),
            seats_per_table=festival.seats,
            full_every=festival.full_every_for(len(people)),
        )
        self.festival, self.event, self.people = festival, event, people
        self.name = event.flight
        self.phase = "play"  # then "last" (the last hands) and "closed"
        self.steps = 0
        self.reentries = 0
        self.out_now: list[int] = []
        self.target = 0
        self.level = 1
        self.per_level = 1
        self.last_busts = 0

    def setup(self) -> None:
        """The field, tables of its own after every table the room has, the draw, the clock."""
        event = self.event
        self.tables = -(-len(self.people) // self.seats)
        first = (VenueTable.objects.aggregate(m=Max("number"))["m"] or 0) + 1
        numbers = list(range(first, first + self.tables))
        # Players of two flights first, by member id: the same player in both. Registered
        # before the tables are set up, as pre-registration is: each registration reads
        # the event's tables (to seat a late player), 700 of them at a 6,250-player flight.
        for name, member in self.people:
            if member:
                seating.player_register(
                    event=event, name=name, member_id=member, actor=ACTOR, rng_seed=0
                )
        singles = [name for name, member in self.people if not member]
        if singles:
            seating.players_import(event_id=event.pk, names=singles, actor=ACTOR)
        seating.tables_setup(event=event, numbers=numbers, seats=self.seats, actor=ACTOR)
        seating.seats_draw(event=event, actor=ACTOR, seed=self.seed)
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        clock_action(event_id=event.pk, action="pause", actor=ACTOR)
        self.active = list(
            Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
        )
        self.position = {pk: i for i, pk in enumerate(self.active)}
        entries = len(self.active)
        self.target = round(entries * self.rng.uniform(0.28, 0.33))
        self.per_level = max(1, (entries - self.target) // (DAY_LEVELS - 1))
        self.paid = 0  # a flight pays no places: its payouts are the whole event's
        self.festival.entries += entries
        self.check("the seat draw", full=True)

    # The moves ------------------------------------------------------------------------------

    def _drop(self, pk: int) -> None:
        super()._drop(pk)
        self.out_now.append(pk)

    def step(self) -> None:
        self.steps += 1
        self.stats.steps = self.steps
        if self.phase == "play":
            self.play()
        else:
            self.last_hands()

    def play(self) -> None:
        self.out_now = []
        self.step_free(self.steps)
        out = [pk for pk in self.out_now if pk not in self.position]
        if out and self.level <= LATE_LEVELS and self.rng.random() < REENTER:
            self.reenter(self.rng.choice(out))
        if self.steps % self.per_level == 0 and self.level < DAY_LEVELS:
            clock_action(event_id=self.event.pk, action="next", actor=ACTOR)
            self.level += 1
        if len(self.active) <= self.target:
            self.day_end_start()

    def reenter(self, pk: int) -> None:
        """A player out buys a new entry; with every seat taken the floor opens a table."""
        seats = EventTable.objects.filter(event=self.event, in_play=True).aggregate(s=Sum("seats"))
        if seats["s"] <= len(self.active):
            number = (VenueTable.objects.aggregate(m=Max("number"))["m"] or 0) + 1
            seating.tables_setup(event=self.event, numbers=[number], seats=self.seats, actor=ACTOR)
            self.tables += 1
        done = seating.entry_reenter(
            event_id=self.event.pk, entry_id=pk, actor=ACTOR, rng_seed=self.rng.randrange(2**32)
        )
        self._add(done.entry.pk)
        self.reentries += 1
        self.festival.entries += 1
        assert done.entry.table is not None  # seated at once: the seats are drawn
        self.check(f"step {self.steps}: a re-entry", tables=self.touched(done.entry.table.number))

    def day_end_start(self) -> None:
        day_end = dayend.day_end_start(
            event_id=self.event.pk, actor=ACTOR, seed=self.rng.randrange(2**32)
        )
        self.phase = "last"
        self.festival.progress(
            f"flight {self.name}: {len(self.active)} left, the last {day_end.hands} hands"
        )
        self.check(f"step {self.steps}: the last {day_end.hands} hands", tables=None)

    def last_hands(self) -> None:
        """A hand at one table still playing its last hands; now and then a player out."""
        playing = list(
            EventTable.objects.filter(event=self.event, in_play=True, hands_left__gt=0)
            .order_by("number")
            .values_list("pk", "number", "hand_number")
        )
        if not playing:
            self.bag_and_close()
            return
        pk, number, hand = self.rng.choice(playing)
        at = list(
            Entry.objects.filter(table_id=pk, status=Entry.Status.ACTIVE)
            .order_by("seat")
            .values_list("pk", flat=True)
        )
        if len(at) >= 4 and self.rng.random() < 0.15:
            out = [self.rng.choice(at)]
            self.last_busts += 1
            self.bust(out, None, f"step {self.steps}: last hands, table {number}, 1 out")
        seating.table_hand_finish(
            event_id=self.event.pk,
            table_number=number,
            expected_hand=hand,
            confirm_halted=True,
            actor=ACTOR,
        )
        self.check(f"step {self.steps}: last hands, table {number} hand {hand}", tables={number})

    def bag_and_close(self) -> None:
        """Every survivor counted and bagged, table by table; the flight's chips in play
        shared among them (at random), then the day closed."""
        rows = list(
            Entry.objects.filter(event=self.event, status=Entry.Status.ACTIVE)
            .order_by("table__number", "seat")
            .values_list("pk", "table__number", "seat")
        )
        chips = Entry.objects.filter(event=self.event).aggregate(s=Sum("chips"))["s"]
        weights = [self.rng.random() + 0.1 for _ in rows]
        stacks = [max(1, int(chips * w / sum(weights))) for w in weights]
        stacks[0] += chips - sum(stacks)
        by_table: dict[int, list[tuple[int, int, str]]] = {}
        for (pk, number, seat), stack in zip(rows, stacks, strict=True):
            assert number is not None and seat is not None  # every player in is seated
            by_table.setdefault(number, []).append((seat, stack, f"{self.name}-{pk}"))
        for number, bags in by_table.items():
            dayend.bags_record(event_id=self.event.pk, table_number=number, bags=bags, actor=ACTOR)
        dayend.day_end_close(event_id=self.event.pk, actor=ACTOR)
        self.phase = "closed"
        self.festival.progress(f"flight {self.name}: {len(rows)} bagged, the day closed")
        self.closed_problems(chips)
        self.check("the day closed", full=True)

    # Invariants -----------------------------------------------------------------------------

    def check(self, step: str, **kwargs) -> None:
        super().check(f"flight {self.name}, {step}", **kwargs)
        self.festival.check_whole(
            f"flight {self.name}, {step}", full=self.thorough(kwargs.get("full", False))
        )

    def seat_problems(self, tables: set[int] | None) -> list[str]:
        problems = super().seat_problems(tables)
        if self.phase == "play":
            return problems
        return [p for p in problems if not p.startswith(UNBALANCED)]

    def full_problems(self) -> list[str]:
        problems = super().full_problems()
        if self.phase == "play":
            return problems
        return [p for p in problems if UNBALANCED[1] not in p]

    def closed_problems(self, chips: int) -> None:
        """The day closed: a bag for every player still in, the bags holding every chip."""
        step = f"flight {self.name}, the day closed"
        bags = Bag.objects.filter(event=self.event, day=1).aggregate(
            n=Count("id"), players=Count("entry", distinct=True), chips=Sum("chips")
        )
        problems = []
        if bags["n"] != len(self.active) or bags["players"] != len(self.active):
            problems.append(f"{bags['n']} bags for {len(self.active)} players in")
        if bags["chips"] != chips:
            problems.append(f"the bags hold {bags['chips']} chips, {chips} are in play")
        if problems:
            raise InvariantBroken(f"{step}: " + "; ".join(problems))


class Day2Play(Simulation):
    """Day 2 and on: the simulation's play loop around the main event, seated by the
    combination. Its places start from the Day 2 field, its prizes are the whole event's."""

    def __init__(self, *, festival: Festival) -> None:
        super().__init__(
            players=2,
            seed=festival.rng.randrange(2**32),
            seats_per_table=festival.seats,
            full_every=festival.full_every_for(festival.day2_players),
            progress=festival.progress,
        )
        self.festival = festival
        self.event = festival.main

    def setup(self) -> None:
        event = self.event = Event.objects.get(pk=self.event.pk)
        self.active = list(
            Entry.objects.filter(event=event, status=Entry.Status.ACTIVE)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        self.position = {pk: i for i, pk in enumerate(self.active)}
        self.players = len(self.active)
        self.tables = EventTable.objects.filter(event=event, in_play=True).count()
        clock_action(event_id=event.pk, action="start", actor=ACTOR)
        fld = standings.field_read(event)
        self.paid = len(
            standings.prizes_by_place(standings.plan_or_default(event), fld.entries, fld.pool)
        )
        self.check("the Day 2 draw", full=True)

    def check(self, step: str, **kwargs) -> None:
        super().check(f"Day 2, {step}", **kwargs)
        self.festival.check_whole(f"Day 2, {step}", full=self.thorough(kwargs.get("full", False)))

    def full_problems(self) -> list[str]:
        """The simulation's full check (places from the Day 2 field, `Field.places_from`)
        and the combination's bookkeeping."""
        return super().full_problems() + self.festival.day2_problems()


@dataclass
class Kept:
    """What the festival's own bookkeeping expects of Day 2."""

    players: int
    chips: int
    bagged_twice: int


class Festival:
    def __init__(
        self,
        *,
        players: int,
        flights: int,
        seed: int,
        seats_per_table: int = 9,
        full_every: int | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        if not 1 <= flights <= 26:
            raise ValueError("a festival has 1 to 26 flights")
        if not 6 <= seats_per_table <= 10:
            raise ValueError("tables have 6 to 10 seats")
        # The end of a day needs more than three tables in play (R125): the 28% of a
        # flight's entries it starts with must need four.
        least = 12 * seats_per_table
        if players < least * flights:
            raise ValueError(f"{flights} flights need at least {least * flights} players")
        self.players, self.flight_count, self.seed = players, flights, seed
        self.seats, self.full_every = seats_per_table, full_every
        self.rng = random.Random(seed)
        self.progress = progress or (lambda text: None)
        self.entries = 0  # every entry registered, by the festival's own count
        self.day2_players = 0
        self.kept: Kept | None = None

    def full_every_for(self, players: int) -> int:
        return self.full_every or (1 if players <= 200 else max(100, players // 20))

    # Set-up ---------------------------------------------------------------------------------

    def setup(self) -> None:
        template, _ = structure_create(
            name=f"Festival {self.seed} structure",
            levels=LEVELS,
            starting_stack=STACK,
            is_template=False,
            confirm_warnings=True,
        )
        self.main = event_create(
            name=f"Festival {self.seed}",
            template=template,
            actor=ACTOR,
            buy_in=BUY_IN,
            fee=FEE,
            seats_per_table=self.seats,
            starting_stack=STACK,
            late_registration_end_level=LATE_LEVELS,
            reentry_allowed=True,
            simulated=True,  # never the room's current event
        )
        events = [
            flights.flight_add(event_id=self.main.pk, name=flight_name(i), actor=ACTOR)
            for i in range(self.flight_count)
        ]
        self.flights = [
            FlightPlay(festival=self, event=event, people=people)
            for event, people in zip(events, self.split(), strict=True)
        ]
        for flight in self.flights:
            flight.setup()
            self.progress(f"flight {flight.name}: {len(flight.active)} players drawn")

    def split(self) -> list[list[tuple[str, str]]]:
        """Who plays which flight: (name, member id); a member id for those who play two."""
        n = self.flight_count
        sizes = [self.players // n + (i < self.players % n) for i in range(n)]
        twice = int(self.players * TWICE / 2) if n > 1 else 0
        people: list[list[tuple[str, str]]] = [[] for _ in range(n)]
        number = 0
        for _ in range(twice):
            number += 1
            first = self.rng.randrange(n - 1)
            second = self.rng.randrange(first + 1, n)
            for i in (first, second):
                people[i].append((f"Player {number:05d}", f"M{number:05d}"))
        for i in range(n):
            for _ in range(sizes[i] - len(people[i])):
                number += 1
                people[i].append((f"Player {number:05d}", ""))
        return people

    # The run --------------------------------------------------------------------------------

    def run(self) -> dict:
        started, self.cpu_started = time.perf_counter(), time.process_time()
        self.setup()
        self.check_whole("the seat draws")
        playing = list(self.flights)
        steps = 0
        while playing:
            flight = self.rng.choice(playing)
            flight.step()
            if flight.phase == "closed":
                playing.remove(flight)
            steps += 1
            if steps % 500 == 0:
                left = ", ".join(f"{f.name} {len(f.active)}" for f in self.flights)
                self.progress(f"step {steps}: {left} left, {time.perf_counter() - started:.0f} s")
        flights_seconds = time.perf_counter() - started
        self.combine()
        self.day2 = Day2Play(festival=self)
        day2 = self.day2.run()
        return self.summary(day2, flights_seconds, time.perf_counter() - started)

    def combine(self) -> None:
        self.kept = self.expected_day2()
        flights.day2_combine(event_id=self.main.pk, actor=ACTOR, seed=self.rng.randrange(2**32))
        self.main.refresh_from_db()
        self.day2_players = Entry.objects.filter(event=self.main).count()
        self.progress(f"Day 2: {self.day2_players} players")
        problems = self.day2_problems()
        if problems:
            raise InvariantBroken("Day 2 combined: " + "; ".join(problems))

    # The festival's invariants -------------------------------------------------------------

    def check_whole(self, step: str, *, full: bool = True) -> None:
        """The whole event's field is its flights': every entry, every buy-in in the pool.

        After every step, from the stored counts (`standings.field_read`: the event's and
        its flights' rows, a few whatever the field); at every full check also counted
        from the entries of every flight, to compare with the stored counts."""
        fld = standings.field_read(self.main)
        problems = []
        if fld.entries != self.entries:
            problems.append(f"the whole event has {fld.entries} entries, {self.entries} made")
        if fld.pool != BUY_IN * self.entries:
            problems.append(f"the pool is {fld.pool}, {self.entries} buy-ins paid")
        if full:
            stored = snapshot.field_counts(self.main.pk)
            counted = standings.field_counted(self.main.pk)
            if stored != counted:
                problems.append(f"the stored field counts {stored}, the entries {counted}")
        if problems:
            raise InvariantBroken(f"{step}: " + "; ".join(problems))

    def expected_day2(self) -> Kept:
        """Per player, the bag the rule keeps: the larger stack, or the first flight's."""
        rows = Bag.objects.filter(event__parent=self.main, day=1).values_list(
            "entry__player_id", "chips", "event__pk"
        )
        kept: dict[int, tuple[int, int]] = {}
        twice = 0
        larger = self.main.bag_rule == Event.BagRule.LARGER
        for player, chips, flight in rows.order_by("event__pk"):
            if player in kept:
                twice += 1
                if larger and chips > kept[player][0]:
                    kept[player] = (chips, flight)
            else:
                kept[player] = (chips, flight)
        return Kept(len(kept), sum(chips for chips, _ in kept.values()), twice)

    def day2_problems(self) -> list[str]:
        """One Day 2 entry per player who bagged, carried from a bag the rule keeps."""
        assert self.kept is not None
        main, problems = self.main, []
        entries = Entry.objects.filter(event=main)
        agg = entries.aggregate(
            n=Count("id"),
            players=Count("player", distinct=True),
            carried=Count("id", filter=Q(carried_from__isnull=False)),
        )
        chips = Purchase.objects.filter(event=main, kind=Purchase.Kind.CARRY).aggregate(
            s=Sum("chips")
        )["s"]
        if (agg["n"], agg["players"], agg["carried"]) != (self.kept.players,) * 3:
            problems.append(
                f"{agg['n']} Day 2 entries ({agg['players']} players, {agg['carried']} "
                f"carried) for {self.kept.players} players bagged"
            )
        if chips != self.kept.chips:
            problems.append(
                f"Day 2 starts with {chips} chips, the kept bags hold {self.kept.chips}"
            )
        wrong = entries.exclude(carried_from__bags__chips=F("chips")).count()
        if wrong:
            problems.append(f"{wrong} Day 2 entries' chips differ from their flight's bag")
        return problems

    # The summary ----------------------------------------------------------------------------

    def summary(self, day2: dict, flights_seconds: float, seconds: float) -> dict:
        stats = [f.stats for f in self.flights] + [self.day2.stats]
        assert self.kept is not None
        return {
            "event": self.main.pk,
            "name": self.main.name,
            "seed": self.seed,
            "players": self.players,
            "seats_per_table": self.seats,
            "entries": self.entries,
            "reentries": sum(f.reentries for f in self.flights),
            "flights": [
                {
                    "name": f.name,
                    "event": f.event.pk,
                    "entries": Entry.objects.filter(event=f.event).count(),
                    "tables": f.tables,
                    "bagged": Bag.objects.filter(event=f.event, day=1).count(),
                    "last_hands": f.event.day_ends.get(day=1).hands,
                    "out_in_last_hands": f.last_busts,
                }
                for f in self.flights
            ],
            "bagged_twice": self.kept.bagged_twice,
            "bag_rule": self.main.bag_rule,
            "day2_players": self.day2_players,
            "day2_chips": self.kept.chips,
            "day2_tables": day2["tables"],
            "paid_places": day2["paid_places"],
            "prize_pool": day2["prize_pool"],
            "winner": day2["winner"],
            "bustouts": {
                "flights": timings([f.stats for f in self.flights]),
                "day2": timings([self.day2.stats]),
                **timings(stats),
            },
            "hand_for_hand_hands": day2["hand_for_hand_hands"],
            "undos": sum(s.undos for s in stats),
            "flights_seconds": round(flights_seconds, 2),
            "total_seconds": round(seconds, 2),
            "cpu_seconds": round(time.process_time() - self.cpu_started, 2),
        }


def timings(stats: list[Stats]) -> dict:
    times = [t for s in stats for t in s.times_ms]
    queries = [q for s in stats for q in s.queries]
    return {
        "count": len(times),
        "p50_ms": round(statistics.median(times), 2) if times else 0,
        "p95_ms": round(percentile(times, 0.95), 2),
        "max_ms": round(max(times, default=0), 2),
        "queries_mean": round(statistics.mean(queries), 1) if queries else 0,
        "queries_max": max(queries, default=0),
    }


def simulate_festival(**kwargs) -> dict:
    return Festival(**kwargs).run()
