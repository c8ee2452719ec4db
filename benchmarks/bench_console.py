"""The seating console page at a big field: render time, queries, rows read and page size.

Run from the project root: python benchmarks/bench_console.py
For 1,000 and 10,000 players seated at 9-seat tables through the services, a director
opens the seating console (the whole page), then the HTMX fragments it reloads: the table
grid (?part=tables), a later page of it (?tables=<n>), a jump to a table (?table=<n>) and
the status card (?part=status). For each: the median and worst time of REPEAT requests
through Django's test client (no network, templates and queries included), the number of
queries, the rows they returned and the size of the HTML.
Target: the console at 10,000 players renders in well under 200 ms, in the same queries
and the same page size as at 1,000.
Uses BENCH_DATABASE_URL, else an SQLite file of its own (var/bench-console.sqlite3).
"""

from __future__ import annotations

import statistics
import time

from _setup import bench_env, django_setup

SIZES = (1_000, 10_000)
SEATS = 9
REPEAT = 7


def measure(client, url: str, **headers) -> tuple[float, float, int, int, int]:
    """(median ms, worst ms, queries, rows, bytes) of GET url."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    timings, queries, rows, size = [], 0, 0, 0
    for _ in range(REPEAT):
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url, **headers)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        queries, size = len(captured), len(response.content)
        rows = _rows(captured)
    return statistics.median(timings) * 1000, max(timings) * 1000, queries, rows, size


def _rows(captured) -> int:
    """Rows the captured SELECTs return, counted by running them again."""
    from django.db import connection

    total = 0
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            sql = query["sql"]
            if sql.lstrip().upper().startswith("SELECT"):
                cursor.execute(sql)
                total += len(cursor.fetchall())
    return total


def run(players: int, first: int, client) -> None:
    from tdsystem.seating import selectors
    from tdsystem.simulation.seatings import field
    from tests.fixtures import make_event

    event = make_event(3600, 3600, name=f"bench console {players}")
    tables = -(-players // SEATS)
    field(event, players=players, tables=tables, seats=SEATS, seed=7, first=first)
    base = f"/console/events/{event.pk}/seating/"
    last = first + tables - 1
    per_page = getattr(selectors, "CONSOLE_TABLES", tables)
    pages = -(-tables // per_page)
    htmx = {"HTTP_HX_REQUEST": "true"}
    print(f"{players:,} players at {tables:,} tables of {SEATS}:")
    print(f"  {'request':34} {'median':>9} {'worst':>9} {'queries':>8} {'rows':>7} {'HTML':>9}")
    for label, url, headers in (
        ("whole console page", base, {}),
        ("table grid, first page (HTMX)", base + "?part=tables", htmx),
        (f"table grid, page {pages} (HTMX)", base + f"?part=tables&tables={pages}", htmx),
        (f"jump to table {last} (HTMX)", base + f"?part=tables&table={last}", htmx),
        ("status card (HTMX)", base + "?part=status", htmx),
    ):
        median, worst, queries, rows, size = measure(client, url, **headers)
        print(
            f"  {label:34} {median:6.1f} ms {worst:6.1f} ms {queries:8} {rows:7,} "
            f"{size / 1024:6.0f} kB"
        )


def main() -> None:
    env = bench_env("bench-console")
    django_setup(env)
    from django.test import Client

    from tdsystem.events.models import Event
    from tests.personas import make_user

    Event.objects.filter(name__startswith="bench console").delete()
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="bench-console").delete()
    client = Client(SERVER_NAME="localhost")
    client.force_login(make_user("bench-console", "director"))
    print(f"database: {env['DATABASE_URL'].split('://')[0]}, {REPEAT} requests each")
    first = 1
    for players in SIZES:
        run(players, first, client)
        first += players // SEATS + 100


if __name__ == "__main__":
    main()
