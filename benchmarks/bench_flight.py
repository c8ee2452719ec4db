"""A festival flight's bust-outs: 1,000 and 5,400 players at 9-handed tables.

Run from the project root:
    BENCH_DATABASE_URL=postgres://... python benchmarks/bench_flight.py
        [--sizes 1000 5400] [--bustouts 300] [--rules wsop-2026] [--profile] [--queries]
        [--request none transaction key]

Each size is a flight (Day 1A of a festival event, the rule set's balancing and table
breaks) on as many tables as it fills (5,400 players on 600 tables), seated through the
services. Then `--bustouts` players picked at random are reported out one by one through
`bustout_record`, the one service the console, the table pages and the API record a
bust-out with; each report carries the rebalance it sets off (a balancing move, a table
broken every ninth bust-out or so), all in its transaction. It prints the p50, p95 and
worst time of one report and its queries (mean and max), which should be the same at
both sizes, then the same by what followed (nothing, a balancing move, a break).
`--request transaction` times each report as a request to the API or a page runs it: in
the request's transaction (core.writes), the service's own `atomic()` a savepoint in it;
`--request key` adds the Idempotency-Key's row claimed before and its answer kept after.
Several (`--request none transaction key`) make a flight of each size for each, taking
turns with the others, so the ways compare under the same load.
`--profile` prints, for each flight, the functions that took the most time; `--queries`
the statements that took the most time in one report. The flights take turns
bust-out by bust-out, so other work on the machine slows both alike; "cpu" is the time
this process spent (the database server's work not counted).
Target (issue "Festivals"): p95 under 30 ms at 5,400 players on PostgreSQL.
Uses BENCH_DATABASE_URL, else an SQLite file of its own (var/bench-flight.sqlite3).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import re
import statistics
import time
from collections import Counter
from contextlib import contextmanager

from _setup import bench_env, django_setup

SEATS = 9


REQUEST = {
    "none": "its own transaction",
    "transaction": "a request's transaction",
    "key": "a request's, with its key",
}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def flight(players: int, first_table: int, rules: str):
    """A festival event and its flight 1A, the flight's players seated and playing."""
    from tdsystem.events.services import clock_action
    from tdsystem.seating import services
    from tdsystem.simulation.seatings import ACTOR
    from tests.fixtures import make_event

    parent = make_event(3600, 3600, name=f"bench flight {players}", rule_set=rules)
    event = make_event(
        3600, 3600, name=f"bench flight {players} 1A", rule_set=rules, parent=parent, flight="1A"
    )
    tables = -(-players // SEATS)
    numbers = list(range(first_table, first_table + tables))
    services.tables_setup(event=event, numbers=numbers, seats=SEATS, actor=ACTOR)
    services.players_import(
        event_id=event.pk, names=[f"Player {i:05d}" for i in range(players)], actor=ACTOR
    )
    services.seats_draw(event=event, actor=ACTOR, seed=7)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    from django.db import connection

    if connection.vendor == "postgresql":
        # As autovacuum would have by now in a flight that filled over hours: the
        # planner's figures for tables just filled in one go.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return event, tables


class Flight:
    """One flight's bust-outs and their figures."""

    def __init__(self, players: int, first_table: int, args, request: str = "none") -> None:
        from tdsystem.results.services import bustout_record
        from tdsystem.seating.models import Entry
        from tdsystem.simulation.seatings import ACTOR

        self.players, self.args, self.request = players, args, request
        self.event, self.tables = flight(players, first_table, args.rules)
        self.rng = random.Random(3)
        self.active = list(
            Entry.objects.filter(event=self.event, status="active")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        # The first report works the prizes out for the whole field: timed on its own.
        started = time.perf_counter()
        bustout_record(
            event_id=self.event.pk, entry_ids=[self.active.pop(0)], actor=ACTOR, rng_seed=1
        )
        self.first_ms = (time.perf_counter() - started) * 1000
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.queries: list[int] = []
        self.kinds: Counter = Counter()
        self.by_kind: dict[str, list[tuple[float, float, int]]] = {}
        self.statements: Counter = Counter()
        self.spent: Counter = Counter()
        self.profile = cProfile.Profile() if args.profile else None

    def bust(self) -> None:
        from django.db import connection, reset_queries
        from django.test.utils import CaptureQueriesContext

        from tdsystem.results.services import bustout_record
        from tdsystem.simulation.seatings import ACTOR

        entry = self.active.pop(self.rng.randrange(len(self.active)))
        seed = self.rng.randrange(1 << 30)
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            if self.profile:
                self.profile.enable()
            started, cpu = time.perf_counter(), time.process_time()
            with as_request(self.request, f"bust {self.players} {entry}"):
                done = bustout_record(
                    event_id=self.event.pk, entry_ids=[entry], actor=ACTOR, rng_seed=seed
                )
            self.cpu.append((time.process_time() - cpu) * 1000)
            self.wall.append((time.perf_counter() - started) * 1000)
            if self.profile:
                self.profile.disable()
        self.queries.append(len(captured))
        kind = (done.rebalance and done.rebalance.kind) or "nothing to move"
        self.kinds[kind] += 1
        self.by_kind.setdefault(kind, []).append((self.wall[-1], self.cpu[-1], len(captured)))
        if self.args.queries:
            for q in captured.captured_queries:
                self.statements[_shape(q["sql"])] += 1
                self.spent[_shape(q["sql"])] += float(q["time"]) * 1000

    def line(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
        w = self.wall
        return (
            f"{self.players:>8,} {self.request:>11} {self.tables:>6} {self.first_ms:>8.0f} "
            f"{statistics.median(w):>7.1f} {percentile(w, 0.95):>7.1f} {max(w):>7.1f} "
            f"{statistics.median(self.cpu):>7.1f} {percentile(self.cpu, 0.95):>7.1f} "
            f"{statistics.mean(self.queries):>7.1f} {max(self.queries):>6}  {kinds}"
        )

    def kind_lines(self) -> list[str]:
        """The same figures by what followed the report: the tail is the table breaks."""
        lines = []
        for kind, rows in sorted(self.by_kind.items()):
            wall, cpu, queries = zip(*rows, strict=True)
            lines.append(
                f"{self.players:>8,} {self.request:>11} {kind:>16} {len(rows):>4} "
                f"{statistics.median(wall):>7.1f} "
                f"{max(wall):>7.1f} {statistics.median(cpu):>7.1f} {max(cpu):>7.1f} "
                f"{statistics.mean(queries):>7.1f} {max(queries):>6}"
            )
        return lines

    def details(self) -> None:
        if self.profile:
            out = io.StringIO()
            stats = pstats.Stats(self.profile, stream=out)
            stats.sort_stats("cumulative").print_stats("tdsystem", 40)
            stats.sort_stats("tottime").print_stats(25)
            print(out.getvalue())
        if self.args.queries:
            print(f"{self.players:,} players, a report's statements: how many, ms, the statement")
            n = len(self.wall)
            for sql, ms in self.spent.most_common(25):
                print(f"{self.statements[sql] / n:6.2f} {ms / n:6.2f}  {sql}")


_WRITER: dict = {}


@contextmanager
def as_request(how: str, key: str):
    """The report as `how` runs it: alone (none), in a request's transaction, or in one
    with its Idempotency-Key (tdsystem/core/writes.py)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tdsystem.core import idempotency

    if how == "none":
        yield
        return
    with transaction.atomic():
        if how == "transaction":
            yield
            return
        if "user" not in _WRITER:  # a request's user is known before its transaction
            _WRITER["user"], _ = get_user_model().objects.get_or_create(username="bench-flight")
        claimed = idempotency.key_claim(
            user=_WRITER["user"],
            key=key,
            method="POST",
            path="/api/events/1/bustouts",
            body_hash="0" * 64,
        )
        assert claimed.row is not None
        yield
        idempotency.key_answer_keep(
            claimed.row,
            status=201,
            content_type="application/json",
            headers={},
            body=b'{"bustout": 1}' * 100,
        )


def _shape(sql: str) -> str:
    """A statement without its values, to count those of one kind."""
    sql = re.sub(r"\b\d+\b", "N", sql)
    sql = re.sub(r"'[^']*'", "S", sql)
    return re.sub(r"IN \([^)]*\)", "IN (...)", sql)[:160]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5400])
    parser.add_argument("--bustouts", type=int, default=300)
    parser.add_argument("--rules", default="wsop-2026")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--queries", action="store_true")
    parser.add_argument(
        "--request", choices=list(REQUEST), nargs="+", default=["none"], help="see above"
    )
    args = parser.parse_args()
    env = bench_env("bench-flight")
    django_setup(env)
    from tdsystem.core.models import IdempotencyKey
    from tdsystem.events.models import Event

    # A rerun on a kept database: drop the last run's events so their tables are free.
    for old in Event.objects.filter(name__startswith="bench flight").order_by("parent_id"):
        old.delete()
    IdempotencyKey.objects.filter(user__username="bench-flight").delete()
    print(f"database: {env['DATABASE_URL'].split('://')[0]}, rules {args.rules}")
    print("each report in " + "; ".join(f"{r}: {REQUEST[r]}" for r in args.request))
    first, flights = 1, []
    for players in args.sizes:
        for request in args.request:
            flights.append(Flight(players, first, args, request))
            first += players // SEATS + 100
    # The flights take turns, so a machine busy with other work slows each alike: compare
    # them with each other in one run rather than with another run.
    for _ in range(args.bustouts):
        for one in flights:
            one.bust()
    print(
        f"{'players':>8} {'transaction':>11} {'tables':>6} {'first ms':>8} {'p50 ms':>7} "
        f"{'p95 ms':>7} {'max ms':>7} {'cpu p50':>7} {'cpu p95':>7} {'q mean':>7} {'q max':>6}"
        "  what followed"
    )
    for one in flights:
        print(one.line())
    print(
        f"\n{'players':>8} {'transaction':>11} {'what followed':>16} {'n':>4} {'p50 ms':>7} "
        f"{'max ms':>7} {'cpu p50':>7} {'cpu max':>7} {'q mean':>7} {'q max':>6}"
    )
    for one in flights:
        print("\n".join(one.kind_lines()))
    for one in flights:
        one.details()


if __name__ == "__main__":
    main()
