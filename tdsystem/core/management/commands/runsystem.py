"""Run the web server, a Celery worker and beat together; Ctrl-C stops all three."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

from tdsystem.events.models import Event

from .loaddemo import DEMO_EVENT, demo_password


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and Celery beat; stop them all on Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000")

    def handle(self, *args, addr: str, **options) -> None:
        python = sys.executable
        var = settings.VAR_DIR
        var.mkdir(exist_ok=True)
        commands = {
            "web": [python, "manage.py", "runserver", "--noreload", addr],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "tdsystem.celery",
                "worker",
                "--pool=threads",
                "--concurrency=4",
                "--loglevel=WARNING",
                "--hostname=worker@%h",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "tdsystem.celery",
                "beat",
                "--loglevel=WARNING",
                f"--schedule={var / 'celerybeat-schedule'}",
            ],
        }
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
        env = os.environ | {"PYTHONUNBUFFERED": "1"}
        for name, cmd in commands.items():
            procs[name] = subprocess.Popen(cmd, env=env, start_new_session=True)
        self._print_urls(addr)
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

    def _print_urls(self, addr: str) -> None:
        base = f"http://{addr}"
        event = Event.objects.filter(name=DEMO_EVENT).first() or Event.objects.first()
        lines = [
            "",
            "tdsystem is running (Ctrl-C stops the web server, the worker and beat):",
            f"  Director console:  {base}/console/",
        ]
        if event:
            lines += [
                f"  Venue clock screen: {base}/events/{event.pk}/clock/",
                f"  Player seat lookup: {base}/events/{event.pk}/seats/",
                f"  Printed schedule:   {base}/events/{event.pk}/schedule/",
            ]
        lines += [
            f"  Health:            {base}/healthz",
            f"  Log in as 'director' with the password: {demo_password()}",
            "",
        ]
        self.stdout.write("\n".join(lines))
