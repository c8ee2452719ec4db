"""The busy minute's mix in one process: what each kind of request costs among the others.

Run from the project root: python benchmarks/bench_mix.py [--seconds 20]

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
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import time
import urllib.parse
import uuid

import bench_load
from _setup import bench_env, django_setup

POLLS = 300  # clock JSON polls a second: the busy minute's screens
LOOKUPS = 50  # players a second: the lookup page, then the seats JSON
# Bust-outs at 100 a minute: two in each of two seconds, one in the third.
BUSTS = ({0, POLLS // 2}, {0, POLLS // 2}, {0})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    env = bench_env("bench-mix", DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1")
    django_setup(env)
    from django.core.management import call_command
    from django.test import Client

    call_command("collectstatic", interactive=False, verbosity=0)
    event_id, token, active = bench_load.setup_event()
    names, numbers = list(active.values()), list(active)
    random.Random(3).shuffle(numbers)
    screen, player, floor = (Client(HTTP_HOST=bench_load.HOST) for _ in range(3))
    cpu: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()

    def timed(kind: str, ask, *args) -> None:
        started = time.process_time()
        answer = ask(*args)
        cpu[kind] += time.process_time() - started
        count[kind] += 1
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
    for second in range(args.seconds):
        for i in range(POLLS):
            if i in BUSTS[second % len(BUSTS)]:
                number = numbers.pop()
                timed("bust-out POST", bust, number)
            timed("clock JSON", lambda: screen.get(f"/api/events/{event_id}/clock"))
            if i % (POLLS // LOOKUPS) == 0:
                name = names[asked % len(names)]
                asked += 1
                timed("seat lookup page", lookup, name)
                timed("seats JSON", lambda: player.get(f"/api/events/{event_id}/seats"))
    print(f"{args.seconds} s of the busy minute's mix in this process:")
    for kind in cpu:
        print(f"  {kind:18s} {count[kind]:6,d} requests {cpu[kind] / count[kind] * 1000:8.3f} ms")
    total, n = sum(cpu.values()), sum(count.values())
    print(f"  {'the mix':18s} {n:6,d} requests {total / n * 1000:8.3f} ms of CPU a request")


if __name__ == "__main__":
    main()
