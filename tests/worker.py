"""A real Celery worker (with beat) in a subprocess, on the test database and the real broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def test_database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{db['HOST']}:{db.get('PORT') or 5432}/{db['NAME']}"


class Worker:
    """Start, stop (gracefully or with kill -9) and restart a worker process."""

    def __init__(self, tmp: Path, *, beat: bool = True, tick: float = 0.5, name: str = "test"):
        self.tmp, self.beat, self.tick, self.name = tmp, beat, tick, name
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def env(self) -> dict:
        return os.environ | {
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CLOCK_TICK_SECONDS": str(self.tick),
            "DB_POOL_MIN": "1",
            "DB_POOL_MAX": "4",
            "PYTHONUNBUFFERED": "1",
            "PYTEST_XDIST_WORKER": "",  # its broker is the one above, as it is
        }

    def purge(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "celery", "-A", "tdsystem.celery", "purge", "-f"],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            timeout=60,
            check=False,
        )

    def start(self, timeout: float = 60) -> None:
        self.starts += 1
        log = self.tmp / f"{self.name}-worker-{self.starts}.log"
        cmd = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tdsystem.celery",
            "worker",
            "--pool=threads",
            "--concurrency=4",
            "--loglevel=INFO",
            "--without-mingle",
            "--without-gossip",
            f"--hostname={self.name}{self.starts}@%h",
        ]
        if self.beat:
            cmd += ["--beat", f"--schedule={self.tmp / 'beat-schedule'}"]
        self.log = log
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env(),
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the worker exited:\n{log.read_text()[-3000:]}")
            if " ready." in log.read_text():
                return
            time.sleep(0.1)
        raise RuntimeError(f"the worker did not get ready:\n{log.read_text()[-3000:]}")

    def kill(self) -> None:
        """kill -9: scheduled tasks it held are lost, as in a crash."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_for(predicate, timeout: float, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()
