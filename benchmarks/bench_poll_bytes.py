"""Bytes a poll: what one screen's clock poll costs the venue network.

The case of a big redraw: 330 players registered and drawn, 289 move slips open at once.
It prints the clock JSON's body as it was (every open slip in it), as it is (the first
page of 20 and their count), compressed (gzip, as a browser asks), and the 304 a screen
gets while nothing but the moment changed; the headers of each; and what 3,000 screens
polling once a second would need. Also the room's HTML pages, plain and compressed.

    .venv/bin/python benchmarks/bench_poll_bytes.py
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

from _setup import bench_env, django_setup

PLAYERS, SLIPS, SCREENS = 330, 289, 3000
T0 = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)


def header_bytes(response, without: tuple[str, ...] = ()) -> int:
    """The status line and header lines as gunicorn sends them (Date and Server too)."""
    lines = [f"HTTP/1.1 {response.status_code} {response.reason_phrase}"]
    lines += [f"{k}: {v}" for k, v in response.items() if k not in without]
    lines += ["Date: Sat, 05 Dec 2026 20:00:00 GMT", "Server: gunicorn", "Connection: keep-alive"]
    return sum(len(line) + 2 for line in lines) + 2


def main() -> None:
    os.environ["ALLOWED_HOSTS"] = "testserver"  # Django's test client's host
    django_setup(bench_env("bench-poll-bytes"))
    import time_machine
    from django.test import Client

    from tdsystem.core.actors import Actor
    from tdsystem.events import services
    from tdsystem.events.services import event_create
    from tdsystem.seating.models import Entry, Move
    from tdsystem.simulation.seatings import field
    from tdsystem.structures.services import structure_create
    from tdsystem.venue.screen import screen_slips_page

    levels = [{"small_blind": 100, "big_blind": 200, "ante": 200, "duration_seconds": 1800}] * 3
    template, _ = structure_create(name="Bytes a poll", levels=levels, confirm_warnings=True)
    event = event_create(name="Redraw night", template=template, actor=Actor(label="bench"))
    field(event, players=PLAYERS, tables=37)
    entries = list(Entry.objects.filter(event=event).select_related("table")[:SLIPS])
    Move.objects.bulk_create(
        Move(event=event, entry=e, from_table=e.table.number, from_seat=e.seat,
             to_table=e.table.number + 1, to_seat=e.seat, reason=Move.Reason.REDRAW)
        for e in entries
    )  # fmt: skip
    with time_machine.travel(T0, tick=False):
        services.clock_action(event_id=event.pk, action="start", actor=Actor(label="bench"))

    path = f"/api/events/{event.pk}/clock"
    rows = []
    with time_machine.travel(T0 + timedelta(seconds=30), tick=False):
        plain = Client().get(path)
        plain = Client().get(path)  # the second poll: answered ahead of the middleware
        body = plain.json()
        # The answer as it was: every open slip in `moves`, no count.
        every, page = [], 1
        while part := screen_slips_page(event.pk, page)["moves"]:
            every, page = every + part, page + 1
        was = {k: v for k, v in body.items() if k != "moves_count"} | {"moves": every}
        was_bytes = len(json.dumps(was).encode())
        before = header_bytes(plain, without=("ETag", "X-Server-Time"))
        rows.append(("before: every slip in the clock JSON", was_bytes, before, 1))
        now = ("now: one page of 20 slips and the count", len(plain.content), header_bytes(plain))
        rows.append((*now, 1))
        gz = Client(headers={"accept-encoding": "gzip"}).get(path)
        rows.append(("now, gzip", len(gz.content), header_bytes(gz), 1))
    with time_machine.travel(T0 + timedelta(seconds=31), tick=False):
        tag = gz["ETag"]
        same = Client(headers={"accept-encoding": "gzip"}).get(path, headers={"if-none-match": tag})
        assert same.status_code == 304, same.status_code
        rows.append(("now, nothing changed: 304", len(same.content), header_bytes(same), 1))
        slips = Client(headers={"accept-encoding": "gzip"}).get(
            f"/api/events/{event.pk}/slips?page=2"
        )
        # The ticker shows a part of 20 slips for 30 s or more before it asks for the next.
        further = ("a further page of slips, gzip (each 30 s)", len(slips.content))
        rows.append((*further, header_bytes(slips), 1 / 30))

    print(
        f"\nThe clock JSON, {PLAYERS} players, {SLIPS} open move slips: bytes a poll, and "
        f"the venue network for {SCREENS:,} screens polling each second:"
    )
    print(f"{'answer':58} {'body':>8} {'headers':>8} {str(SCREENS) + ' screens':>13}")
    for name, size, headers, per_second in rows:
        rate = (size + headers) * SCREENS * per_second / 1e6
        print(f"{name:58} {size:8,} {headers:8,} {rate:8.1f} MB/s")

    print("\nThe room's pages (HTML), plain and gzip:")
    for name, page in (
        ("clock screen", f"/events/{event.pk}/clock/"),
        ("table draw", f"/events/{event.pk}/seats/draw/"),
        ("seat lookup", f"/events/{event.pk}/seats/?q=Player+001"),
        ("seats JSON", f"/api/events/{event.pk}/seats"),
    ):
        raw = Client().get(page)
        packed = Client(headers={"accept-encoding": "gzip"}).get(page)
        print(f"{name:16} {len(raw.content):9,} B  gzip {len(packed.content):8,} B")


if __name__ == "__main__":
    main()
