"""A festival day on loopback: two web nodes, two workers, the clock ticker, PostgreSQL and
Redis, a flight played through the API while screens and phones poll, faults on a schedule.

    python benchmarks/run.py --soak --minutes 15          # make bench SOAK=1 [MINUTES=15]
    python benchmarks/soak.py --minutes 3 --entries 1500 --scale 0.1   # a short smoke run

What it starts, each in a process group of its own (so a fault is a kill -9 of the group):
a PostgreSQL cluster of its own (fresh, in /tmp, removed after), a Redis of its own (the
broker), web node A (gunicorn on 127.0.0.2) and B (127.0.0.3) on one port, as
`runsystem` runs gunicorn (gunicorn.conf.py), two Celery workers and beat. Then:

1. The room through the services (no API for these): a structure of `--level-seconds`
   levels, the event, its tables, a director and `--floors` floor accounts on its staff;
   their API tokens from `manage.py create_api_token`.
2. Through the API: `--entries` registrations (POST /entries), the seat draw (POST /draw),
   the clock started (POST /clock).
3. The run (`--minutes`): clock screens poll the clock JSON every second after each
   answer (static/js/clock.js's POLL_MS), phones poll their seat every 20 s (the seat
   lookup's `hx-trigger="every 20s"`, as htmx asks: HX-Request), half on each node; the
   floor people each report a bust-out about every `--bustout-every` seconds and then
   acknowledge the move slips it asked for, each write with an Idempotency-Key and
   retried with it (on the other node after a connection error). `--scale` multiplies the
   screens and phones for a machine that cannot hold 6,500 clients; the report says what
   was used. Faults on a schedule (soak_checks.schedule): kill -9 of web node A (back
   after 20 s), of worker 1 (20 s), of beat (a level and a half), Redis down 30 s,
   PostgreSQL restarted (a fast stop and a start, what pg_ctlcluster restart does);
   `--faults beat,redis` picks some.
4. The checks: every acknowledged write stored once (bust-outs by the log's records of
   the entry, acknowledgements by the slip and its log, registrations by their rows);
   every level change logged once and stored within 5 s of its time; no poll answered
   5xx outside the fault windows (those inside counted); per endpoint p50/p99, bytes an
   answer, requests; CPU by part and per request, from /proc. A table to stdout and the
   whole as JSON in var/soak-<time>.json.

Figures, not pass/fail: it exits 0 whatever the checks say (each check prints its
verdict). On an error, Ctrl-C or SIGTERM it stops everything it started first.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import os
import random
import signal
import sys
import threading
import time
from datetime import UTC, datetime, timedelta

from _setup import ROOT, VAR
from soak_checks import (
    FAULTS,
    Fault,
    LevelChange,
    as_json,
    figures,
    level_check,
    percentile,
    schedule,
    write_check,
)
from soak_http import Clock, Endpoint, Floor, Write, floor_person, poller
from soak_room import NODES, CpuMeter, Installation, inflict

SCREEN_EVERY, PHONE_EVERY = 1.0, 20.0  # static/js/clock.js POLL_MS; lookup.html's htmx
SCREEN_TIMEOUT, PHONE_TIMEOUT = 4.0, 10.0  # clock.js TIMEOUT_MS; a phone's patience

# The room, through the services and the API ------------------------------------------------


def setup_room(args) -> tuple[int, str, list[str]]:
    """The structure, the event, its tables and staff (services: the API has no route for
    them); (event id, the director's token, the floor's tokens) from create_api_token."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    from tdsystem.core.actors import Actor
    from tdsystem.events.services import event_create, event_staff_add, event_staff_creator
    from tdsystem.seating import services as seating
    from tdsystem.structures.services import structure_create

    levels_needed = math.ceil((args.minutes * 60 + 900) / args.level_seconds) + 5
    levels = [
        {"small_blind": 100 * i, "big_blind": 200 * i, "ante": 200 * i,
         "duration_seconds": args.level_seconds}
        for i in range(1, levels_needed + 1)
    ]  # fmt: skip
    template, _ = structure_create(
        name="Soak structure", levels=levels, is_template=False, confirm_warnings=True
    )
    users = get_user_model().objects
    director = users.create_user("soak-director")
    director.groups.add(Group.objects.get_or_create(name="director")[0])
    actor = Actor.of(director)
    event = event_create(
        name="Festival day soak", template=template, actor=actor, buy_in=Decimal(100)
    )
    event_staff_creator(event=event, actor=actor)
    seating.tables_setup(
        event=event, numbers=list(range(1, math.ceil(args.entries / 9) + 1)), seats=9, actor=actor
    )
    floor_group = Group.objects.get_or_create(name="floor")[0]

    def token(username: str) -> str:
        out = io.StringIO()
        call_command("create_api_token", username, label="soak", stdout=out)
        return out.getvalue().split()[-1]

    floor_tokens = []
    for n in range(1, args.floors + 1):
        user = users.create_user(f"soak-floor-{n:02d}")
        user.groups.add(floor_group)
        event_staff_add(event_id=event.pk, user=user, role="floor", actor=actor)
        floor_tokens.append(token(user.username))
    return event.pk, token(director.username), floor_tokens


