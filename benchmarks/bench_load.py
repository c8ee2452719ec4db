"""A tournament floor at once: clock screens, players finding seats, the floor busting players.

Run from the project root: python benchmarks/bench_load.py [--seconds 60] [--scenario festival]

The web server as the venue runs it (`runsystem`'s command: gunicorn.conf.py's gthread
worker and keep-alive, 4 processes of 4 threads on PostgreSQL, 1 of 8 on SQLite, or
WEB_WORKERS and WEB_THREADS; DEBUG off,
static files collected) on a database of its own (BENCH_DATABASE_URL for PostgreSQL, else
a fresh SQLite file), an event seated through the services, a table broken just before
the run. Then, for one bounded run on loopback, after a 5 s warm-up in which the screens
are switched on (they poll all day; the run measures the minute after a table break), in
the default scenario ("festival", the issue's busy minute; "floor" is the smaller one:
1,000 players, 200 screens, 3 floor people at a bust-out a second each):

- 300 clock screens poll GET /api/events/<id>/clock once a second;
- 3,000 players arrive spread over the run (the minute after a table break), each on a
  fresh connection: the seat lookup page with ?q=<their name>, then the seats JSON;
- 10 floor people record 100 bust-outs in the minute through POST
  /api/events/<id>/bustouts (bearer token); every one may balance or break tables. Each
  report carries an Idempotency-Key of its own; one in ten is sent twice with it, as a
  double tap: the second answer, the first one again (Idempotent-Replayed), is expected
  and counted apart.

The screens are switched on once every web worker has said it is warm (each serves the
public pages once to itself before it accepts, tdsystem/serving.py), and each keeps its
one connection from the warm-up into the run, as a TV does.

Per endpoint: requests per second, p50/p99/max latency and errors, then the totals and
the target (p99 under 200 ms and no errors on every endpoint), met or not. With
--timeline, first each second of the run: the requests sent and the slowest answer of
each endpoint, and how late the load generator's own event loop woke (a stall of the
generator delays every answer it times, whatever the server does). Last, where
the CPU went during the run (from /proc): the server, the database's backends, the load
generator and the whole machine, so a run on a shared machine says how much of the two
cores other work took, and what a request cost the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import runpy
import subprocess
import sys
import time
import urllib.parse
import uuid

from _setup import ROOT, VAR, bench_env, django_setup, free_port, start, stop, wait_http
from loadgen import Result, _client

# Named scenarios (--scenario, printed at the top). "festival", the default, is the issue's
# busy minute: 10 floor people record 100 bust-outs while 300 screens poll and 3,000
# players look up their seats. "floor" is the smaller one measured before it.
SCENARIOS = {
    "festival": {"PLAYERS": 3000, "SCREENS": 300, "FLOORS": 10, "BUSTOUTS": 100},
    "floor": {"PLAYERS": 1000, "SCREENS": 200, "FLOORS": 3, "BUSTOUTS": 180},
}
PLAYERS = 3000
SEATS = 9
SCREENS = 300
FLOORS = 10
BUSTOUTS = 100  # over a 60 s run; a longer or shorter run scales it
TARGET_P99_MS = 200.0
WARMUP = 5.0  # seconds the screens poll before the measured run: they are on all day
HOST = "127.0.0.1"


# Set-up through the services -------------------------------------------------------------


def setup_event() -> tuple[int, str, dict[int, str]]:
    """An event of PLAYERS seated players with a running clock, a director's API token and
    the first table break done; (event id, token, {entry number: name} of those in)."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db.models import Max

    from tdsystem.core.actors import Actor
    from tdsystem.core.models import ApiToken, hash_token
    from tdsystem.events.services import clock_action, event_create, event_staff_creator
    from tdsystem.results import services as results
    from tdsystem.seating import services as seating
    from tdsystem.seating.models import Entry, VenueTable
    from tdsystem.structures.services import structure_create

    actor = Actor(label="bench")
    levels = [
        {"small_blind": sb, "big_blind": 2 * sb, "ante": sb // 5, "duration_seconds": 1200}
        for sb in (50, 100, 150, 200, 300, 400)
    ]
    template, _ = structure_create(
        name="Load bench structure", levels=levels, is_template=False, confirm_warnings=True
    )
    event = event_create(
        name="Load bench",
        template=template,
        actor=actor,
        buy_in=Decimal(100),
        seats_per_table=SEATS,
    )
    first = (VenueTable.objects.aggregate(m=Max("number"))["m"] or 0) + 1
    tables = -(-PLAYERS // SEATS)
    seating.tables_setup(
        event=event, numbers=list(range(first, first + tables)), seats=SEATS, actor=actor
    )
    names = [f"Player {i:04d}" for i in range(1, PLAYERS + 1)]
    seating.players_import(event_id=event.pk, names=names, actor=actor)
    seating.seats_draw(event=event, actor=actor, seed=1)
    clock_action(event_id=event.pk, action="start", actor=actor)

    # The table break the players then look their new seats up after.
    rng = random.Random(1)
    ids = list(Entry.objects.filter(event=event).values_list("pk", flat=True))
    rng.shuffle(ids)
    broken, moved, busted = [], 0, 0
    while not broken and busted < 30:
        done = results.bustout_record(event_id=event.pk, entry_ids=[ids.pop()], actor=actor)
        busted += 1
        if done.rebalance:
            broken = list(done.rebalance.broken)
            moved = done.bustout.moves.count()
    print(
        f"event: {PLAYERS} players at {tables} tables of {SEATS}; before the run "
        f"{busted} bust-out(s), table(s) broken {broken or 'none'}, {moved} players moved"
    )

    # get_or_create: a PostgreSQL bench database may hold an earlier run.
    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    user.groups.add(Group.objects.get_or_create(name="director")[0])
    event_staff_creator(event=event, actor=Actor.of(user))  # a director acts on its events
    raw = ApiToken.new_key()
    ApiToken.objects.create(user=user, prefix=raw[:8], key_hash=hash_token(raw))
    active = dict(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).values_list(
            "number", "player__name"
        )
    )
    return event.pk, raw, active


# Where the CPU went ----------------------------------------------------------------------
# On a shared machine the latencies say as much about the neighbours as about the code; the
# CPU seconds each part of the benchmark used during the run (from /proc, Linux only) say
# what a request costs, and how much of the two cores was left to it.

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_cpu(server_session: int, database: str) -> dict[str, float]:
    """CPU seconds used so far by the server (gunicorn's session), the database's backends
    (PostgreSQL processes serving `database`) and this process (the load generator)."""
    used = {"server": 0.0, "database": 0.0}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()  # after "pid (name)"
        cpu = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
        if int(fields[3]) == server_session:
            used["server"] += cpu
        elif database and cmdline.startswith(b"postgres:") and database.encode() in cmdline:
            used["database"] += cpu
    times = os.times()
    used["load generator"] = times.user + times.system
    return used


def _machine_cpu() -> float:
    """CPU seconds every core of the machine has been busy, everything counted."""
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return float("nan")
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle, iowait
    return (sum(values[:8]) - idle) / TICK


class CpuMeter:
    """The CPU used by each part between start() and stop(), and by the whole machine."""

    def __init__(self, server_session: int, database: str) -> None:
        self.args = (server_session, database)
        self.used: dict[str, float] = {}

    def start(self) -> None:
        self.first, self.machine = _proc_cpu(*self.args), _machine_cpu()

    def stop(self) -> None:
        last = _proc_cpu(*self.args)
        self.used = {k: last[k] - self.first.get(k, 0.0) for k in last}
        self.used["whole machine"] = _machine_cpu() - self.machine


def request_costs(event_id: int, names: list[str], n: int = 200) -> None:
    """CPU time and queries of one request of each public read, through Django in this
    process (no network, no other process): a figure the machine's load barely moves."""
    from django.db import connection
    from django.test import Client

    from tdsystem.api.seating import seats_body

    client = Client(HTTP_HOST=HOST)
    paths = {
        "clock JSON": lambda i: f"/api/events/{event_id}/clock",
        "seat lookup page": lambda i: (
            f"/events/{event_id}/seats/?q={urllib.parse.quote(names[i % len(names)])}"
        ),
        "seats JSON": lambda i: f"/api/events/{event_id}/seats",
    }
    queries: list[str] = []

    def count(run, sql, *args):
        queries.append(sql)
        return run(sql, *args)

    print(
        f"one request's cost in this process (the best of 5 batches of {n} of each, "
        "Django's test client):"
    )
    for name, path in paths.items():
        first = client.get(path(0))
        queries.clear()
        with connection.execute_wrapper(count):
            client.get(path(1))
        # The best of five batches: another program on the machine only ever adds to a
        # batch's time, so the least is the request's own.
        batches = []
        for _batch in range(5):
            started = time.process_time()
            for i in range(n):
                client.get(path(i))
            batches.append((time.process_time() - started) / n * 1000)
        cpu = min(batches)
        print(
            f"  {name:18s} {cpu:6.2f} ms of CPU, {len(queries)} queries, "
            f"{len(first.content):,} bytes"
        )
    started = time.process_time()
    for _ in range(5):
        seats_body(event_id)
    made = (time.process_time() - started) / 5 * 1000
    print(
        f"  (the seats JSON from the screens' cache; making it, once a change or a "
        f"SCREEN_CACHE_SECONDS in each language: {made:.1f} ms)"
    )


# HTTP on asyncio ------------------------------------------------------------------------


async def _exchange(port: int, method: str, path: str, body: bytes = b"", headers: str = ""):
    """One request on a fresh connection; (status, body)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n{headers}"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        writer.write(head.encode() + body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), timeout=10)
        if not status_line:
            raise ConnectionError("closed")
        data = await asyncio.wait_for(reader.read(), timeout=10)
        status = int(status_line.split()[1])
        _, _, content = data.partition(b"\r\n\r\n")
        if b"transfer-encoding: chunked" in data.lower().partition(b"\r\n\r\n")[0]:
            content = _unchunk(content)
        return status, content
    finally:
        writer.close()


def _unchunk(data: bytes) -> bytes:
    out, rest = b"", data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.strip() or b"0", 16)
        if not size:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


def _record(result: Result, started: float, status: int | None) -> None:
    if status is None:
        result.errors += 1
        return
    result.latencies.append(time.monotonic() - started)
    result.started.append(started)
    result.statuses[status] = result.statuses.get(status, 0) + 1
    if status >= 400:
        result.errors += 1


async def _get(result: Result, port: int, path: str) -> None:
    started = time.monotonic()
    try:
        status, _ = await _exchange(port, "GET", path)
    except (OSError, ConnectionError, TimeoutError, ValueError, IndexError):
        status = None
    _record(result, started, status)


async def player(results, port, event_id, name, delay):
    await asyncio.sleep(delay)
    query = urllib.parse.quote(name)
    await _get(results["seat lookup page"], port, f"/events/{event_id}/seats/?q={query}")
    await _get(results["seats JSON"], port, f"/api/events/{event_id}/seats")


async def screen(result, port, event_id, seconds, delay):
    """A screen switched on during the warm-up, then measured for the whole run on the
    same kept-alive connection (a TV polls all day on one)."""
    begun = time.monotonic()
    await asyncio.sleep(delay)  # screens were switched on at different moments
    path = f"/api/events/{event_id}/clock"
    run = begun + WARMUP
    await _client(HOST, port, [path], run + seconds, result, 1.0, "", 0, measure_from=run)


class Floor:
    def __init__(self) -> None:
        self.result = Result()
        self.duplicates = self.recorded = self.moves = 0
        self.broken: list[int] = []
        self.refused: list[str] = []
        self.ms_by_kind: dict[str, list[float]] = {"broke a table": [], "other": []}


async def floor_person(floor, port, event_id, token, numbers, seconds, delay, rng, every=1.0):
    """Bust-outs of ``numbers``, one each ``every`` seconds, until the run's end."""
    await asyncio.sleep(delay)
    deadline = time.monotonic() + seconds - delay
    headers = f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
    path = f"/api/events/{event_id}/bustouts"
    sent, begun = 0, time.monotonic()
    while time.monotonic() < deadline and numbers:
        number = numbers.pop()
        # Each report with a key of its own, as the floor's devices send them: a double
        # tap sends it again with the same key and gets the first answer again.
        keyed = f"{headers}Idempotency-Key: {uuid.uuid4()}\r\n"
        body = json.dumps({"entries": [number]}).encode()
        first: tuple[int | None, bytes] = (None, b"")
        for twice in (False, True) if rng.random() < 0.1 else (False,):
            started = time.monotonic()
            try:
                status, content = await _exchange(port, "POST", path, body, keyed)
            except (OSError, ConnectionError, TimeoutError, ValueError, IndexError):
                status, content = None, b""
            if twice and first[0] == 201:  # recorded: the key keeps its answer
                if (status, content) == first:
                    floor.duplicates += 1  # expected: not an error, not in the latencies
                else:  # a second bust-out, or a refusal, for one report
                    floor.result.errors += 1
                    floor.refused.append(f"double tap: {status} {content[:120]!r}")
                continue
            first = (status, content)
            _record(floor.result, started, status)
            if status == 201:
                answer = json.loads(content)
                floor.recorded += 1
                floor.moves += len(answer["moves"])
                floor.broken += answer["broken"]
                kind = "broke a table" if answer["broken"] else "other"
                floor.ms_by_kind[kind].append((time.monotonic() - started) * 1000)
            elif status is not None:
                floor.refused.append(f"{status} {content[:120]!r}")
        sent += 1
        await asyncio.sleep(max(0.0, begun + sent * every - time.monotonic()))


async def measured(meter: CpuMeter, seconds: float) -> None:
    await asyncio.sleep(WARMUP)
    meter.start()
    await asyncio.sleep(seconds)
    meter.stop()


async def loop_lag(lags: list[tuple[float, float]], until: float, every: float = 0.01) -> None:
    """How late the load generator's own event loop wakes up, (when, seconds late): a
    request it times cannot be answered sooner than the loop gets round to reading it."""
    while time.monotonic() < until:
        due = time.monotonic() + every
        await asyncio.sleep(every)
        lags.append((due, time.monotonic() - due))


async def load(port, event_id, token, active, seconds, meter):
    rng = random.Random(2)
    results = {name: Result() for name in ("clock JSON", "seat lookup page", "seats JSON")}
    floor = Floor()
    numbers = list(active)
    rng.shuffle(numbers)
    share = [numbers[i::FLOORS] for i in range(FLOORS)]
    every = FLOORS * 60.0 / BUSTOUTS  # seconds between two bust-outs of one floor person
    names = list(active.values())
    started = time.monotonic() + WARMUP
    lags: list[tuple[float, float]] = []
    await asyncio.gather(
        measured(meter, seconds),
        loop_lag(lags, started + seconds),
        *(
            screen(results["clock JSON"], port, event_id, seconds, rng.random())
            for _ in range(SCREENS)
        ),
        *(
            player(results, port, event_id, name, WARMUP + rng.uniform(0, seconds - 2))
            for name in names
        ),
        *(
            floor_person(
                floor,
                port,
                event_id,
                token,
                share[i],
                seconds + WARMUP,
                WARMUP + i * every / FLOORS,
                rng,
                every,
            )
            for i in range(FLOORS)
        ),
    )
    elapsed = time.monotonic() - started
    results["bust-out POST"] = floor.result
    for result in results.values():
        result.seconds = elapsed
    return results, floor, elapsed, started, lags


# Report ----------------------------------------------------------------------------------


def report_cpu(meter: CpuMeter, results: dict[str, Result], seconds: float) -> None:
    requests = max(1, sum(len(r.latencies) for r in results.values()))
    used = dict(meter.used)
    if not used:
        return
    if not meter.args[1]:
        del used["database"]  # SQLite works inside the server's processes
    cores = os.cpu_count() or 1
    print(
        f"CPU during the run's {seconds:.0f} s ({cores} cores give {cores * seconds:.0f} s): "
        + ", ".join(f"{name} {cpu:.1f} s" for name, cpu in used.items())
    )
    ours = sum(v for k, v in used.items() if k != "whole machine")
    database = (
        f", the database {1000 * used['database'] / requests:.2f} ms" if "database" in used else ""
    )
    print(
        f"  the server {1000 * used['server'] / requests:.2f} ms of CPU a request over the "
        f"mix{database}; other work on the machine {max(0.0, used['whole machine'] - ours):.1f} s"
    )


def report_timeline(
    results: dict[str, Result], started: float, lags: list[tuple[float, float]], seconds: float
) -> None:
    """Per second of the run (by when a request was sent): the requests sent and the
    slowest answer of each endpoint, and the load generator's own event-loop lag, so a
    stall shows where it began and whom it held up."""
    names = list(results)
    print("\nper second: requests sent / slowest answer ms; the load generator's loop lag ms")
    print("   s " + " ".join(f"{name[:16]:>16s}" for name in names) + f" {'loop lag':>9s}")
    for second in range(int(seconds + 0.999)):
        cells = []
        for name in names:
            r = results[name]
            ms = [
                lat * 1000
                for at, lat in zip(r.started, r.latencies, strict=True)
                if second <= at - started < second + 1
            ]
            cells.append(f"{len(ms):6d} / {max(ms, default=0):7.0f}")
        lag = max((d for at, d in lags if second <= at - started < second + 1), default=0.0)
        print(f"{second:4d} " + " ".join(f"{c:>16s}" for c in cells) + f" {lag * 1000:9.0f}")
    if lags:
        worst = sorted(d for _, d in lags)
        print(
            f"loop lag over the run: p50 {worst[len(worst) // 2] * 1000:.1f} ms, "
            f"p99 {worst[int(0.99 * len(worst))] * 1000:.1f} ms, max {worst[-1] * 1000:.1f} ms"
        )


def report(results: dict[str, Result], floor: Floor, elapsed: float) -> bool:
    print(
        f"\n{'endpoint':18s} {'requests':>8s} {'req/s':>7s} {'p50 ms':>7s} {'p99 ms':>7s} "
        f"{'max ms':>7s} {'errors':>6s}"
    )
    total = Result(seconds=elapsed)
    misses = []
    for name, result in results.items():
        s = result.summary()
        total.latencies += result.latencies
        total.errors += result.errors
        print(
            f"{name:18s} {s['requests']:8d} {s['rps']:7.1f} {s['p50_ms']:7.1f} "
            f"{s['p99_ms']:7.1f} {s['max_ms']:7.1f} {s['errors']:6d}"
        )
        if s["errors"] or not s["p99_ms"] <= TARGET_P99_MS:
            misses.append(name)
    s = total.summary()
    print(
        f"{'total':18s} {s['requests']:8d} {s['rps']:7.1f} {s['p50_ms']:7.1f} "
        f"{s['p99_ms']:7.1f} {s['max_ms']:7.1f} {s['errors']:6d}"
    )
    print(
        f"\nbust-outs recorded {floor.recorded}, double taps answered the first answer again "
        f"{floor.duplicates} (expected, not errors), tables broken during the run "
        f"{len(floor.broken)}, players moved {floor.moves}"
    )
    for kind, ms in floor.ms_by_kind.items():
        if ms:
            ms.sort()
            print(
                f"  bust-outs that {kind if kind != 'other' else 'broke none'}: {len(ms)}, "
                f"p50 {ms[len(ms) // 2]:.1f} ms, max {ms[-1]:.1f} ms"
            )
    slowest = sorted(enumerate(floor.result.latencies, 1), key=lambda x: -x[1])[:4]
    if slowest:
        print(
            "  slowest bust-outs (n-th of the run): "
            + ", ".join(f"{n}th {ms * 1000:.0f} ms" for n, ms in slowest)
        )
    for refusal in floor.refused[:5]:
        print(f"  refused: {refusal}")
    for name, result in results.items():
        odd = {k: v for k, v in result.statuses.items() if k >= 400}
        if odd:
            print(f"  {name}: answers {odd}")
    verdict = "MET" if not misses else f"NOT MET ({', '.join(misses)})"
    print(f"target: p99 under {TARGET_P99_MS:.0f} ms and no errors on every endpoint: {verdict}")
    return not misses


def wait_warm(log, workers: int, timeout: float = 60) -> None:
    """Until `workers` web workers have logged that they are warm (or `timeout`)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.read_text(errors="replace").count(" warm (") >= workers:
            return
        time.sleep(0.2)
    print(f"(not every worker said it was warm within {timeout:.0f} s; running anyway)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="festival")
    parser.add_argument(
        "--timeline", action="store_true", help="print each second's slowest answers too"
    )
    args = parser.parse_args()
    globals().update(SCENARIOS[args.scenario])
    print(
        f"scenario {args.scenario}: {PLAYERS} players, {SCREENS} clock screens, {FLOORS} "
        f"floor people recording {BUSTOUTS} bust-outs a minute"
    )
    env = bench_env(
        "bench-load",
        DEBUG="0",
        SECRET_KEY="bench-only",
        ALLOWED_HOSTS="127.0.0.1",
        DB_POOL_MAX="8",  # 3 processes: 24 connections at most
    )
    django_setup(env)
    db = env["DATABASE_URL"].split("://")[0]
    source = "BENCH_DATABASE_URL" if "BENCH_DATABASE_URL" in env else "a fresh SQLite file"
    print(f"database: {db} ({source})")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    event_id, token, active = setup_event()
    request_costs(event_id, list(active.values()))
    from tdsystem.venue.management.commands.runsystem import web_command

    port = free_port()
    command = web_command(f"127.0.0.1:{port}")
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    serving = (
        f"gunicorn {conf['worker_class']} {command[command.index('--workers') + 1]}x"
        f"{conf['threads']}, keep-alive {conf['keepalive']} s"
    )
    # At info, each worker logs when it is warm (tdsystem/serving.py): the screens are
    # switched on once every worker accepts, or the first one up would keep them all.
    command[command.index("--log-level") + 1] = "info"
    log = VAR / "bench-load-gunicorn.log"
    server = start(command, env, log)
    try:
        wait_http(port)
        wait_warm(log, int(command[command.index("--workers") + 1]))
        print(
            f"run: {args.seconds:.0f} s on loopback, {serving} (as runsystem); {SCREENS} clock "
            f"screens at 1/s, {len(active)} players (lookup page + seats JSON) spread over "
            f"the run, {FLOORS} floor people at {BUSTOUTS / FLOORS:.0f} bust-outs a minute each"
        )
        before = os.getloadavg()[0]
        database = env["DATABASE_URL"].rpartition("/")[2] if db.startswith("postgres") else ""
        meter = CpuMeter(server.pid, database)
        results, floor, elapsed, started, lags = asyncio.run(
            load(port, event_id, token, active, args.seconds, meter)
        )
        after = os.getloadavg()[0]
    finally:
        stop(server)
    if args.timeline:
        report_timeline(results, started, lags, args.seconds)
    report(results, floor, elapsed)
    report_cpu(meter, results, args.seconds)
    # The load generator shares the machine's cores with the server; anything else running
    # (a test suite, another benchmark) shows here and in the figures.
    print(
        f"machine: {os.cpu_count()} cores, load average {before:.1f} before the run, "
        f"{after:.1f} after (the benchmark's own processes count in it)"
    )


if __name__ == "__main__":
    main()
