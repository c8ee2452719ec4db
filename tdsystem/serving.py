"""gunicorn's threaded worker (gthread) with five changes, named in gunicorn.conf.py, and
the parent-death signal: a worker whose master ends, however it ends, is sent SIGTERM
(gunicorn's own check of its parent runs only between requests, once a second, and not
while the worker warms up; a worker left behind keeps the port).

Closes off the main thread. gunicorn 27 closes a connection that is not kept alive
"gracefully" (RFC 9112 section 9.6): it half-closes, then reads until the client closes
its side too, for up to 2 s, so that unread request bytes do not turn the close into a
reset. It does that on the worker's main thread, the one that accepts connections and
hands requests to the threads: while it waits for one phone to close, the worker answers
nobody. At the festival's busy minute (benchmarks/bench_load.py: 3,000 phones each on a
fresh connection while 300 screens poll) each worker's main thread spent about 30% of the
run waiting there, up to 0.43 s at a time. Here the same close runs on a small pool of
its own, and the main thread goes on.

Warm before the first request. A fresh process pays for its first request of each kind:
the URLs import every view (about a hundred modules), each template is compiled, each
language's catalogue read. Measured in a fresh process on PostgreSQL (3,000 players): the
first clock JSON took 510 ms of CPU, the first seat lookup 387 ms, the first seats JSON
99 ms, against 2 to 10 ms afterwards; and a thread holding the interpreter's lock that
long holds up every other request of its process. The worker now serves the public pages
once to itself (warm_up) before it accepts a connection, so no screen or phone waits for
that.

Start-up kept out of the full garbage collections. Once warm, the worker moves what it
has loaded (Django, the apps, the compiled templates and catalogues) to the collector's
permanent generation (gc.freeze, as the Celery worker does: tdsystem/celery.py). A full
collection otherwise walks all of it whenever it falls, holding the interpreter's lock:
at the festival's busy minute such a pass took 92 to 198 ms in a web worker, and every
request that worker held (a bust-out among them) waited that long; frozen, the longest
was 23 ms.

Two requests in the application at once. The threads read requests and write answers,
which waits on the network (a phone on the venue's Wi-Fi reads its answer slowly), but
only `WEB_RUNNING` of them (2) run the application at a time; the others wait their turn
asleep. One interpreter lock serves all the threads of a process: with eight running the
application, each handed the lock to the others at every query and every write, and the
process spent its time handing it over, so that every answer of the busy minute waited
longer (docs/load-and-faults.md). Two, not one: a slow page (a printed poster) never
holds up the screens alone.

No answer for a client that has gone. A request waits in the worker's queue for a
thread; if its client gave up meanwhile (closed the connection), a read is dropped
instead of served (client_gone): on an overloaded machine the queue otherwise fills with
requests nobody waits for, and serving them makes every later answer later still.
"""

from __future__ import annotations

import gc
import io
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from gunicorn.workers.gthread import ThreadWorker

from tdsystem.core.processes import die_with_parent

log = logging.getLogger(__name__)

# Closes waiting for their client at once, per worker; more wait their turn in the queue
# (each gives up after gunicorn's 2 s), holding only their socket.
CLOSERS = 4

# Requests running the application at once in one worker, whatever its threads (0: any).
RUNNING = int(os.environ.get("WEB_RUNNING", "2"))

# What the venue's screens and phones load, by their stable addresses (each redirects to
# the current event's page) and then the current event's own reads. "{event}" is that
# event's id, taken from the first redirect; without a current event only the stable
# addresses are served (they answer "no event" then).
STABLE = ("/clock/", "/seats/", "/schedule/", "/seats/draw/", "/chips/")
OF_EVENT = (
    "/api/events/{event}/clock",
    "/api/events/{event}/seats",
    "/events/{event}/seats/?q=a",
    "/events/{event}/seats/?q=a",  # a page's second answer has its fragments cached too
)


