"""The embedded run: the web server, the players' pages' push process (on the web port
plus one: tdsystem/players/push.py), a Celery worker and beat together on the venue
network; Ctrl-C (or SIGTERM, or closing the terminal) stops them all. A push port that is
taken is said, and the players' pages poll the web server instead.

Its children get TDSYSTEM_EMBEDDED=1, from which settings derive what a laptop at a venue
needs without a settings file: DEBUG off unless asked for, a secret key kept in var/, and
the machine's own addresses and names as the allowed hosts (tdsystem/settings.py).

The run owns its processes (tdsystem/core/processes.py): each child gets the parent-death
signal, a guard process of its own stops their process groups (their own children with
them) if the run dies without doing it, and var/run.lock is held by the run and every
process it started. A second run of the same folder is refused while the first is there;
what is left of a run that died (some process still holding the lock, the run itself gone)
is stopped first. The address is taken before anything starts, and handed to gunicorn as
an open socket, so a busy port is said at once, and the banner is printed only once the web
server answers on it.
"""

from __future__ import annotations

import errno
import http.client
import io
import os
import runpy
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import qrcode
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from tdsystem.core import network
from tdsystem.core.processes import (
    Guard,
    RunLock,
    RunLockHeld,
    child_of_this_process,
    die_with_parent,
    group_alive,
    stop_groups,
    stop_processes,
)
from tdsystem.events.selectors_life import current_event
from tdsystem.settings import envbool, secret_key_file

from .loaddemo import demo_login

# After this long without an answer from the web server, the run says it is still waiting.
READY_SECONDS = 60


class Refused(Exception):
    """The run cannot start: one line saying why and what to do."""


