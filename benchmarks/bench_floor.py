"""The floor plan of a big room: render time, CPU time, queries and page size.

Run from the project root: python benchmarks/bench_floor.py [--profile]
A room of 600 venue tables (and one of 100 to compare): four events (flights of a
festival) hold nine tables in ten, each with eight players seated, the rest are free. A
director opens /console/floor/ (the whole page), then the HTMX fragment the page polls
every 12 seconds. For each: the median and worst wall time of REPEAT requests through
Django's test client (no network; queries and templates included), the median CPU time
of this process (less noisy on a shared machine than the wall clock), how much of it the
read (`floor_plan` and the tiles' words) takes, the queries and the HTML's size.
`--profile` prints the 15 functions the fragment spends most time in (cProfile).
Uses BENCH_DATABASE_URL, else an SQLite file of its own (var/bench-floor.sqlite3).
"""

from __future__ import annotations

import statistics
import sys
import time

from _setup import bench_env, django_setup

SIZES = (100, 600)
EVENTS = 4
SEATED = 8
REPEAT = 9


def room(tables: int) -> None:
    """`tables` venue tables; nine in ten held by EVENTS events, SEATED players each."""
    from tdsystem.seating.models import Entry, EventTable, Player, VenueTable
    from tests.fixtures import make_event

    Entry.objects.all().delete()
    EventTable.objects.all().delete()
    VenueTable.objects.all().delete()
    VenueTable.objects.bulk_create(VenueTable(number=n, seats=9) for n in range(1, tables + 1))
    venues = {v.number: v for v in VenueTable.objects.all()}
    main = make_event(600, name="bench floor Main Event")
    flights = [f"1{chr(65 + i)}" for i in range(EVENTS)]
    events = [
        make_event(600, name=f"bench floor Main Event · {f}", parent=main, flight=f)
        for f in flights
    ]
    held = [n for n in range(1, tables + 1) if n % 10]
    EventTable.objects.bulk_create(
        EventTable(event=events[i % EVENTS], venue_table=venues[n], number=n, seats=9)
        for i, n in enumerate(held)
    )
    seats = [(t, s) for t in EventTable.objects.order_by("number") for s in range(1, SEATED + 1)]
    players = Player.objects.bulk_create(Player(name=f"Player {i:05d}") for i in range(len(seats)))
    numbers: dict[int, int] = {}
    entries = []
    for (table, seat), player in zip(seats, players, strict=True):
        numbers[table.event_id] = numbers.get(table.event_id, 0) + 1
        entries.append(
            Entry(
                event_id=table.event_id,
                player=player,
                number=numbers[table.event_id],
                chips=1000,
                table=table,
                seat=seat,
            )
        )
    Entry.objects.bulk_create(entries, batch_size=500)


def measure(client, url: str, **headers) -> tuple[float, float, float, int, int]:
    """(median ms, worst ms, median CPU ms, queries, bytes) of GET url."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    timings, cpu, queries, size = [], [], 0, 0
    client.get(url, **headers)  # templates compiled, caches warm
    for _ in range(REPEAT):
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url, **headers)
            cpu.append(time.process_time() - started_cpu)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
        queries, size = len(captured), len(response.content)
    ms = 1000
    return (
        statistics.median(timings) * ms,
        max(timings) * ms,
        statistics.median(cpu) * ms,
        queries,
        size,
    )


def read_cpu() -> float:
    """Median CPU ms of the read alone: the plan and its tiles' words, no template."""
    from tdsystem.venue.selectors_floor import floor_plan
    from tdsystem.venue.views_floor import tile_rows

    cpu = []
    for _ in range(REPEAT):
        started = time.process_time()
        tile_rows(floor_plan())
        cpu.append(time.process_time() - started)
    return statistics.median(cpu) * 1000


# The tiles as the page's template looped over them before `tiles_html` (kept here to
# compare the two within one run).
TEMPLATE_LOOP = (
    "{% load i18n l10n %}{% translate 'free' as free %}{% translate 'Table' as table_word %}"
    "{% localize off %}{% for tile, label in rows %}<li>{% if tile.holder %}"
    '<a class="tile held" data-table="{{ tile.number }}" data-event="{{ tile.holder.id }}" '
    'style="--c: {{ tile.holder.colour }}" '
    "href=\"{% url 'results:table' tile.holder.id tile.number %}\" "
    'title="{{ tile.holder.name }}"><b class="n">{{ tile.number }}</b><span class="ev"><bdi>'
    '{{ tile.holder.name }}</bdi></span><span class="p">{{ label }}</span>'
    '{% if tile.holder.flight %}<span class="fl">{{ tile.holder.flight }}</span>{% endif %}</a>'
    '{% else %}<label class="tile free" data-table="{{ tile.number }}"><b class="n">'
    '{{ tile.number }}</b><span class="ev">{{ free }}</span><span class="p">{{ label }}</span>'
    '{% if may_give %}<input type="checkbox" name="numbers" value="{{ tile.number }}" '
    'id="pick-{{ tile.number }}" hx-preserve aria-label="{{ table_word }} {{ tile.number }}">'
    "{% endif %}</label>{% endif %}</li>{% endfor %}{% endlocalize %}"
)


def tiles_cpu() -> tuple[float, float]:
    """Median CPU ms of the tiles' markup alone: the template loop (before), tiles_html."""
    from django.template import Context, Template

    from tdsystem.venue.selectors_floor import floor_plan
    from tdsystem.venue.views_floor import tile_rows, tiles_html

    rows = tile_rows(floor_plan())
    loop = Template(TEMPLATE_LOOP)
    before, after = [], []
    for _ in range(REPEAT):
        started = time.process_time()
        old = loop.render(Context({"rows": rows, "may_give": True}))
        before.append(time.process_time() - started)
        started = time.process_time()
        new = tiles_html(rows, True)
        after.append(time.process_time() - started)
    assert old == new, "the tiles' markup changed"
    return statistics.median(before) * 1000, statistics.median(after) * 1000


def profile(client, url: str, **headers) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(3):
        client.get(url, **headers)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    env = bench_env("bench-floor")
    django_setup(env)
    from django.test import Client
    from django.utils import translation

    from tests.personas import make_user

    translation.activate("en")
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="bench-floor").delete()
    client = Client(SERVER_NAME="localhost")
    client.force_login(make_user("bench-floor", "director"))
    htmx = {"HTTP_HX_REQUEST": "true"}
    print(f"database: {env['DATABASE_URL'].split('://')[0]}, {REPEAT} requests each")
    heads = ("median", "worst", "CPU", "read CPU", "queries", "HTML")
    print(f"  {'room':11} {'request':26} " + " ".join(f"{h:>9}" for h in heads))
    for tables in SIZES:
        room(tables)
        read = read_cpu()
        for label, headers in (("whole page", {}), ("fragment (HTMX poll)", htmx)):
            median, worst, cpu, queries, size = measure(client, "/console/floor/", **headers)
            print(
                f"  {tables:4} tables {label:26} {median:6.1f} ms {worst:6.1f} ms {cpu:6.1f} ms "
                f"{read:6.1f} ms {queries:8} {size / 1024:5.0f} kB"
            )
        before, after = tiles_cpu()
        print(
            f"  {tables:4} tables tiles' markup alone: template loop {before:.1f} ms CPU, "
            f"tiles_html {after:.1f} ms CPU (the same HTML)"
        )
    if "--profile" in sys.argv:
        profile(client, "/console/floor/", **htmx)


if __name__ == "__main__":
    main()
