"""The players' own pages at once: thousands of phones open while the floor busts players.

Run from the project root: python benchmarks/bench_players.py [--pages 10000] [--seconds 60]
[--poll]

The web server as the venue runs it (`runsystem`'s command, as bench_load.py: gunicorn.conf.py's
gthread worker and keep-alive; 4 processes of 4 threads on PostgreSQL, 1 of 8 on SQLite, or
WEB_WORKERS and WEB_THREADS; DEBUG off) on a database of its own (BENCH_DATABASE_URL for
PostgreSQL, else a fresh SQLite file): an event of `--pages` players seated through the
services, each entry with its live link (`players.links.link_of_entry`), the clock running.

By default the pages are pushed, as the room runs them (tdsystem/players/push.py): the push
process is started beside the web server (uvicorn, as `runsystem` starts it), and each page
keeps one Server-Sent Events stream of its own, `GET /api/me/<token>/stream`, opened over
the warm-up and read as static/js/me.js's EventSource reads it (reconnecting with its last
id after 3 s when it ends). A move is shown when the moved page's stream brings its part
with the slip. Printed: the streams open, the messages of each kind, the bytes a page a
minute received, and the push process's CPU a page a minute beside the web server's.

With --poll, the pages poll instead, as where no push process runs (or where a page's
stream fails). Then, on loopback, after a warm-up in which every page is opened (its
first answer, a 200):

- each page polls `GET /api/me/<token>` as static/js/me.js does while visible: the next poll
  one second after the last answer, with If-None-Match of the last ETag, gzip accepted,
  backing off 2, 4, 8... up to 15 s after a failure. The phones share `--connections`
  kept-alive connections (phone i on connection i mod C): each connection sends the poll
  that is due first among its phones, one at a time, so a server that answers late makes
  every phone of the connection ask late, as it would make a phone's own connection wait;
- the floor as below.

In both, `--floor` floor people (20) record `--bustouts` bust-outs a minute (100) between
them through `POST /api/events/<id>/bustouts` (bearer token). For each move slip a 201
names, the time from that 201 to the moved player's page showing the slip (by its id; an
answer or message received before the 201 counts as 0). Printed for polling: the polls'
p50/p99 latency and errors, the rate achieved against one poll per page per second, the
share of 304s, the bytes per page per minute (every answer's head and body as received,
gzip as negotiated; and the requests' bytes sent), the server's CPU per poll and per page
per minute (from /proc, bust-outs included). For both, the moves' time shown (p50/p99/max,
count, and slips never shown in the run), then the target: a move shown within 2 s, p99.
Before the run, one poll's cost through Django's test client in this process (the player's
poll answered 304 and 200, and the clock's poll beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import heapq
import json
import os
import random
import runpy
import subprocess
import sys
import time
import uuid
import zlib
from dataclasses import dataclass, field

from _setup import ROOT, VAR, bench_env, django_setup, free_port, start, stop, wait_http
from bench_load import CpuMeter, wait_warm
from soak_http import Connection

HOST = "127.0.0.1"
SEATS = 9
POLL = 1.0  # me.js: POLL_MS while the page is visible
MAX_BACKOFF = 15.0  # me.js: MAX_BACKOFF_MS
TIMEOUT = 4.0  # me.js: TIMEOUT_MS
TARGET_MS = 2000.0  # a move shown within 2 s of the bust-out that caused it, p99
TAIL = 10.0  # seconds the pages poll on after the run, unmeasured: the last moves show
# What a phone's browser sends with the page's fetch (the page's CSRF cookie included):
# counted in the bytes sent, and what the server reads.
PHONE = (
    "User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36\r\n"
    "Accept: application/json\r\n"
    "Accept-Language: en-GB,en;q=0.9\r\n"
    "Accept-Encoding: gzip, deflate, br\r\n"
    "Cache-Control: no-cache\r\nPragma: no-cache\r\n"
    "Cookie: csrftoken=Q2t1ZlB4b3JvN3ZrS0JtU0VhbGJ3d2pHZ3hQY0p3YkE\r\n"
)


# Set-up through the services -------------------------------------------------------------


def setup_event(pages: int) -> tuple[int, str, dict[int, str]]:
    """An event of `pages` seated players, the clock running, a live link per entry and a
    director's API token: (event id, token, {entry number: link token})."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db.models import Max

    from tdsystem.core.actors import Actor
    from tdsystem.core.models import ApiToken, hash_token
    from tdsystem.events.services import clock_action, event_create, event_staff_creator
    from tdsystem.players.links import link_of_entry
    from tdsystem.seating import services as seating
    from tdsystem.seating.models import Entry, VenueTable
    from tdsystem.structures.services import structure_create

    started = time.monotonic()
    actor = Actor(label="bench")
    levels = [
        {"small_blind": sb, "big_blind": 2 * sb, "ante": sb // 5, "duration_seconds": 1200}
        for sb in (50, 100, 150, 200, 300, 400)
    ]
    template, _ = structure_create(
        name="Players bench structure", levels=levels, is_template=False, confirm_warnings=True
    )
    event = event_create(
        name="Players bench",
        template=template,
        actor=actor,
        buy_in=Decimal(100),
        seats_per_table=SEATS,
    )
    first = (VenueTable.objects.aggregate(m=Max("number"))["m"] or 0) + 1
    tables = -(-pages // SEATS)
    seating.tables_setup(
        event=event, numbers=list(range(first, first + tables)), seats=SEATS, actor=actor
    )
    names = [f"Player {i:05d}" for i in range(1, pages + 1)]
    seating.players_import(event_id=event.pk, names=names, actor=actor)
    seating.seats_draw(event=event, actor=actor, seed=1)
    clock_action(event_id=event.pk, action="start", actor=actor)
    tokens = {e.number: link_of_entry(e).token for e in Entry.objects.filter(event=event)}

    user, _ = get_user_model().objects.get_or_create(username="bench-director")
    user.groups.add(Group.objects.get_or_create(name="director")[0])
    event_staff_creator(event=event, actor=Actor.of(user))
    raw = ApiToken.new_key()
    ApiToken.objects.create(user=user, prefix=raw[:8], key_hash=hash_token(raw))
    print(
        f"event: {pages} players seated at {tables} tables of {SEATS}, a live link each, "
        f"the clock running (set up in {time.monotonic() - started:.0f} s)"
    )
    return event.pk, raw, tokens


def request_costs(event_id: int, token: str, n: int = 500) -> None:
    """One poll's CPU through Django in this process (no network): the player's poll
    answered 304 and 200, and the clock screens' poll beside it."""
    from django.test import Client

    from tdsystem.core import screencache
    from tdsystem.players.selectors import link_read, me_state

    client = Client(HTTP_HOST=HOST, HTTP_ACCEPT_ENCODING="gzip")
    me = f"/api/me/{token}"
    clock = f"/api/events/{event_id}/clock"
    tag = client.get(me).headers["ETag"]
    client.get(clock)
    cases = {
        "player's poll, 304": (me, {"HTTP_IF_NONE_MATCH": tag}, False),
        "player's poll, 200": (me, {}, False),
        "the same after a change": (me, {}, True),
        "clock poll, 200": (clock, {}, False),
    }
    print(f"one poll's cost in this process ({n} of each, Django's test client, gzip):")
    for name, (path, headers, change) in cases.items():
        times = n // 25 if change else n  # after a change: the event's read each time
        started = time.process_time()
        for _ in range(times):
            if change:  # a bust-out's commit: every page's part is read again
                screencache.changed(event_id)
            response = client.get(path, **headers)
        cpu = (time.process_time() - started) / times * 1000
        print(f"  {name:24s} {cpu:6.2f} ms of CPU, {len(response.content):,} bytes of body")
    # One entry's part read alone: what each page paid after a change before the event's
    # read (me_states) served them all.
    link = link_read(token)
    assert link is not None and link.entry_id is not None
    started = time.process_time()
    for _ in range(n // 10):
        me_state(link.entry_id)
    cpu = (time.process_time() - started) / (n // 10) * 1000
    alone = "one entry's part alone"
    print(f"  {alone:24s} {cpu:6.2f} ms of CPU (me_state)")


# The phones --------------------------------------------------------------------------------


@dataclass
class Phone:
    number: int  # the entry's
    path: str
    etag: str = ""
    body: bytes = b""  # the last 200's body, as received
    encoding: str = ""
    body_at: float = 0.0
    failures: int = 0
    waiting: tuple[int, float] | None = None  # (move id, the 201's time) not shown yet


@dataclass
class Polls:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0
    received: int = 0  # bytes, heads and bodies
    sent: int = 0
    shown_ms: list[float] = field(default_factory=list)
    dropped: int = 0  # moved players busted before their page showed the move


def _decoded(phone: Phone) -> dict:
    body = phone.body
    if phone.encoding == "gzip":
        body = gzip.decompress(body)
    elif phone.encoding == "deflate":
        body = zlib.decompress(body)
    return json.loads(body)


def _check_move(phone: Phone, polls: Polls) -> None:
    """The page's last answer shows the slip it waits for: the time from the 201."""
    assert phone.waiting is not None
    move_id, at = phone.waiting
    move = _decoded(phone).get("move")
    if move and move["id"] == move_id:
        polls.shown_ms.append(max(0.0, phone.body_at - at) * 1000)
        phone.waiting = None


# The floor --------------------------------------------------------------------------------


@dataclass
class Floor:
    latencies: list[float] = field(default_factory=list)
    recorded: int = 0
    moves: int = 0
    broken: int = 0
    errors: int = 0
    refused: list[str] = field(default_factory=list)


async def floor_person(floor, port, event_id, token, numbers, phones, polls, first, every, until):
    """Bust-outs from the shared list `numbers`, one each `every` seconds; each move slip
    a 201 names is then awaited on the moved player's page."""
    await asyncio.sleep(max(0.0, first - time.monotonic()))
    conn = Connection(HOST, port, 30.0)
    headers = f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
    path = f"/api/events/{event_id}/bustouts"
    sent = 0
    while time.monotonic() < until and numbers:
        number = numbers.pop()
        phone = phones.get(number)
        if phone is not None and phone.waiting:  # busted before the page showed the move
            phone.waiting = None
            polls.dropped += 1
        body = json.dumps({"entries": [number]}).encode()
        keyed = f"{headers}Idempotency-Key: {uuid.uuid4()}\r\n"
        asked = time.monotonic()
        try:
            status, _, content, _ = await conn.request("POST", path, keyed, body)
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
            status, content = 0, b""
        answered = time.monotonic()
        floor.latencies.append(answered - asked)
        if status == 201:
            answer = json.loads(content)
            floor.recorded += 1
            floor.broken += len(answer["broken"])
            for move in answer["moves"]:
                floor.moves += 1
                moved = phones.get(move["entry"])
                if moved is None:
                    continue
                moved.waiting = (move["id"], answered)
                if moved.body:
                    _check_move(moved, polls)  # shown before the 201 came back
        else:
            floor.errors += 1
            floor.refused.append(f"{status} {content[:120]!r}")
        sent += 1
        await asyncio.sleep(max(0.0, first + sent * every - time.monotonic()))
    conn.close()


async def measured(meters: list[CpuMeter], mark: Mark, seconds: float) -> None:
    """Each meter over the measured run: from `mark`, for `seconds`."""
    await asyncio.sleep(max(0.0, mark.value - time.monotonic()))
    for meter in meters:
        meter.start()
    await asyncio.sleep(seconds)
    for meter in meters:
        meter.stop()


def floor_people(args, floor, port, event_id, director, numbers, phones, polls, mark, until):
    """`args.floor` floor people sharing the bust-outs, evenly spread from `mark`."""
    every = args.floor * 60.0 / args.bustouts
    return [
        floor_person(
            floor, port, event_id, director, numbers, phones, polls,
            mark.value + i * every / args.floor, every, until,
        )
        for i in range(args.floor)
    ]  # fmt: skip


async def load(port, event_id, director, tokens, args, meter):
    rng = random.Random(2)
    phones = {n: Phone(n, f"/api/me/{t}") for n, t in tokens.items()}
    listed = list(phones.values())
    polls, floor = Polls(), Floor()
    begin = time.monotonic()
    mark = Mark(begin + args.warmup)
    until = mark.value + args.seconds
    shares = [listed[i :: args.connections] for i in range(args.connections)]
    numbers = list(tokens)
    rng.shuffle(numbers)

    await asyncio.gather(
        measured([meter], mark, args.seconds),
        *(connection(s, port, polls, begin, mark, until) for s in shares if s),
        *floor_people(args, floor, port, event_id, director, numbers, phones, polls, mark, until),
    )
    waiting = sum(1 for p in listed if p.waiting)
    return polls, floor, waiting


async def connection(phones, port, polls, start, mark, until):
    """One kept-alive connection shared by `phones`: each poll when its phone is due, the
    pages opened over the warm-up's first part, the polls counted from `mark`."""
    conn = Connection(HOST, port, TIMEOUT)
    due = [(start + random.uniform(0, 0.6) * (mark.value - start), i) for i in range(len(phones))]
    heapq.heapify(due)
    while due:
        at, i = heapq.heappop(due)
        now = time.monotonic()
        if at > now:
            await asyncio.sleep(at - now)
        if time.monotonic() >= until + TAIL:
            break
        phone = phones[i]
        headers = PHONE + (f"If-None-Match: {phone.etag}\r\n" if phone.etag else "")
        asked = time.monotonic()
        try:
            status, found, body, size = await conn.request("GET", phone.path, headers)
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
            status, found, body, size = 0, {}, b"", 0
        answered = time.monotonic()
        if mark.value <= asked < until:
            polls.latencies.append(answered - asked)
            polls.statuses[status] = polls.statuses.get(status, 0) + 1
            polls.received += size
            polls.sent += len(phone.path) + len(headers) + 50  # the request line and Host
            if status not in (200, 304):
                polls.errors += 1
        if status == 200:
            phone.etag = found.get("etag", "")
            phone.body, phone.encoding = body, found.get("content-encoding", "")
            phone.body_at = answered
        if status in (200, 304):
            phone.failures = 0
            if phone.waiting and phone.body:
                _check_move(phone, polls)
            wait = POLL
        else:
            phone.failures += 1
            wait = min(MAX_BACKOFF, POLL * 2**phone.failures)
        heapq.heappush(due, (answered + wait, i))
    conn.close()


# The pushed pages (--push) -----------------------------------------------------------------


@dataclass
class Streams:
    opened: int = 0  # streams answered 200, reconnections included
    refused: dict[int, int] = field(default_factory=dict)  # by status (0: no answer)
    ended: int = 0  # streams the server ended before the run's end
    messages: dict[str, int] = field(default_factory=dict)  # in the run, by kind
    received: int = 0  # bytes in the run, heads and bodies as received
    sent: int = 0


class Dechunk:
    """HTTP/1.1 chunked transfer coding undone as the bytes come."""

    def __init__(self) -> None:
        self.raw, self.left, self.crlf, self.done = b"", 0, False, False

    def feed(self, data: bytes) -> bytes:
        self.raw += data
        out = []
        while True:
            if self.left:
                take = self.raw[: self.left]
                out.append(take)
                self.left -= len(take)
                self.raw = self.raw[len(take) :]
                if self.left:
                    break
                self.crlf = True
            if self.crlf:
                if len(self.raw) < 2:
                    break
                self.raw, self.crlf = self.raw[2:], False
            end = self.raw.find(b"\r\n")
            if end < 0:
                break
            size = int(self.raw[:end].split(b";")[0], 16)
            self.raw = self.raw[end + 2 :]
            if size == 0:
                self.done = True
                break
            self.left = size
        return b"".join(out)


async def stream_page(phone, port, streams, polls, opens_at, mark, until):
    """One page's stream, from `opens_at` to the run's end (and TAIL after it)."""
    await asyncio.sleep(max(0.0, opens_at - time.monotonic()))
    last = ""
    end = until + TAIL
    while time.monotonic() < end:
        writer = None
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
            ask = (
                f"GET {phone.path}/stream?lang=en HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                + PHONE.replace("Accept: application/json", "Accept: text/event-stream")
                + (f"Last-Event-ID: {last}\r\n" if last else "")
                + "\r\n"
            ).encode()
            writer.write(ask)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            status = int(head.split(None, 2)[1])
            if mark.value <= time.monotonic() < until:
                streams.received += len(head)
                streams.sent += len(ask)
            if status != 200:
                streams.refused[status] = streams.refused.get(status, 0) + 1
                await asyncio.sleep(3.0)
                continue
            streams.opened += 1
            body, buffer = Dechunk(), b""
            while not body.done:
                data = await asyncio.wait_for(reader.read(65536), end - time.monotonic())
                if not data:
                    break
                now = time.monotonic()
                measured = mark.value <= now < until
                if measured:
                    streams.received += len(data)
                buffer += body.feed(data)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    kind, ident, text = _sse(block)
                    if kind is None:
                        continue
                    if measured:
                        streams.messages[kind] = streams.messages.get(kind, 0) + 1
                    last = ident or last
                    if kind == "me":
                        phone.body, phone.encoding, phone.body_at = text, "", now
                        if phone.waiting:
                            _check_move(phone, polls)
            if time.monotonic() < until:
                streams.ended += 1
        except TimeoutError:
            if time.monotonic() < end:
                streams.refused[0] = streams.refused.get(0, 0) + 1
        except (OSError, ValueError, asyncio.IncompleteReadError):
            streams.refused[0] = streams.refused.get(0, 0) + 1
            await asyncio.sleep(3.0)
        finally:
            if writer is not None:
                writer.close()


def _sse(block: bytes) -> tuple[str | None, str, bytes]:
    kind, ident, data = None, "", b""
    for line in block.split(b"\n"):
        name, _, value = line.partition(b": ")
        if name == b"event":
            kind = value.decode()
        elif name == b"id":
            ident = value.decode()
        elif name == b"data":
            data = value
    return kind, ident, data


async def load_push(port, web_port, event_id, director, tokens, args, meters):
    rng = random.Random(2)
    phones = {n: Phone(n, f"/api/me/{t}") for n, t in tokens.items()}
    listed = list(phones.values())
    polls, floor, streams = Polls(), Floor(), Streams()
    begin = time.monotonic()
    mark = Mark(begin + args.warmup)
    until = mark.value + args.seconds
    numbers = list(tokens)
    rng.shuffle(numbers)
    opening = 0.6 * args.warmup  # every page open well before the run

    await asyncio.gather(
        measured(meters, mark, args.seconds),
        *(
            stream_page(phone, port, streams, polls, begin + opening * i / len(listed), mark, until)
            for i, phone in enumerate(listed)
        ),
        *floor_people(
            args, floor, web_port, event_id, director, numbers, phones, polls, mark, until
        ),
    )
    waiting = sum(1 for p in listed if p.waiting)
    return polls, floor, streams, waiting


def report_streams(args, streams: Streams, meters: list[CpuMeter]) -> None:
    seconds, pages = args.seconds, args.pages
    minutes = seconds / 60
    print(
        f"\nstreams: {streams.opened:,} opened for {pages:,} pages (reconnections included), "
        f"{streams.ended} ended by the server in the run; refused or failed: "
        + (
            ", ".join(f"{k or 'no answer'}: {v:,}" for k, v in sorted(streams.refused.items()))
            or "none"
        )
    )
    print(
        "  messages in the run: "
        + (", ".join(f"{k} {v:,}" for k, v in sorted(streams.messages.items())) or "none")
        + f"; bytes a page a minute: {streams.received / pages / minutes:,.0f} received, "
        f"{streams.sent / pages / minutes:,.1f} sent"
    )
    web, push = (dict(meter.used) for meter in meters)
    if web:
        cores = os.cpu_count() or 1
        print(
            f"CPU during the run's {seconds:.0f} s ({cores} cores give {cores * seconds:.0f} s): "
            f"push process {push['server']:.1f} s, web server {web['server']:.1f} s, "
            f"database {web['database']:.1f} s, load generator {web['load generator']:.1f} s, "
            f"whole machine {web['whole machine']:.1f} s"
        )
        print(
            f"  the push process: {1000 * push['server'] / pages / minutes:.2f} ms of CPU a "
            f"page a minute; the web server and database (the bust-outs): "
            f"{web['server'] + web['database']:.1f} s"
        )


class Mark:
    """When the measured run begins."""

    def __init__(self, value: float) -> None:
        self.value = value


# Report ----------------------------------------------------------------------------------


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def report(args, polls: Polls, floor: Floor, waiting: int, meter: CpuMeter | None) -> bool:
    if meter is not None:
        report_polls(args, polls, meter)
    return report_moves(polls, floor, waiting)


def report_polls(args, polls: Polls, meter: CpuMeter) -> None:
    seconds, pages = args.seconds, args.pages
    n = len(polls.latencies)
    ms = [x * 1000 for x in polls.latencies]
    rate = n / seconds
    print(
        f"\npolls: {n:,} in {seconds:.0f} s, {rate:,.0f} a second against {pages:,} asked "
        f"(one a page a second): {100 * rate / pages:.0f}%"
        + ("" if rate >= 0.95 * pages else " (the machine does not keep the pages' rate)")
    )
    print(
        f"  latency p50 {_pct(ms, 0.5):.1f} ms, p99 {_pct(ms, 0.99):.1f} ms, max "
        f"{max(ms, default=float('nan')):.1f} ms; errors {polls.errors}; answers "
        + ", ".join(f"{k}: {v:,}" for k, v in sorted(polls.statuses.items()))
    )
    answered = polls.statuses.get(200, 0) + polls.statuses.get(304, 0)
    share = polls.statuses.get(304, 0) / answered if answered else float("nan")
    minutes = seconds / 60
    print(
        f"  304s: {100 * share:.1f}% of the answers; bytes a page a minute: "
        f"{polls.received / pages / minutes:,.0f} received (heads and bodies, gzip), "
        f"{polls.sent / pages / minutes:,.0f} sent; {polls.received / max(1, answered):,.0f} "
        f"bytes an answer"
    )
    used = dict(meter.used)
    if used:
        cores = os.cpu_count() or 1
        print(
            f"CPU during the run's {seconds:.0f} s ({cores} cores give {cores * seconds:.0f} s): "
            + ", ".join(f"{name} {cpu:.1f} s" for name, cpu in used.items() if cpu or name)
        )
        server = used["server"] + used.get("database", 0.0)
        print(
            f"  the server{' and the database' if used.get('database') else ''}: "
            f"{1000 * server / max(1, n):.2f} ms of CPU a poll (bust-outs included), "
            f"{1000 * server / pages / minutes:.1f} ms a page a minute"
        )


def report_moves(polls: Polls, floor: Floor, waiting: int) -> bool:
    fl = sorted(x * 1000 for x in floor.latencies)
    print(
        f"\nbust-outs recorded {floor.recorded} (asked {len(fl)}, refused {floor.errors}), "
        f"tables broken {floor.broken}, players moved {floor.moves}; bust-out p50 "
        f"{_pct(fl, 0.5):.0f} ms, max {max(fl, default=float('nan')):.0f} ms"
    )
    for refusal in floor.refused[:3]:
        print(f"  refused: {refusal}")
    shown = polls.shown_ms
    print(
        f"moves shown on the moved player's page, from the bust-out's 201: {len(shown)}, "
        f"p50 {_pct(shown, 0.5):.0f} ms, p99 {_pct(shown, 0.99):.0f} ms, max "
        f"{max(shown, default=float('nan')):.0f} ms; not shown by the run's end {waiting}, "
        f"busted before shown {polls.dropped}"
    )
    met = bool(shown) and not waiting and _pct(shown, 0.99) <= TARGET_MS
    print(
        f"target: a move shown within {TARGET_MS / 1000:.0f} s (p99 <= {TARGET_MS:.0f} ms, "
        f"every move shown): {'MET' if met else 'NOT MET'}"
    )
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=15, help="seconds to open the pages")
    parser.add_argument("--connections", type=int, default=250)
    parser.add_argument("--floor", type=int, default=20, help="floor people")
    parser.add_argument("--bustouts", type=float, default=100, help="a minute, between them")
    parser.add_argument("--poll", action="store_true", help="the pages poll (no push process)")
    args = parser.parse_args()
    env = bench_env("bench-players", DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="127.0.0.1")
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
    event_id, director, tokens = setup_event(args.pages)
    request_costs(event_id, tokens[min(tokens)])
    from tdsystem.venue.management.commands.runsystem import web_command

    port = free_port()
    command = web_command(f"127.0.0.1:{port}")
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    workers = int(command[command.index("--workers") + 1])
    command[command.index("--log-level") + 1] = "info"  # each worker says when it is warm
    log = VAR / "bench-players-gunicorn.log"
    server = start(command, env, log)
    pusher = None
    try:
        wait_http(port)
        wait_warm(log, workers)
        if not args.poll:
            push_port = free_port()
            pusher = start(
                [
                    sys.executable, "-m", "uvicorn", "tdsystem.asgi_push:application",
                    "--host", HOST, "--port", str(push_port), "--lifespan", "off",
                    "--no-access-log", "--log-level", "warning", "--backlog", "4096",
                ],
                env,
                VAR / "bench-players-push.log",
            )  # fmt: skip
            wait_http(push_port, "/")  # its 404 is an answer
        print(
            f"run: {args.seconds:.0f} s on loopback after {args.warmup:.0f} s of warm-up, "
            f"gunicorn {conf['worker_class']} {workers}x"
            f"{command[command.index('--threads') + 1]} (as runsystem); {args.pages:,} phones "
            f"on {args.connections} kept-alive connections (phone i on connection i mod "
            f"{args.connections}), {args.floor} floor people at {args.bustouts:.0f} bust-outs "
            f"a minute between them"
        )
        database = env["DATABASE_URL"].rpartition("/")[2] if db.startswith("postgres") else ""
        meter = CpuMeter(server.pid, database)
        if pusher is not None:
            print(
                f"  pushed: {args.pages:,} pages each on a stream of its own from the push "
                f"process (uvicorn, one process), the floor on the web server"
            )
            meters = [meter, CpuMeter(pusher.pid, "")]
            polls, floor, streams, waiting = asyncio.run(
                load_push(push_port, port, event_id, director, tokens, args, meters)
            )
        else:
            polls, floor, waiting = asyncio.run(load(port, event_id, director, tokens, args, meter))
    finally:
        stop(server)
        if pusher is not None:
            stop(pusher)
    if pusher is not None:
        report_streams(args, streams, meters)
        report(args, polls, floor, waiting, None)
    else:
        report(args, polls, floor, waiting, meter)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} after the run")


if __name__ == "__main__":
    main()
