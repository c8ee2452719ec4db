"""A small HTTP/1.1 load generator on asyncio (loopback only, bounded in time).

Each client keeps one connection alive and sends GET requests back to back (or at a fixed
interval), recording the latency of each. Good enough to compare endpoints in one run.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    started: list[float] = field(default_factory=list)  # monotonic start of each latency
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> dict:
        lat = sorted(self.latencies)
        n = len(lat)

        def pct(p: float) -> float:
            return lat[min(n - 1, int(p * n))] * 1000 if n else float("nan")

        return {
            "requests": n,
            "rps": n / self.seconds if self.seconds else 0.0,
            "p50_ms": pct(0.50),
            "p99_ms": pct(0.99),
            "max_ms": lat[-1] * 1000 if n else float("nan"),
            "mean_ms": statistics.fmean(lat) * 1000 if n else float("nan"),
            "errors": self.errors,
            "statuses": dict(self.statuses),
        }


async def _read_response(reader: asyncio.StreamReader) -> int:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("connection closed")
    status = int(status_line.split()[1])
    length = 0
    chunked = False
    close = False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
        elif name == "connection" and "close" in value.lower():
            close = True
    if chunked:
        while True:
            size = int((await reader.readline()).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status if not close else -status


async def _client(host, port, paths, deadline, result, interval, headers, index, measure_from=0.0):
    """One kept-alive connection until `deadline`; requests sent before `measure_from` are
    not recorded (a screen switched on before the measured run, on the same connection)."""
    reader = writer = None
    i = index
    while time.monotonic() < deadline:
        path = paths[i % len(paths)]
        i += 1
        started = time.monotonic()
        if started < measure_from:
            result, kept = Result(), result  # not measured: a result of its own, dropped
        else:
            kept = result
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port)
            request = (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{headers}"
                "Connection: keep-alive\r\n\r\n"
            )
            writer.write(request.encode())
            await writer.drain()
            status = await asyncio.wait_for(_read_response(reader), timeout=10)
            elapsed = time.monotonic() - started
            if status < 0:
                status = -status
                writer.close()
                writer = None
            result.latencies.append(elapsed)
            result.started.append(started)
            result.statuses[status] = result.statuses.get(status, 0) + 1
            if status >= 400:
                result.errors += 1
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            result.errors += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.05)
        result = kept
        if interval:
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))
    if writer is not None:
        writer.close()


async def _run(host, port, paths, clients, seconds, interval, headers):
    result = Result()
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    await asyncio.gather(
        *(
            _client(host, port, paths, deadline, result, interval, headers, i)
            for i in range(clients)
        )
    )
    result.seconds = time.monotonic() - started
    return result


def run(
    host: str,
    port: int,
    paths: list[str],
    *,
    clients: int,
    seconds: float,
    interval: float = 0.0,
    headers: str = "",
) -> Result:
    if not host.startswith("127.") and host not in ("localhost", "::1"):
        raise ValueError("the load generator only targets loopback addresses")
    return asyncio.run(_run(host, port, paths, clients, seconds, interval, headers))
