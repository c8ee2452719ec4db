"""The embedded run: the web server, a Celery worker and beat together on the venue network;
Ctrl-C (or SIGTERM) stops all three.

Its children get TDSYSTEM_EMBEDDED=1, from which settings derive what a laptop at a venue
needs without a settings file: DEBUG off unless asked for, a secret key kept in var/, and
the machine's own addresses and names as the allowed hosts (tdsystem/settings.py).
"""

from __future__ import annotations

import io
import os
import runpy
import signal
import socket
import subprocess
import sys
import time

import qrcode
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from tdsystem.core import network
from tdsystem.events.selectors_life import current_event
from tdsystem.settings import envbool, secret_key_file

from .loaddemo import demo_login

READY_SECONDS = 60


class Command(BaseCommand):
    help = (
        "Start the web server (gunicorn, or the autoreloading development server with --dev), "
        "a Celery worker and Celery beat; stop them all on Ctrl-C."
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

    def handle(self, *args, addr: str, dev: bool, **options) -> None:
        try:
            host, port = network.split_bind(addr)
        except ValueError as exc:
            raise CommandError(f"--addr {exc}") from None
        bind = f"{network.host_pattern(host) if host else '0.0.0.0'}:{port}"
        var = settings.VAR_DIR
        var.mkdir(parents=True, exist_ok=True)
        env = os.environ | {"PYTHONUNBUFFERED": "1", "TDSYSTEM_EMBEDDED": "1", "WEB_BIND": bind}
        if dev:
            env["DEBUG"] = "1"
        if "SECRET_KEY" not in env:
            secret_key_file(var / "secret-key")  # made here once, before the children race
        debug = dev or envbool("DEBUG", "0")  # as the children's settings will read it
        if not debug:
            self._collectstatic(env)
        commands = {"web": web_command(bind, dev=dev), **self._celery_commands(var)}
        procs: dict[str, subprocess.Popen] = {}
        stopping = False

        def stop(*_: object) -> None:
            nonlocal stopping
            if stopping:
                return
            stopping = True
            self.stdout.write("\nStopping the web server, the worker and beat...")
            for proc in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            deadline = time.monotonic() + 10
            for proc in procs.values():
                try:
                    proc.wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    proc.kill()

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        for name, cmd in commands.items():
            procs[name] = subprocess.Popen(
                cmd, cwd=settings.BASE_DIR, env=env, start_new_session=True
            )
        self._wait_for_web(host, port, procs["web"])
        if not stopping and procs["web"].poll() is None:
            self._print_urls(host, port, bind, debug)
        try:
            while not stopping:
                for name, proc in procs.items():
                    if proc.poll() is not None:
                        self.stderr.write(f"The {name} process stopped (exit {proc.returncode}).")
                        stop()
                        break
                time.sleep(0.5)
        finally:
            stop()

    def _collectstatic(self, env: dict) -> None:
        # whitenoise's manifest storage serves only collected files. Unchanged files are
        # skipped, so a second run takes a second or two, not the first run's compression.
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
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

    def _wait_for_web(self, host: str, port: int, web: subprocess.Popen) -> None:
        target = "127.0.0.1" if host in network.WILDCARDS else host
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline and web.poll() is None:
            try:
                with socket.create_connection((target, port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)

    def _print_urls(self, host: str, port: int, bind: str, debug: bool) -> None:
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


def web_command(bind: str, *, dev: bool = False) -> list[str]:
    """The web server as the venue runs it; benchmarks/bench_load.py measures this one."""
    python = sys.executable
    if dev:
        return [python, "manage.py", "runserver", bind]
    # gunicorn.conf.py as in production (its processes and threads, WEB_WORKERS and
    # WEB_THREADS), but one process of eight threads on SQLite: writes serialise anyway,
    # and one process keeps the short screen cache (local memory) and its hit rate in one
    # place.
    conf = settings.BASE_DIR / "gunicorn.conf.py"
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        workers = os.environ.get("WEB_WORKERS") or "1"
        threads = os.environ.get("WEB_THREADS") or "8"
    else:
        production = runpy.run_path(str(conf))
        workers, threads = str(production["workers"]), str(production["threads"])
    return [
        python, "-m", "gunicorn", "tdsystem.wsgi", "--config",
        str(conf), "--bind", bind,
        "--workers", workers, "--threads", threads, "--log-level", "warning",
    ]  # fmt: skip


def terminal_qr(data: str) -> str:
    """A QR code in text, dark on light as a phone camera expects on a dark terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, tty=False, invert=True)
    return out.getvalue()