class Command(BaseCommand):
    help = (
        "Start the web server (gunicorn, or the autoreloading development server with --dev), "
        "the players' pages' push process on the next port, a Celery worker and Celery beat; "
        "stop them all on Ctrl-C."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--addr",
            default=os.environ.get("WEB_BIND") or network.DEFAULT_BIND,
            help="HOST:PORT to listen on (default WEB_BIND or 0.0.0.0:8000, every address; "
            "127.0.0.1:8000 keeps it to this machine)",
        )
        parser.add_argument(
            "--dev",
            action="store_true",
            help="Django's autoreloading development server, DEBUG on (make dev)",
        )
        parser.add_argument(
            "--stop-with-parent",
            action="store_true",
            help="stop everything when the process that started this one ends, however it "
            "ends (make run and make dev: killing make stops the run)",
        )

    def handle(
        self, *args, addr: str, dev: bool, stop_with_parent: bool = False, **options
    ) -> None:
        try:
            host, port = network.split_bind(addr)
        except ValueError as exc:
            raise CommandError(f"--addr {exc}") from None
        if stop_with_parent:
            die_with_parent(signal.SIGTERM)
        bind = f"{network.host_pattern(host) if host else '0.0.0.0'}:{port}"
        var = settings.VAR_DIR
        try:
            lock = self._lock(var)
            listener = listen(host, port, bind, keep=not dev)
        except Refused as refused:
            self.stderr.write(str(refused))
            raise SystemExit(1) from None
        lock.describe(addr=bind)
        env = os.environ | {"PYTHONUNBUFFERED": "1", "TDSYSTEM_EMBEDDED": "1", "WEB_BIND": bind}
        # The players' pages' push process, on the next port: without it they poll.
        push_port = port + 1
        try:
            pusher = listen(host, push_port, f"{bind.rpartition(':')[0]}:{push_port}", keep=True)
        except Refused as refused:
            pusher = None
            self.stderr.write(f"{refused} The players' pages will poll the web server.")
        else:
            env["PUSH_PORT"] = str(push_port)
        if dev:
            env["DEBUG"] = "1"
        if "SECRET_KEY" not in env:
            secret_key_file(var / "secret-key")  # made here once, before the children race
        debug = dev or envbool("DEBUG", "0")  # as the children's settings will read it
        if not debug:
            self._collectstatic(env)
        fd = listener.fileno() if listener else None
        commands = {"web": web_command(bind, dev=dev, fd=fd), **self._celery_commands(var)}
        own_fds = {"web": fd}
        if pusher is not None:
            commands["push"] = push_command(pusher.fileno())
            own_fds["push"] = pusher.fileno()
        run = Run(self, lock)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: the terminal closed
            signal.signal(sig, run.ask_to_stop)
        try:
            for name, cmd in commands.items():
                own = own_fds.get(name)
                run.start(name, cmd, env, [lock.fd] + ([own] if own is not None else []))
            for held in (listener, pusher):
                if held:
                    held.close()  # its server has it: the port is free when the server ends
            ready = run.wait_for_web(host, port)
            failed = not ready and not run.stopping
            if ready:
                self._print_urls(host, port, bind, debug, push=pusher is not None)
                failed = run.watch()
        finally:
            run.stop()
        if failed:
            raise SystemExit(1)

    def _lock(self, var: Path) -> RunLock:
        """var/run.lock, taken; what is left of a run of this folder that died is stopped
        first. Refused while another run of this folder is there."""
        lock = RunLock(var / "run.lock")
        try:
            lock.acquire()
            return lock
        except RunLockHeld as held:
            if held.owner_running or not held.holders:
                raise Refused(busy_folder(var, held)) from None
            self.stdout.write(
                "Stopping what was left of an earlier run that did not stop it "
                f"(processes {', '.join(map(str, held.holders))})..."
            )
            stop_processes(held.holders)
        try:
            lock.acquire()
        except RunLockHeld as held:
            raise Refused(busy_folder(var, held)) from None
        return lock

    def _collectstatic(self, env: dict) -> None:
        # whitenoise's manifest storage serves only collected files. Unchanged files are
        # skipped, so a second run takes a second or two, not the first run's compression.
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
            preexec_fn=child_of_this_process(),
        )

    def _celery_commands(self, var) -> dict[str, list[str]]:
        celery = [sys.executable, "-m", "celery", "-A", "tdsystem.celery", "--quiet"]
        return {
            "worker": [
                *celery, "worker", "--pool=threads", "--concurrency=4",
                "--loglevel=WARNING", "--hostname=worker@%h",
            ],
            "beat": [
                *celery, "beat", "--loglevel=WARNING",
                f"--schedule={var / 'celerybeat-schedule'}",
            ],
        }  # fmt: skip

    def _print_urls(self, host: str, port: int, bind: str, debug: bool, *, push: bool) -> None:
        laptop = (
            f"http://127.0.0.1:{port}"
            if host in network.WILDCARDS
            else f"http://{network.host_pattern(host)}:{port}"
        )
        public, source = network.public_base(public_url=settings.PUBLIC_URL, bind=bind)
        mode = "development server, DEBUG on" if debug else "gunicorn"
        lines = [
            "",
            f"tdsystem is running on {bind} ({mode}; Ctrl-C stops the web server, "
            "the worker and beat):",
            "  Players' own pages:             "
            + (f"sent their changes from port {port + 1}" if push else "polling the web server"),
            f"  Director console (this laptop): {laptop}/console/",
            f"  Health:                         {laptop}/healthz",
            "",
            f"For TVs and phones ({public}, {source}):",
        ]
        if source == "no network found":
            lines.append("  No network address found: only this machine can reach it.")
        elif host not in network.WILDCARDS and host.startswith("127."):
            lines.append(f"  Listening on {host} only: other devices cannot reach it.")
        # The stable addresses: a TV or a poster set up once leads to each week's event.
        lookup = public + reverse("screen_seats")
        lines += [
            f"  Venue clock screen: {public}{reverse('screen_clock')}"
            "  (kiosk with sound: ?sound=on)",
            f"  Player seat lookup: {lookup}",
            f"  QR poster:          {public}{reverse('screen_poster')}  (print once, every week)",
            f"  Table draw:         {public}{reverse('screen_draw')}",
            f"  Schedule:           {public}{reverse('screen_schedule')}",
            "",
            f"  Showing now: {self._current_label()}.",
            "  A screen opened at these addresses moves on to next week's event by itself.",
        ]
        self.stdout.write("\n".join(lines))
        self.stdout.write(f"\nScan for the seat lookup ({lookup}):")
        self.stdout.write(terminal_qr(lookup))
        self.stdout.write(demo_login("director"))
        self.stdout.write(demo_login("floor") + "\n")

    def _current_label(self) -> str:
        current = current_event()
        if current is None:
            return "'No event yet', until the director plans one"
        return f"{current['name']} (event {current['id']}, {current['status']})"


def web_command(bind: str, *, dev: bool = False, fd: int | None = None) -> list[str]:
    """The web server as the venue runs it; benchmarks/bench_load.py measures this one.
    `fd`: a socket already bound to `bind`, inherited, for gunicorn to listen on."""
    python = sys.executable
    if dev:
        return [python, "manage.py", "runserver", bind]
    # gunicorn.conf.py as in production (its processes and threads, WEB_WORKERS and
    # WEB_THREADS), but one process of eight threads on SQLite: writes serialise anyway,
    # and one process keeps the screens' cache (local memory) in one place. Of the eight,
    # two run the application at a time (tdsystem/serving.py, WEB_RUNNING).
    conf = settings.BASE_DIR / "gunicorn.conf.py"
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        workers = os.environ.get("WEB_WORKERS") or "1"
        threads = os.environ.get("WEB_THREADS") or "8"
    else:
        production = runpy.run_path(str(conf))
        workers, threads = str(production["workers"]), str(production["threads"])
    return [
        python, "-m", "gunicorn", "tdsystem.wsgi", "--config",
        str(conf), "--bind", bind if fd is None else f"fd://{fd}",
        "--workers", workers, "--threads", threads, "--log-level", "warning",
    ]  # fmt: skip


