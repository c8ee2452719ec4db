"""A festival flight's bust-outs: 1,000 and 5,400 players at 9-handed tables.

Run from the project root:
    BENCH_DATABASE_URL=postgres://... python benchmarks/bench_flight.py
        [--sizes 1000 5400] [--bustouts 300] [--rules wsop-2026] [--profile] [--queries]

Each size is a flight (Day 1A of a festival event, the rule set's balancing and table
breaks) on as many tables as it fills (5,400 players on 600 tables), seated through the
services. Then `--bustouts` players picked at random are reported out one by one through
`bustout_record`, the one service the console, the table pages and the API record a
bust-out with; each report carries the rebalance it sets off (a balancing move, a table
broken every ninth bust-out or so), all in its transaction. It prints the p50, p95 and
worst time of one report and its queries (mean and max), which should be the same at
both sizes. `--profile` prints the functions that took the most time at the last size;
`--queries` the statements run most often in one report.
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

from _setup import bench_env, django_setup

SEATS = 9


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def flight(players: int, first_table: int, rules: str):
    """A festival event and its flight 1A, the flight's players seated and playing."""
    from tdsystem.events.services import clock_action
    from tdsystem.seating import services
    from tdsystem.seating.testing import ACTOR
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
    return event, tables


def run(players: int, first_table: int, args) -> dict:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from tdsystem.results.services import bustout_record
    from tdsystem.seating.models import Entry
    from tdsystem.seating.testing import ACTOR

    event, tables = flight(players, first_table, args.rules)
    rng = random.Random(3)
    active = list(
        Entry.objects.filter(event=event, status="active")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    # The first report works the prizes out for the whole field: timed on its own.
    started = time.perf_counter()
    bustout_record(event_id=event.pk, entry_ids=[active.pop(0)], actor=ACTOR, rng_seed=1)
    first_ms = (time.perf_counter() - started) * 1000

    timings, queries, kinds = [], [], Counter()
    statements: Counter = Counter()
    spent: Counter = Counter()
    profile = cProfile.Profile() if args.profile else None
    for _ in range(args.bustouts):
        entry = active.pop(rng.randrange(len(active)))
        seed = rng.randrange(1 << 30)
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            if profile:
                profile.enable()
            started = time.perf_counter()
            done = bustout_record(event_id=event.pk, entry_ids=[entry], actor=ACTOR, rng_seed=seed)
            timings.append((time.perf_counter() - started) * 1000)
            if profile:
                profile.disable()
        queries.append(len(captured))
        kinds[(done.rebalance and done.rebalance.kind) or "nothing to move"] += 1
        if args.queries:
            for q in captured.captured_queries:
                statements[_shape(q["sql"])] += 1
                spent[_shape(q["sql"])] += float(q["time"]) * 1000
    row = {
        "players": players,
        "tables": tables,
        "first_ms": first_ms,
        "p50": statistics.median(timings),
        "p95": percentile(timings, 0.95),
        "max": max(timings),
        "q_mean": statistics.mean(queries),
        "q_max": max(queries),
        "kinds": kinds,
    }
    if profile:
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("cumulative").print_stats("tdsystem", 40)
        stats.sort_stats("tottime").print_stats(25)
        row["profile"] = out.getvalue()
    if args.queries:
        row["statements"], row["spent"] = statements, spent
    return row


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
    args = parser.parse_args()
    env = bench_env("bench-flight")
    django_setup(env)
    from tdsystem.events.models import Event

    # A rerun on a kept database: drop the last run's events so their tables are free.
    for old in Event.objects.filter(name__startswith="bench flight").order_by("parent_id"):
        old.delete()
    print(f"database: {env['DATABASE_URL'].split('://')[0]}, rules {args.rules}")
    print(
        f"{'players':>8} {'tables':>6} {'first ms':>8} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'max ms':>7} {'q mean':>7} {'q max':>6}  what followed"
    )
    first, rows = 1, []
    for players in args.sizes:
        row = run(players, first, args)
        rows.append(row)
        first += players // SEATS + 100
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(row["kinds"].items()))
        print(
            f"{players:>8,} {row['tables']:>6} {row['first_ms']:>8.0f} {row['p50']:>7.1f} "
            f"{row['p95']:>7.1f} {row['max']:>7.1f} {row['q_mean']:>7.1f} {row['q_max']:>6}  "
            f"{kinds}",
            flush=True,
        )
    last = rows[-1]
    if "profile" in last:
        print(last["profile"])
    if "statements" in last:
        print("a report's statements: how many, ms in all, the statement")
        for sql, ms in last["spent"].most_common(25):
            n = last["statements"][sql]
            print(f"{n / args.bustouts:6.2f} {ms / args.bustouts:6.2f}  {sql}")


if __name__ == "__main__":
    main()
