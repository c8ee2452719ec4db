"""Shared set-up for benchmarks: a database of their own, processes, a free port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var"


def bench_env(name: str = "bench", **extra: str) -> dict:
    """Benchmarks use BENCH_DATABASE_URL, else a fresh SQLite file of their own (never your
    data): var/<name>.sqlite3, deleted first so every run starts from the same place."""
    VAR.mkdir(exist_ok=True)
    env = dict(os.environ)
    if os.environ.get("BENCH_DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["BENCH_DATABASE_URL"]
    else:
        for suffix in ("", "-wal", "-shm"):
            (VAR / f"{name}.sqlite3{suffix}").unlink(missing_ok=True)
        env["DATABASE_URL"] = f"sqlite:///{VAR / f'{name}.sqlite3'}"
    if os.environ.get("BENCH_BROKER_URL"):
        env["CELERY_BROKER_URL"] = os.environ["BENCH_BROKER_URL"]
    else:
        env.setdefault("CELERY_BROKER_URL", f"sqla+sqlite:///{VAR / 'bench-broker.sqlite3'}")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def django_setup(env: dict) -> None:
    """Django in this process on the benchmark's settings: what it measures here (a
    request's CPU through the test client) is measured as its server runs (DEBUG off)."""
    wanted = ("DATABASE_URL", "CELERY_BROKER_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    os.environ.update({k: env[k] for k in wanted if k in env})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tdsystem.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def wait_http(port: int, path: str = "/healthz", timeout: float = 30) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (503 while no worker is fine here)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered on port {port}")


def gunicorn(env: dict, port: int, log: Path, *, workers: int = 3, threads: int = 8):
    if env.get("DEBUG") == "0":  # the web server starts only with its static files collected
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    return start(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "tdsystem.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--worker-class",
            "gthread",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--keep-alive",
            "30",
            "--backlog",
            "2048",
            "--pythonpath",
            str(ROOT / "benchmarks"),
            "--log-level",
            "warning",
        ],
        env,
        log,
    )