def push_command(fd: int) -> list[str]:
    """The players' pages' push process (tdsystem/players/push.py) on an inherited socket."""
    return [
        sys.executable, "-m", "uvicorn", "tdsystem.asgi_push:application", "--fd", str(fd),
        "--lifespan", "off", "--no-access-log", "--log-level", "warning",
        "--timeout-graceful-shutdown", "2",
    ]  # fmt: skip


class Run:
    """The run's children: started in sessions of their own (Ctrl-C reaches the run, which
    stops them in order), each dying with the run and watched by the guard."""

    def __init__(self, command: Command, lock: RunLock):
        self.out, self.err = command.stdout, command.stderr
        self.lock = lock
        self.procs: dict[str, subprocess.Popen] = {}
        self.guard = Guard()
        self.stopping = False

    def ask_to_stop(self, *_: object) -> None:
        """The signal handler: the run's own loops see it within a moment and stop. (The
        stopping itself is not done here, in the middle of whatever the run was doing,
        such as starting a child.)"""
        self.stopping = True

    def start(self, name: str, cmd: list[str], env: dict, fds: list[int]) -> None:
        if self.stopping:  # Ctrl-C while starting: start no more
            return
        proc = subprocess.Popen(
            cmd,
            cwd=settings.BASE_DIR,
            env=env,
            start_new_session=True,
            pass_fds=fds,  # the run's lock (and the web server's socket)
            preexec_fn=child_of_this_process(signal.SIGTERM),
        )
        self.procs[name] = proc
        self.guard.watch(proc.pid)  # a session leader: its pid is its process group

    def wait_for_web(self, host: str, port: int) -> bool:
        """Until the web server answers an HTTP request on its address (True), or it
        ends, or the run is asked to stop (False)."""
        target = "127.0.0.1" if host in network.WILDCARDS else host
        web = self.procs["web"]
        since, said = time.monotonic(), False
        while not self.stopping:
            if web.poll() is not None:
                self.err.write(
                    f"The web server stopped before it answered (exit {web.returncode}); "
                    "its messages are above."
                )
                return False
            if answers(target, port):
                return True
            if not said and time.monotonic() - since > READY_SECONDS:
                self.out.write(f"Still waiting for the web server to answer on {target}:{port}...")
                said = True
            time.sleep(0.2)
        return False

    def watch(self) -> bool:
        """Until a stop is asked for (False) or a child ends by itself (True)."""
        while not self.stopping:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    self.err.write(f"The {name} process stopped (exit {proc.returncode}).")
                    return True
            time.sleep(0.5)
        return False

    def stop(self) -> None:
        """Each child's process group asked to stop, then killed after STOP_SECONDS; the
        guard let go once nothing is left."""
        self.stopping = True
        self.out.write("\nStopping the web server, the worker and beat...")
        procs = list(self.procs.values())
        stop_groups((proc.pid for proc in procs), reap=lambda: [proc.poll() for proc in procs])
        for proc in procs:
            proc.wait()
        if not any(group_alive(proc.pid) for proc in self.procs.values()):
            self.guard.release()
        self.lock.release()


def listen(host: str, port: int, bind: str, *, keep: bool) -> socket.socket | None:
    """A socket bound to the address, as gunicorn binds one (kept for it when `keep`);
    Refused, saying so, when the address is taken."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or "0.0.0.0", port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise Refused(f"Cannot listen on {bind}: {exc.strerror}.") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise Refused(
                f"Cannot listen on {bind}: the address is in use, perhaps by another "
                "tdsystem. Stop that one (Ctrl-C in its terminal), or start this one "
                f"elsewhere: make run ADDR={host or '0.0.0.0'}:{port + 10}"
            ) from None
        raise Refused(f"Cannot listen on {bind}: {exc.strerror}.") from None
    if keep:
        return sock
    sock.close()
    return None


def busy_folder(var: Path, held: RunLockHeld) -> str:
    owner, pids = held.owner, held.holders
    where = f" on {owner['addr']}" if owner.get("addr") else ""
    if held.owner_running:
        return (
            f"tdsystem is already running from {var}{where} (process {owner['pid']}): "
            f"use that one, or stop it (Ctrl-C in its terminal, or kill {owner['pid']})."
        )
    which = f" (kill {' '.join(map(str, pids))})" if pids else ""
    return (
        f"Processes of another tdsystem run from {var}{where} are still running{which}: "
        "stop them first."
    )


def answers(host: str, port: int) -> bool:
    """Whether an HTTP server answers there within 2 s: the front page, whatever its status
    (/healthz answers 503 until the worker's first heartbeat, and the server logs that)."""
    connection = http.client.HTTPConnection(host, port, timeout=2)
    try:
        connection.request("GET", "/", headers={"Host": f"{network.host_pattern(host)}:{port}"})
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def terminal_qr(data: str) -> str:
    """A QR code in text, dark on light as a phone camera expects on a dark terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, tty=False, invert=True)
    return out.getvalue()