async def play_in(room: Installation, event_id: int, token: str, entries: int) -> dict:
    """Registrations from eight desks at once (four on each node), the draw, the start."""
    clock = Clock()
    nodes = [(host, room.port) for host in NODES.values()]
    endpoint, writes = Endpoint(), []
    names = [f"Player {n:05d}" for n in range(1, entries + 1)]

    async def desk(i: int) -> None:
        floor = Floor(clock, nodes[i % 2 :] + nodes[: i % 2], token, give_up=300)
        for name in names[i::8]:
            writes.append(
                await floor.send(Write(f"/api/events/{event_id}/entries", {"name": name}), endpoint)
            )
        floor.close()

    await asyncio.gather(*(desk(i) for i in range(8)))
    registered = clock.now()
    director = Floor(clock, nodes, token, give_up=600)
    director.conns = [type(c)(c.host, c.port, 120.0) for c in director.conns]
    draw = await director.send(Write(f"/api/events/{event_id}/draw", {"seed": 1}), Endpoint())
    start = await director.send(
        Write(f"/api/events/{event_id}/clock", {"action": "start"}), Endpoint()
    )
    director.close()
    times = [a.ms for a in endpoint.answers if a.status]
    return {
        "registrations": sum(1 for w in writes if w.status == 201),
        "registration_refused": [
            f"{w.body} {w.status} {w.answer}" for w in writes if w.status != 201
        ][:5],
        "registration_seconds": round(registered, 1),
        "registration_p50_ms": round(percentile(times, 0.5), 1),
        "registration_p99_ms": round(percentile(times, 0.99), 1),
        "draw": f"{draw.status} {draw.answer}"[:200],
        "draw_seconds": round(clock.now() - registered, 1),
        "start": start.status,
        "writes": writes,
    }


# The run -----------------------------------------------------------------------------------


async def the_day(room: Installation, args, event_id: int, floor_tokens: list[str], faults) -> dict:
    clock = Clock()
    wall_zero = datetime.now(UTC)
    seconds = args.minutes * 60
    rng = random.Random(36)
    endpoints = {
        name: Endpoint() for name in ("clock JSON", "seat poll", "bust-out POST", "move ack POST")
    }
    nodes = list(NODES.values())
    screens, phones = round(args.screens * args.scale), round(args.phones * args.scale)
    clock_path = f"/api/events/{event_id}/clock"
    pollers = [
        poller(clock, endpoints["clock JSON"], nodes[i % 2], room.port, clock_path,
               every=SCREEN_EVERY, timeout=SCREEN_TIMEOUT, until=seconds, first=rng.random())
        for i in range(screens)
    ] + [
        poller(clock, endpoints["seat poll"], nodes[i % 2], room.port,
               f"/events/{event_id}/seats/?entry={i % args.entries + 1}",
               every=PHONE_EVERY, timeout=PHONE_TIMEOUT, until=seconds,
               first=rng.uniform(0, PHONE_EVERY), headers="HX-Request: true\r\n")
        for i in range(phones)
    ]  # fmt: skip
    numbers = list(range(1, args.entries + 1))
    rng.shuffle(numbers)
    numbers = numbers[: int(args.entries * args.bust_share)]
    writes: list[Write] = []
    pairs = [(h, room.port) for h in nodes]
    floors = [
        floor_person(
            Floor(clock, pairs[i % 2 :] + pairs[: i % 2], floor_tokens[i], give_up=180),
            event_id, numbers[i :: args.floors], every=args.bustout_every, until=seconds,
            first=rng.uniform(0, args.bustout_every), writes=writes, endpoints=endpoints, rng=rng,
        )
        for i in range(args.floors)
    ]  # fmt: skip
    log = lambda line: print(line, flush=True)  # noqa: E731
    threads = [
        threading.Thread(target=inflict, args=(room, f, clock, log), daemon=True) for f in faults
    ]
    meter = CpuMeter(room)
    meter.start()
    for t in threads:
        t.start()
    print(
        f"run: {args.minutes:g} min, {screens} screens at 1/{SCREEN_EVERY:g} s, {phones} phones "
        f"at 1/{PHONE_EVERY:g} s, {args.floors} floor people (a bust-out about every "
        f"{args.bustout_every:g} s each), levels of {args.level_seconds} s",
        flush=True,
    )
    await asyncio.gather(*pollers, *floors)
    elapsed = clock.now()
    for t in threads:
        await asyncio.to_thread(t.join)
    cpu = meter.used()
    return {
        "clock": clock, "wall_zero": wall_zero, "elapsed": elapsed, "endpoints": endpoints,
        "writes": writes, "cpu": cpu, "screens": screens, "phones": phones,
    }  # fmt: skip