class Worker(ThreadWorker):
    def init_signals(self) -> None:
        super().init_signals()
        # After the worker's own handlers are in place: SIGTERM is its graceful stop.
        die_with_parent(signal.SIGTERM, parent=self.ppid)

    def init_process(self) -> None:
        self.closers = ThreadPoolExecutor(CLOSERS, thread_name_prefix="close")
        super().init_process()  # runs the worker until it stops

    def load_wsgi(self) -> None:
        super().load_wsgi()
        started = time.process_time()
        served = warm_up(self.wsgi, between=self.notify)
        cpu = (time.process_time() - started) * 1000
        self.log.info("Worker %s warm (%.0f ms of CPU): %s", self.pid, cpu, ", ".join(served))
        gc.collect()
        gc.freeze()
        self.wsgi = running_at_most(self.wsgi, RUNNING)

    def handle_request(self, req, conn):
        # A read whose client has gone is not answered: under a burst, the queue holds
        # requests their clients gave up on, and serving them anyway only makes every
        # later answer later still. Writes are always carried out.
        if req.method in ("GET", "HEAD") and client_gone(conn.sock):
            self.log.debug("Client gone before its answer: %s %s", req.method, req.path)
            return False
        return super().handle_request(req, conn)

    def finish_request(self, conn, fs) -> None:
        if "close" not in vars(conn):
            close = conn.close

            def close_elsewhere(graceful: bool = False) -> None:
                if graceful:
                    self.closers.submit(close, True)
                else:
                    close()

            conn.close = close_elsewhere
        super().finish_request(conn, fs)


def running_at_most(app: Callable, turns: int) -> Callable:
    """The WSGI application with at most `turns` requests in it at once (0: no limit); the
    others wait for a turn. The answer is written after its turn is given back: a client
    that reads it slowly holds only its own thread."""
    if turns <= 0:
        return app
    running = threading.BoundedSemaphore(turns)

    def application(environ: dict, start_response: Callable) -> Iterable[bytes]:
        with running:
            return app(environ, start_response)

    return application


def client_gone(sock: socket.socket) -> bool:
    """Whether the client has closed its end (or reset it) before its answer: the stream
    ends right after the request read. A client waiting for its answer has sent nothing
    more, and a pipelined request is data, not the end."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError, ValueError):  # ValueError: TLS sockets
        return False
    except OSError:
        return True


def warm_up(app: Callable, *, between: Callable[[], object] = lambda: None) -> list[str]:
    """Serve the public pages once to this process (GET only: nothing is written), and
    read every language's catalogue; the answers are dropped. Whatever fails (no
    database yet, a page's error) is logged and skipped: warming never stops a worker
    from serving. The paths served, with their status, for the log and the tests."""
    from django.conf import settings
    from django.utils import translation

    served: list[str] = []
    host = _host(settings.ALLOWED_HOSTS)
    try:
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Table")
        event = None
        for path in STABLE:
            status, location = _get(app, host, path)
            served.append(f"{status} {path}")
            if event is None and location:
                event = _event_of(location)
            between()
        for path in OF_EVENT if event is not None else ():
            status, _ = _get(app, host, path.format(event=event))
            served.append(f"{status} {path.format(event=event)}")
            between()
    except Exception:  # a warm-up must never stop the worker: its requests will tell
        log.exception("warming the web worker failed after %s", served)
    return served


def _host(allowed: Iterable[str]) -> str:
    for host in allowed:
        if host == "*":
            return "127.0.0.1"
        if host.startswith("."):
            return "www" + host
        if host:
            return host
    return "localhost"


def _event_of(location: str) -> int | None:
    parts = urlsplit(location).path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "events" and parts[1].isdigit():
        return int(parts[1])
    return None


def _get(app: Callable, host: str, target: str) -> tuple[int, str]:
    """One GET through the WSGI application in this thread; (status, Location)."""
    path, _, query = target.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": host,
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    answer: dict = {}

    def start_response(status: str, headers: list, exc_info=None):
        answer["status"] = int(status.split()[0])
        answer["location"] = next((v for k, v in headers if k.lower() == "location"), "")
        return lambda data: None

    body = app(environ, start_response)
    try:
        for _chunk in body:
            pass
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()  # Django's request_finished: connections back, as after any request
    return answer.get("status", 0), answer.get("location", "")
