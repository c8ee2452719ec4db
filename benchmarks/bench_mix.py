"""The busy minute's mix in one process: what each kind of request costs among the others.

Run from the project root: python benchmarks/bench_mix.py [--seconds 20] [--instructions]

bench_load.py's event (3,000 players seated, a table broken), then, in this process through
Django's test client (no network, no queue, no other process), each second of the busy
minute in turn: 300 clock JSON polls, 50 players each asking the seat lookup page with
their name and then the seats JSON (a fresh visitor each: no cookies), and the floor's
bust-outs through the API at 100 a minute, among them. Printed: the CPU of one request of
each kind and over the mix. A bust-out's changes (the screens' cache made again, the seat
list's refill) are paid by the requests that follow it, as on the floor, which one
request measured alone (bench_load.py's first figures) does not show; and unlike the busy
minute over HTTP, no queue magnifies them. compare.py --paired runs it in two checkouts at
once.

With --instructions (needs valgrind), the mix's instructions a request instead, counted by
callgrind: the same event set up here, then the mix run under callgrind twice on copies of
its database, once for --seconds and once with none (the start and the warming alone), the
difference over the requests. Time in those runs is the minute's, not the clock's (a
request's share of a second passes after each request), so the cache's seconds pass as in
the minute however slowly callgrind runs, and two runs of the same code count the same:
a figure no other work on the machine moves. About five minutes for --seconds 6.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

import bench_load
from _setup import ROOT, bench_env, django_setup

POLLS = 300  # clock JSON polls a second: the busy minute's screens
LOOKUPS = 50  # players a second: the lookup page, then the seats JSON
# Bust-outs at 100 a minute: two in each of two seconds, one in the third.
BUSTS = ({0, POLLS // 2}, {0, POLLS // 2}, {0})
# The requests of one second of the mix: the pace of the virtual clock under callgrind.
REQUESTS_A_SECOND = POLLS + 2 * LOOKUPS + 100 / 60


class VirtualClock:
    """Time in a run under callgrind: it moves by the busy minute's pace (one request's
    share of a second after each request) and a microsecond at each reading, so the cache's
    seconds (an entry's age, the seat list's trailing) pass as in the minute however slowly
    the run goes, and two runs of the same code count the same instructions."""

    def __init__(self) -> None:
        self.wall, self.mono, self.moved = time.time(), time.monotonic(), 0.0

    def install(self) -> None:
        time.time = lambda: self._read(self.wall)
        time.monotonic = lambda: self._read(self.mono)
        time.time_ns = lambda: int(self._read(self.wall) * 1e9)

    def _read(self, base: float) -> float:
        self.moved += 1e-6
        return base + self.moved

    def request_done(self) -> None:
        self.moved += 1 / REQUESTS_A_SECOND


def run_mix(event_id: int, token: str, active: dict[int, str], seconds: int, after=None):
    """The warming requests (uncounted), then `seconds` of the mix: {kind: (requests, CPU
    seconds)}. `after` is called after every request."""
    from django.test import Client

    names, numbers = list(active.values()), list(active)
    random.Random(3).shuffle(numbers)
    screen, player, floor = (Client(HTTP_HOST=bench_load.HOST) for _ in range(3))
    cpu: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()

    def ask(kind: str, request, *args) -> None:
        started = time.process_time()
        answer = request(*args)
        cpu[kind] += time.process_time() - started
        count[kind] += 1
        if after:
            after()
        if answer.status_code >= 400:
            raise SystemExit(f"{kind}: {answer.status_code} {answer.content[:200]!r}")

    def bust(number: int):
        return floor.post(
            f"/api/events/{event_id}/bustouts",
            json.dumps({"entries": [number]}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )

    def lookup(name: str):
        player.cookies.clear()  # a fresh visitor
        return player.get(f"/events/{event_id}/seats/?q={urllib.parse.quote(name)}")

    # Each kind once first, uncounted: the first of each pays this process's warming.
    bust(numbers.pop())
    lookup(names[-1])
    screen.get(f"/api/events/{event_id}/clock")
    asked = 0
    for second in range(seconds):
        for i in range(POLLS):
            if i in BUSTS[second % len(BUSTS)]:
                number = numbers.pop()
                ask("bust-out POST", bust, number)
            ask("clock JSON", lambda: screen.get(f"/api/events/{event_id}/clock"))
            if i % (POLLS // LOOKUPS) == 0:
                name = names[asked % len(names)]
                asked += 1
                ask("seat lookup page", lookup, name)
                ask("seats JSON", lambda: player.get(f"/api/events/{event_id}/seats"))
    return {kind: (count[kind], cpu[kind]) for kind in count}


def instructions(seconds: int) -> None:
    """The mix's instructions a request: the event set up here, then the mix run twice
    under callgrind on copies of its database (`seconds` of it, and none: only the start
    and the warming), the difference over the requests counted."""
    if os.environ.get("BENCH_DATABASE_URL"):
        raise SystemExit("--instructions runs on a SQLite file of its own")
    env = bench_env("bench-mix", DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1")
    django_setup(env)
    from django.core.management import call_command
    from django.db import connection

    call_command("collectstatic", interactive=False, verbosity=0)
    event_id, token, active = bench_load.setup_event()
    connection.close()
    database = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
    counted = {}
    with tempfile.TemporaryDirectory() as scratch:
        event = Path(scratch) / "event.json"
        event.write_text(json.dumps([event_id, token, list(active.items())]))
        runs = {}
        for run in (0, seconds):
            copy = Path(scratch) / f"run-{run}.sqlite3"
            shutil.copyfile(database, copy)
            command = [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "--child",
                str(event),
                "--seconds",
                str(run),
            ]
            child_env = {**env, "DATABASE_URL": f"sqlite:///{copy}", "PYTHONHASHSEED": "0"}
            runs[run] = subprocess.Popen(
                command, env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        for run, proc in runs.items():
            out, err = proc.communicate()
            if proc.returncode:
                raise SystemExit(f"the run of {run} s failed:\n{out}\n{err}")
            found = re.search(r"Collected : (\d+)", err)
            requests = re.search(r"(\d+) requests counted", out)
            counted[run] = (int(found[1]), int(requests[1]) if requests else 0)
    total = counted[seconds][0] - counted[0][0]
    requests = counted[seconds][1]
    print(f"{seconds} s of the busy minute's mix in one process, under callgrind:")
    print(f"  the mix {requests:,} requests {total / requests / 1e6:.3f} M instructions a request")


def child(path: str, seconds: int) -> None:
    """One run under callgrind: the event's database as set up, the clock's level made to
    end 20 minutes on (the run may start long after the set-up), then the mix."""
    clock = VirtualClock()
    clock.install()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from datetime import timedelta

    from django.utils import timezone

    from tdsystem.events.models import Clock

    event_id, token, active = json.loads(Path(path).read_text())
    Clock.objects.filter(pk=event_id).update(ends_at=timezone.now() + timedelta(seconds=1200))
    done = run_mix(event_id, token, dict(active), seconds, after=clock.request_done)
    print(f"{sum(n for n, _ in done.values())} requests counted")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions a request under callgrind instead (needs valgrind)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.seconds)
        return
    if args.instructions:
        instructions(args.seconds)
        return
    env = bench_env("bench-mix", DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1")
    django_setup(env)
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    event_id, token, active = bench_load.setup_event()
    done = run_mix(event_id, token, active, args.seconds)
    print(f"{args.seconds} s of the busy minute's mix in this process:")
    for kind, (n, cpu) in done.items():
        print(f"  {kind:18s} {n:6,d} requests {cpu / n * 1000:8.3f} ms")
    total, n = sum(c for _, c in done.values()), sum(n for n, _ in done.values())
    print(f"  {'the mix':18s} {n:6,d} requests {total / n * 1000:8.3f} ms of CPU a request")


if __name__ == "__main__":
    main()