# The checks, from the database -------------------------------------------------------------


def stored_writes(event_id: int, writes: list[Write]) -> tuple[dict[str, int], set[str]]:
    """For each write's key, how many records of it the database holds; the keys whose
    answer is kept (core.idempotency)."""
    from django.db.models import Count

    from tdsystem.core.models import IdempotencyKey, LogEntry
    from tdsystem.results.models import Finish
    from tdsystem.seating.models import Entry, Move

    numbers = dict(Entry.objects.filter(event_id=event_id).values_list("pk", "number"))
    logged: dict[int, int] = {}
    for data in LogEntry.objects.filter(
        event_id=event_id, action="bustout.record", undone_at__isnull=True
    ).values_list("data", flat=True):
        for finish in data["finishes"]:
            number = numbers.get(finish[0])
            logged[number] = logged.get(number, 0) + 1
    finishes = dict(
        Finish.objects.filter(event_id=event_id, bustout__isnull=False)
        .values_list("entry__number")
        .annotate(n=Count("id"))
    )
    acks = {}
    for data in LogEntry.objects.filter(event_id=event_id, action="move.ack").values_list(
        "data", flat=True
    ):
        acks[data["move"]] = acks.get(data["move"], 0) + 1
    done = set(
        Move.objects.filter(event_id=event_id, acknowledged_at__isnull=False).values_list(
            "pk", flat=True
        )
    )
    names = dict(
        Entry.objects.filter(event_id=event_id).values_list("player__name").annotate(n=Count("id"))
    )
    stored = {}
    for w in writes:
        if w.path.endswith("/bustouts"):
            number = w.body["entries"][0]
            stored[w.key] = max(logged.get(number, 0), finishes.get(number, 0))
        elif "/moves/" in w.path:
            move = int(w.path.split("/moves/")[1].split("/")[0])
            stored[w.key] = max(acks.get(move, 0), int(move in done))
        elif w.path.endswith("/entries"):
            stored[w.key] = names.get(w.body["name"], 0)
    kept = set(
        IdempotencyKey.objects.filter(status__lt=400).values_list("key", flat=True).iterator()
    )
    return stored, kept


def level_changes(event_id: int, wall_zero: datetime) -> tuple[list[LevelChange], int, int]:
    """The log's level changes (seconds into the run), the level the clock started at and
    the last one that should have begun 3 s before now by the stored start."""
    from django.utils import timezone

    from tdsystem.core.models import LogEntry
    from tdsystem.events.models import Clock as ClockRow
    from tdsystem.events.services import level_durations

    rows = LogEntry.objects.filter(event_id=event_id, action="clock.level").values_list(
        "at", "recorded_at", "data"
    )
    changes = [
        LevelChange(
            to=data["to"],
            scheduled=(at - wall_zero).total_seconds(),
            stored=(recorded - wall_zero).total_seconds(),
            late_ms=data.get("late_ms", 0),
        )
        for at, recorded, data in rows
    ]
    started = LogEntry.objects.filter(event_id=event_id, action="clock.start").first()
    clock = ClockRow.objects.select_related("event").get(pk=event_id)
    durations = level_durations(clock.event)
    now, ends, last = timezone.now(), started.at if started else timezone.now(), 0
    for index, duration in enumerate(durations):
        ends = ends + timedelta(seconds=duration)
        if ends > now - timedelta(seconds=3):
            last = index
            break
    return changes, 0, last


