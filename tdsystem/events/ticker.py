"""The clock ticker: every Celery worker stores the level changes itself, on time.

A thread of each worker's main process wakes at the nearest end of a running clock's
level (by the installation's time, `core.servertime`), and at least every
CLOCK_TICK_SECONDS, and settles what is due (`services.clocks_settle_due`). So a level
change is stored as long as one worker runs, whatever else died: beat, the broker, a web
machine, the worker that held the level's exact task. Two or more tickers never double a
change: settling is a compare-and-set on the clock's version under the clock's lock, and
the second one finds nothing due. Why this and not a replicated beat (celery-redbeat):
docs/clock.md, "No single point of failure".

Each ticker also proves itself and its worker to /healthz (`core.health`): a row of its own
in Heartbeat (`ticker:<worker's name>`) at least every TICKER_HEARTBEAT_SECONDS, and the
workers' heartbeat task sent through the broker every WORKER_HEARTBEAT_SECONDS (beat sent
it before), from a thread of its own so that a broker that does not answer never holds up
a level change.

The worker must run its tasks in threads (`--pool=threads`, as `make run` and the
deployment do) or alone (`--pool=solo`): a prefork worker would fork its task processes
from a process holding the ticker's database pool, so there the ticker does not start
(logged).
"""

from __future__ import annotations

import logging
import threading
from time import monotonic

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import connection

from tdsystem.core.health import TICKER_HEARTBEAT_SECONDS, TICKER_PREFIX
from tdsystem.core.models import Heartbeat
from tdsystem.core.servertime import server_now

from . import services

log = logging.getLogger(__name__)

# Never wake more often than this, whatever a level's end says (a clock read a hair
# before its end settles nothing and looks again).
MIN_WAIT_SECONDS = 0.005


class Ticker(threading.Thread):
    def __init__(self, node: str) -> None:
        super().__init__(name="clock-ticker", daemon=True)
        self.node = node
        self.stopping = threading.Event()
        self._beat_at = float("-inf")
        self._heartbeat_at = float("-inf")
        self._sender: threading.Thread | None = None

    def run(self) -> None:
        log.info("clock ticker of %s started", self.node)
        while not self.stopping.is_set():
            try:
                wait = self.tick()
            except Exception:  # the database is down: try again at the next tick
                log.exception("clock tick failed")
                connection.close()
                wait = settings.CLOCK_TICK_SECONDS
            self.stopping.wait(wait)
        connection.close()

    def tick(self) -> float:
        """Settle what is due; the seconds until the next tick."""
        started, now = monotonic(), server_now()
        services.clocks_settle_due(now=now, schedule=False)
        if started - self._beat_at >= TICKER_HEARTBEAT_SECONDS:
            Heartbeat.objects.update_or_create(
                name=f"{TICKER_PREFIX}{self.node}"[:40],
                defaults={"seen_at": now, "detail": self.node[:200]},
            )
            self._beat_at = started
        if started - self._heartbeat_at >= settings.WORKER_HEARTBEAT_SECONDS:
            self._heartbeat_at = started
            self._send_heartbeat()
        wait = settings.CLOCK_TICK_SECONDS
        next_end = services.clocks_next_end()
        if next_end is not None:
            until = (next_end - now).total_seconds() - (monotonic() - started)
            wait = min(wait, until)
        return max(wait, MIN_WAIT_SECONDS)

    def _send_heartbeat(self) -> None:
        if self._sender is not None and self._sender.is_alive():
            return  # the last one still waits on the broker

        def send() -> None:
            from tdsystem.core.tasks import heartbeat

            try:
                heartbeat.delay()
            except Exception as exc:  # the broker is down: /healthz says so
                log.warning("could not send the workers' heartbeat: %s", exc)

        self._sender = threading.Thread(target=send, name="heartbeat-sender", daemon=True)
        self._sender.start()


_ticker: Ticker | None = None


def _pool_forks(consumer: object) -> bool:
    pool = getattr(getattr(consumer, "controller", None), "pool_cls", None)
    return "prefork" in f"{getattr(pool, '__module__', '')}{pool!r}".lower()


@worker_ready.connect
def _start(sender=None, **_kwargs) -> None:
    global _ticker
    if not settings.CLOCK_TICKER or _ticker is not None:
        return
    if _pool_forks(sender):
        log.warning(
            "no clock ticker in a prefork worker: start the worker with --pool=threads "
            "(docs/operations.md)"
        )
        return
    _ticker = Ticker(getattr(sender, "hostname", "") or "worker")
    _ticker.start()


@worker_shutdown.connect
def _stop(**_kwargs) -> None:
    if _ticker is not None:
        _ticker.stopping.set()
        _ticker.join(5)
