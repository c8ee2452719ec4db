"""The players' pages' push process (tdsystem/players/push.py) for a test: uvicorn in a
thread of the test's process, on a free loopback port, reading the test's database."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from tdsystem.players import push
from tests.faults.servers import free_port


@contextmanager
def push_server(settings, **seconds: float) -> Iterator[int]:
    """The push process's port while the block runs; the pages point to it (PUSH_PORT).
    `seconds`: PUSH_*_SECONDS settings to shorten, by their last word (check=0.1...)."""
    for name, value in seconds.items():
        setattr(settings, f"PUSH_{name.upper()}_SECONDS", value)
    push.hub = push.Hub()  # a fresh one: event ids come again after a flush
    port = free_port()
    config = uvicorn.Config(
        push.application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="push", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the push process did not start")
        time.sleep(0.01)
    settings.PUSH_PORT = port
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        push.hub.shutdown()