# The report --------------------------------------------------------------------------------


def failed_timeline(endpoints: dict[str, Endpoint]) -> dict[str, dict[str, int]]:
    """The failed answers by when they were asked, in 5 s steps ("120": 120 to 125 s):
    5xx and none, so overlapping windows can be told apart."""
    steps: dict[str, dict[str, int]] = {}
    for answer in (a for e in endpoints.values() for a in e.answers):
        if answer.status == 0 or answer.status >= 500:
            step = steps.setdefault(str(int(answer.at // 5 * 5)), {"5xx": 0, "none": 0})
            step["5xx" if answer.status else "none"] += 1
    return dict(sorted(steps.items(), key=lambda item: int(item[0])))


def report(result: dict, faults: list[Fault], checks: dict, args) -> dict:
    elapsed = result["elapsed"]
    rows = [figures(name, e.answers, faults) for name, e in result["endpoints"].items()]
    print(
        f"\n{'endpoint':14s} {'answers':>8s} {'/s':>6s} {'p50 ms':>7s} {'p99 ms':>8s} "
        f"{'max ms':>8s} {'B/answer':>8s} {'304':>5s} {'5xx out/in':>10s} "
        f"{'none out/in':>11s} {'4xx':>4s}"
    )
    for f in rows:
        print(
            f"{f.endpoint:14s} {f.requests:8d} {f.requests / elapsed:6.1f} {f.p50_ms:7.1f} "
            f"{f.p99_ms:8.1f} {f.max_ms:8.1f} {f.bytes_per_answer:8.0f} {f.not_modified:5d} "
            f"{f.server_errors_outside:>4d}/{f.server_errors_inside:<5d} "
            f"{f.no_answer_outside:>5d}/{f.no_answer_inside:<5d} {f.other_errors:4d}"
        )
    served = sum(f.requests for f in rows)
    cpu = result["cpu"]
    print(
        f"\nrequests served {served:,} in {elapsed:.0f} s ({served / elapsed:.1f}/s); CPU (s): "
        + ", ".join(f"{k} {v:.1f}" for k, v in sorted(cpu.items()))
    )
    per_request = 1000 * cpu.get("web", 0.0) / max(1, served)
    with_db = 1000 * (cpu.get("web", 0.0) + cpu.get("postgres", 0.0)) / max(1, served)
    print(
        f"CPU a request: web {per_request:.2f} ms, web and PostgreSQL {with_db:.2f} ms "
        f"({os.cpu_count()} cores give {os.cpu_count() * elapsed:.0f} s in the run)"
    )
    print(
        "\nfaults (window: from the fault until the part answered again + 10 s), and the "
        "answers in flight in each window: 5xx, none (refused, reset or timed out); windows "
        "that overlap count the same answers (the JSON has them by 5 s)"
    )
    for f in faults:
        asked = [a for e in result["endpoints"].values() for a in e.answers if f.met(a)]
        f.note += (
            f"; {sum(a.status >= 500 for a in asked)} 5xx, "
            f"{sum(a.status == 0 for a in asked)} none of {len(asked)}"
        )
        print(f"  {f.start:7.1f} to {f.end:7.1f} s  {f.name} ({f.note})")
    w, lv = checks["writes"], checks["levels"]
    print(
        f"\nwrites: {w.acknowledged} acknowledged, {w.retried} retried, {w.replayed} answered "
        f"from their key, {w.gave_up} given up ({w.unacknowledged_but_stored} of them stored), "
        f"{len(w.refused)} refused; missing {len(w.missing)}, stored twice {len(w.doubled)}, "
        f"answer not kept with its key {len(w.keys_missing)}: "
        f"{'OK' if w.ok else 'FAILED'}"
    )
    for line in (w.missing + w.doubled + w.keys_missing + w.refused)[:8]:
        print(f"  {line}")
    print(
        f"level changes: {lv.changes} logged; doubled {lv.doubled or 'none'}, missing "
        f"{lv.missing or 'none'}, stored more than 5 s late {len(lv.late)}: "
        f"{'OK' if lv.ok else 'FAILED'}"
    )
    for late in lv.late:
        print(
            f"  level {late['to']} at {late['at']} s: stored {late['late_s']} s late, "
            f"during {', '.join(late['during']) or 'no fault'}"
        )
    outside = sum(
        f.server_errors_outside for f in rows if f.endpoint in ("clock JSON", "seat poll")
    )
    inside = sum(f.server_errors_inside for f in rows if f.endpoint in ("clock JSON", "seat poll"))
    print(
        f"polls answered 5xx outside the fault windows: {outside} "
        f"({'OK' if not outside else 'FAILED'}); inside them: {inside}"
    )
    for f in rows:
        for at, ms, status in f.outside:
            print(f"  {f.endpoint}: asked at {at:.3f} s, answered {status} after {ms:.0f} ms")
    return {
        "when": result["wall_zero"].isoformat(),
        "options": vars(args),
        "scale": {"screens": result["screens"], "phones": result["phones"]},
        "seconds": round(elapsed, 1),
        "setup": checks["setup"],
        "endpoints": [as_json(f) for f in rows],
        "requests_served": served,
        "cpu_seconds": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_ms_per_request": {"web": round(per_request, 3), "web_and_postgres": round(with_db, 3)},
        "faults": [as_json(f) for f in faults],
        "writes": as_json(w),
        "levels": as_json(lv),
        "polls_5xx_outside_faults": outside,
        "polls_5xx_inside_faults": inside,
        "failed_by_5_seconds": failed_timeline(result["endpoints"]),
        "machine": {"cores": os.cpu_count(), "load_average": os.getloadavg()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15)
    parser.add_argument("--entries", type=int, default=6000)
    parser.add_argument("--screens", type=int, default=1500)
    parser.add_argument("--phones", type=int, default=5000)
    parser.add_argument("--scale", type=float, default=1.0, help="of screens and phones")
    parser.add_argument("--floors", type=int, default=20)
    parser.add_argument("--bustout-every", type=float, default=12.0, help="s, each floor person")
    parser.add_argument("--bust-share", type=float, default=0.5, help="of the field, at most")
    parser.add_argument("--level-seconds", type=int, default=90)
    parser.add_argument("--web-workers", type=int, default=2, help="processes a node")
    parser.add_argument("--web-threads", type=int, default=4)
    parser.add_argument(
        "--faults",
        default=",".join(FAULTS),
        help=f"which, comma-separated ({','.join(FAULTS)}); empty for none",
    )
    args = parser.parse_args()
    asked = tuple(name.strip() for name in args.faults.split(",") if name.strip())
    if set(asked) - set(FAULTS):
        parser.error(f"--faults: unknown {sorted(set(asked) - set(FAULTS))}; use {FAULTS}")

    folder = VAR / "soak"
    if folder.exists():
        for old in folder.glob("*"):
            if old.is_file():
                old.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    room = Installation(folder, args.web_workers, args.web_threads)
    # A SIGTERM stops everything the room started, as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        os.environ.update(room.prepare())
        os.environ["DJANGO_SETTINGS_MODULE"] = "tdsystem.settings"
        import django

        django.setup()
        from django.core.management import call_command

        from tdsystem.venue.management.commands.runsystem import web_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", "--noinput", verbosity=0)
        event_id, director, floor_tokens = setup_room(args)
        room.define(web_command)
        for name in room.commands:
            room.start(name)
        for name in NODES:
            room.answers(name)
        print(
            f"room: PostgreSQL {room.cluster.port}, Redis {room.redis.port}, web A and B on "
            f"{', '.join(NODES.values())}:{room.port} ({args.web_workers} processes of "
            f"{args.web_threads} threads each), 2 workers, beat; logs in {folder}",
            flush=True,
        )
        setup = asyncio.run(play_in(room, event_id, director, args.entries))
        setup_writes = setup.pop("writes")
        print(f"set-up through the API: {setup}", flush=True)
        faults = schedule(args.minutes * 60, level_seconds=args.level_seconds, faults=asked)
        result = asyncio.run(the_day(room, args, event_id, floor_tokens, faults))
        time.sleep(5)  # the tick settles what is due
        from django.db import connections

        connections.close_all()
        writes = result["writes"] + setup_writes
        changes, first, last = level_changes(event_id, result["wall_zero"])
        checks = {
            "setup": setup,
            "writes": write_check(writes, *stored_writes(event_id, writes)),
            "levels": level_check(changes, first=first, last=last, faults=faults),
        }
        out = report(result, faults, checks, args)
    finally:
        room.stop()
    path = VAR / f"soak-{datetime.now(UTC):%Y%m%d-%H%M%S}.json"
    path.write_text(json.dumps(out, indent=2, default=str))
    print(f"\nwritten: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
