"""The soak's clients on asyncio (loopback only): clock screens, phones and floor people.

One kept-alive HTTP/1.1 connection per client, as a browser or a floor tablet holds one.
Every answer is recorded with the moment it was asked (seconds since the run began), so the
report can tell the answers given inside a fault's window from the others.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field

# A browser's; once the server compresses (or answers 304 to If-None-Match), the bytes a
# poll costs go down without a change here.
BROWSER = "Accept-Encoding: gzip, deflate, br\r\n"
RETRYABLE = {409, 425, 429, 500, 502, 503, 504}  # 409 only with Retry-After: key in use


@dataclass
class Answer:
    at: float  # seconds since the run began, when asked
    ms: float
    status: int  # 0: no answer (refused, reset, timed out)
    size: int  # bytes received, head and body


@dataclass
class Endpoint:
    answers: list[Answer] = field(default_factory=list)

    def add(self, at: float, ms: float, status: int, size: int) -> None:
        self.answers.append(Answer(at, ms, status, size))


class Connection:
    """One kept-alive connection to host:port, opened again after any failure."""

    def __init__(self, host: str, port: int, timeout: float):
        if not host.startswith("127."):
            raise ValueError("the soak only talks to loopback addresses")
        self.host, self.port, self.timeout = host, port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, headers: str = "", body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes, int]:
        """(status, headers, body, bytes received); raises OSError or TimeoutError."""
        try:
            return await asyncio.wait_for(self._request(method, path, headers, body), self.timeout)
        except BaseException:
            self.close()
            raise

    async def _request(self, method, path, headers, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        length = f"Content-Length: {len(body)}\r\n" if body or method != "GET" else ""
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n{headers}{length}\r\n"
        self.writer.write(head.encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("closed before an answer")
        size = len(status_line)
        found: dict[str, str] = {}
        while True:
            line = await self.reader.readline()
            size += len(line)
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            found[name.strip().lower()] = value.strip()
        if "chunked" in found.get("transfer-encoding", ""):
            content = b""
            while True:
                size_line = await self.reader.readline()
                chunk = int(size_line.strip() or b"0", 16)
                data = await self.reader.readexactly(chunk + 2)
                size += len(size_line) + len(data)
                content += data[:-2]
                if not chunk:
                    break
        else:
            content = await self.reader.readexactly(int(found.get("content-length", "0")))
            size += len(content)
        if found.get("connection", "").lower() == "close":
            self.close()
        return int(status_line.split()[1]), found, content, size


class Clock:
    """Seconds since the run began (the answers' `at`)."""

    def __init__(self) -> None:
        self.zero = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.zero


async def poller(
    clock: Clock,
    endpoint: Endpoint,
    host: str,
    port: int,
    path: str,
    *,
    every: float,
    timeout: float,
    until: float,
    first: float,
    headers: str = "",
) -> None:
    """A screen or a phone: GET `path`, then wait `every` seconds after the answer (as the
    pages' own setTimeout and htmx's `every` do), until `until`; If-None-Match with the
    last ETag, as a browser revalidates."""
    await asyncio.sleep(first)
    conn = Connection(host, port, timeout)
    etag = ""
    while clock.now() < until:
        at = clock.now()
        sent = headers + BROWSER + (f"If-None-Match: {etag}\r\n" if etag else "")
        try:
            status, found, _body, size = await conn.request("GET", path, sent)
            etag = found.get("etag", etag) if status in (200, 304) else etag
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
            status, size = 0, 0
        endpoint.add(at, (clock.now() - at) * 1000, status, size)
        await asyncio.sleep(every)  # after a failure too, as the screen and htmx do
    conn.close()


@dataclass
class Write:
    """One write as the floor sends it: the same key and body on every try."""

    path: str
    body: dict
    key: str = field(default_factory=lambda: str(uuid.uuid4()))
    tries: int = 0
    status: int = 0  # the answer that ended it (0: gave up)
    answer: dict = field(default_factory=dict)
    replayed: bool = False
    acknowledged_at: float = 0.0


class Floor:
    """The floor's writes through the API, retried with the same Idempotency-Key on a
    connection error, a 5xx or "busy", on the other web node after a connection error
    (as a tablet behind a load balancer would get)."""

    def __init__(self, clock: Clock, nodes: list[tuple[str, int]], token: str, *, give_up: float):
        self.clock, self.token, self.give_up = clock, token, give_up
        self.conns = [Connection(host, port, 15.0) for host, port in nodes]
        self.prefer = 0

    async def send(self, write: Write, endpoint: Endpoint) -> Write:
        body = json.dumps(write.body).encode()
        headers = (
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Idempotency-Key: {write.key}\r\n"
        )
        started = self.clock.now()
        pause = 0.2
        while self.clock.now() - started < self.give_up:
            conn = self.conns[self.prefer]
            at = self.clock.now()
            write.tries += 1
            try:
                status, found, content, size = await conn.request("POST", write.path, headers, body)
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
                endpoint.add(at, (self.clock.now() - at) * 1000, 0, 0)
                self.prefer = (self.prefer + 1) % len(self.conns)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            endpoint.add(at, (self.clock.now() - at) * 1000, status, size)
            busy = status == 409 and "retry-after" in found
            if status in RETRYABLE and (status != 409 or busy):
                await asyncio.sleep(max(pause, float(found.get("retry-after", "0") or 0)))
                pause = min(pause * 2, 2.0)
                continue
            write.status = status
            write.replayed = found.get("idempotent-replayed") == "true"
            try:
                write.answer = json.loads(content or b"{}")
            except ValueError:
                write.answer = {"error": content[:200].decode("latin-1")}
            if status < 400:
                write.acknowledged_at = self.clock.now()
            return write
        return write  # gave up: status 0

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


async def floor_person(
    floor: Floor,
    event_id: int,
    numbers: list[int],
    *,
    every: float,
    until: float,
    first: float,
    writes: list[Write],
    endpoints: dict[str, Endpoint],
    rng: random.Random,
) -> None:
    """Bust-outs of `numbers` in turn, one every `every` seconds on average, each followed
    by acknowledging the move slips its balancing asked for."""
    await asyncio.sleep(first)
    while numbers and floor.clock.now() < until:
        started = floor.clock.now()
        bust = Write(f"/api/events/{event_id}/bustouts", {"entries": [numbers.pop()]})
        writes.append(await floor.send(bust, endpoints["bust-out POST"]))
        for move in bust.answer.get("moves", []) if bust.status == 201 else []:
            ack = Write(f"/api/events/{event_id}/moves/{move['id']}/ack", {})
            writes.append(await floor.send(ack, endpoints["move ack POST"]))
        wait = rng.uniform(0.5, 1.5) * every - (floor.clock.now() - started)
        await asyncio.sleep(max(0.0, wait))
    floor.close()
