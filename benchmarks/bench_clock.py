"""Clock figures: how late level changes are applied, and the clock JSON under load.

1. 100 one-second levels with a real worker and beat: lateness of each level change
   (applied time - scheduled time), median and worst.
2. GET /api/events/<id>/clock with 200 concurrent keep-alive clients on loopback against
   gunicorn with production settings (DEBUG off), next to a bare view returning constant
   JSON in the same run, taking turns: requests per second, p50/p99 latency, the ratio.
"""

from __future__ import annotations

import statistics
import sys
import time

from _setup import VAR, bench_env, django_setup, free_port, gunicorn, start, stop, wait_http
from loadgen import run

LEVELS = 100
CLIENTS = 200
SECONDS = 12  # each side, in ROUNDS turns
ROUNDS = 3


def lateness(env: dict) -> None:
    from tdsystem.core.actors import Actor  # after django_setup: it puts the project on the path
    from tdsystem.core.models import LogEntry
    from tdsystem.events import services
    from tdsystem.events.models import Clock
    from tdsystem.structures.services import structure_create

    levels = [
        {"small_blind": 1 + i, "big_blind": 2 + 2 * i, "duration_seconds": 1} for i in range(LEVELS)
    ]
    levels.append({"small_blind": 1000, "big_blind": 2000, "duration_seconds": 3600})
    template, _ = structure_create(
        name="bench one-second levels", levels=levels, is_template=False, confirm_warnings=True
    )
    event = services.event_create(
        name="bench lateness", template=template, actor=Actor(label="bench")
    )
    worker = start(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tdsystem.celery",
            "worker",
            "--beat",
            "--pool=threads",
            "--concurrency=4",
            "--loglevel=INFO",
            f"--schedule={VAR / 'bench-beat-schedule'}",
        ],
        env | {"CLOCK_TICK_SECONDS": "1"},
        VAR / "bench-worker.log",
    )
    try:
        deadline = time.monotonic() + 60
        while " ready." not in (VAR / "bench-worker.log").read_text():
            if time.monotonic() > deadline or worker.poll() is not None:
                raise RuntimeError("the worker did not start; see var/bench-worker.log")
            time.sleep(0.2)
        services.clock_action(event_id=event.pk, action="start", actor=Actor())
        deadline = time.monotonic() + LEVELS + 30
        while Clock.objects.get(pk=event.pk).level_index < LEVELS:
            if time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        stop(worker)
    late = [e.data["late_ms"] for e in LogEntry.objects.filter(event=event, action="clock.level")]
    broker = env["CELERY_BROKER_URL"].split("://")[0]
    print(f"level changes applied: {len(late)} of {LEVELS} one-second levels (broker {broker})")
    if late:
        print(
            f"  lateness after the scheduled time: median {statistics.median(late):.0f} ms, "
            f"worst {max(late):.0f} ms"
        )


def load(env: dict) -> None:
    from tdsystem.events.models import Event

    event = Event.objects.order_by("-pk").first()
    port = free_port()
    server = gunicorn(
        env
        | {
            "DEBUG": "0",
            "SECRET_KEY": "bench-only",
            "ROOT_URLCONF": "urls_bench",
            "ALLOWED_HOSTS": "127.0.0.1",
        },
        port,
        VAR / "bench-gunicorn.log",
    )
    try:
        # Not /healthz: it asks the broker and the worker. A loaded machine starts slowly.
        wait_http(port, "/bench/constant", timeout=120)
        db = env["DATABASE_URL"].split("://")[0]
        print(
            f"\nHTTP, {CLIENTS} concurrent clients, {SECONDS} s each in {ROUNDS} turns, "
            "gunicorn gthread 3x8, "
            f"database {db}:"
        )
        paths = {
            "constant JSON view": "/bench/constant",
            "clock JSON": f"/api/events/{event.pk}/clock",
        }
        for path in paths.values():
            run("127.0.0.1", port, [path], clients=CLIENTS, seconds=2)  # warm up
        # The two take turns, ROUNDS times, so a machine shared with others slows both
        # alike; each round's ratio is printed, and that of the rates over all rounds.
        ratios, totals, spent = [], dict.fromkeys(paths, 0), dict.fromkeys(paths, 0.0)
        for number in range(1, ROUNDS + 1):
            figures = {}
            for name, path in paths.items():
                summary = run(
                    "127.0.0.1", port, [path], clients=CLIENTS, seconds=SECONDS / ROUNDS
                ).summary()
                figures[name] = summary
                totals[name] += summary["requests"]
                spent[name] += summary["requests"] / summary["rps"] if summary["rps"] else 0.0
                print(
                    f"  {number}. {name:20s} {summary['rps']:8.0f} req/s  p50 "
                    f"{summary['p50_ms']:6.1f} ms  p99 {summary['p99_ms']:6.1f} ms  "
                    f"errors {summary['errors']}"
                )
            ratios.append(figures["clock JSON"]["rps"] / figures["constant JSON view"]["rps"])
        each = ", ".join(f"{r:.2f}" for r in ratios)
        rates = {name: totals[name] / spent[name] if spent[name] else 0.0 for name in paths}
        ratio = rates["clock JSON"] / rates["constant JSON view"]
        print(f"  clock JSON throughput = {ratio:.2f} x the constant view's (rounds: {each})")
    finally:
        stop(server)


def main() -> None:
    env = bench_env("bench-clock")
    django_setup(env)
    lateness(env)
    load(env)


if __name__ == "__main__":
    main()
