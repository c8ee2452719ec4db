"""Seating services with the database: the seat draw, and a bust-out with what it sets off.

Run from the project root: python benchmarks/bench_seating_services.py
For 1,000 and 10,000 entries at 9-seat tables it prints the time of the initial draw
(the service, writes included), then over 50 bust-outs the median and worst time of one
bustout_record, the service every page and the API record a bust-out with (the finish
with its place and prize, the undo record, and the balancing or table break it sets off,
in one transaction), and its number of queries, which should not grow with the field:
once for players picked at random (most busts move nobody), once for players at the
shortest table (every bust sets off a balancing move). The first bust-out of each field
works the prizes out for the whole field; it is timed before the 50, on its own.
Targets: the draw under 2 s at 10,000 entries; a bust-out under 50 ms median.
Uses BENCH_DATABASE_URL, else an SQLite file of its own (var/bench-seating.sqlite3).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter

from _setup import VAR, bench_env, django_setup

SIZES = (1_000, 10_000)
SEATS = 9
ELIMINATIONS = 50


def run(players: int, first_table: int) -> None:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from tdsystem.results.services import bustout_record
    from tdsystem.seating import services
    from tdsystem.simulation.seatings import ACTOR
    from tests.fixtures import make_event

    event = make_event(3600, 3600, name=f"bench seating {players}")
    tables = -(-players // SEATS)
    numbers = list(range(first_table, first_table + tables))
    services.tables_setup(event=event, numbers=numbers, seats=SEATS, actor=ACTOR)
    names = [f"Player {i:05d}" for i in range(players)]
    services.players_import(event_id=event.pk, names=names, actor=ACTOR)

    started = time.perf_counter()
    seated = services.seats_draw(event=event, actor=ACTOR, seed=7)
    draw_seconds = time.perf_counter() - started

    print(f"{players:,} entries at {tables:,} tables of {SEATS}:")
    print(f"  initial draw (service, {seated:,} seated): {draw_seconds * 1000:8.0f} ms")
    rng = random.Random(3)

    def bust(entry_id: int):
        return bustout_record(
            event_id=event.pk, entry_ids=[entry_id], actor=ACTOR, rng_seed=rng.randrange(1 << 30)
        )

    started = time.perf_counter()
    bust(_any_player(event, rng))
    first_ms = (time.perf_counter() - started) * 1000
    print(f"  first bust-out (prizes for the field): {first_ms:6.0f} ms")
    for label, pick in (
        ("random players", lambda: _any_player(event, rng)),
        ("players at the shortest table", lambda: _at_shortest_table(event, rng)),
    ):
        timings, queries, kinds = [], [], Counter()
        for _ in range(ELIMINATIONS):
            entry_id = pick()
            reset_queries()  # the query log keeps 9,000 at most: count from empty
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                result = bust(entry_id).rebalance
                timings.append(time.perf_counter() - started)
            queries.append(len(captured))
            kinds[(result and result.kind) or "nothing to move"] += 1
        median, worst = statistics.median(timings) * 1000, max(timings) * 1000
        print(f"  bust-out + rebalance, {ELIMINATIONS} {label}:")
        print(f"    median {median:6.1f} ms, worst {worst:6.1f} ms")
        print(
            f"    queries: median {statistics.median(queries):.0f}, "
            f"min {min(queries)}, max {max(queries)}"
        )
        print("    what followed: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


def _any_player(event, rng: random.Random) -> int:
    from tdsystem.seating.models import Entry

    active = Entry.objects.filter(event=event, status="active").values_list("pk", flat=True)
    return rng.choice(list(active))


def _at_shortest_table(event, rng: random.Random) -> int:
    """A bust there leaves that table two short: every one of these needs balancing."""
    from django.db.models import Count

    from tdsystem.seating.models import Entry

    seated = Entry.objects.filter(event=event, status="active", table__isnull=False)
    counts = seated.values("table_id").annotate(n=Count("id")).order_by("n", "table_id")
    shortest = counts.first()["table_id"]
    return rng.choice(list(seated.filter(table_id=shortest).values_list("pk", flat=True)))


def main() -> None:
    env = bench_env()
    if not os.environ.get("BENCH_DATABASE_URL"):
        database = VAR / "bench-seating.sqlite3"
        database.unlink(missing_ok=True)
        env["DATABASE_URL"] = f"sqlite:///{database}"
    django_setup(env)
    from tdsystem.events.models import Event

    # A rerun on a kept database: drop the last run's events so their tables are free.
    Event.objects.filter(name__startswith="bench seating").delete()
    print(f"database: {env['DATABASE_URL'].split('://')[0]}")
    first = 1
    for players in SIZES:
        run(players, first)
        first += players // SEATS + 100


if __name__ == "__main__":
    main()
