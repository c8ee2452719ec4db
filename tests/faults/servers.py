"""Private servers for fault tests: a Redis, a PostgreSQL cluster and a web server of their
own, on free loopback ports, so a test may kill and restart them without touching the
servers that other tests, CI and people share.

Every class is a context manager that kills what it started, even when the test fails.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_group(proc: subprocess.Popen | None, sig: int = signal.SIGKILL) -> None:
    if proc is not None and proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up in {timeout:.0f} s")


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class RedisServer:
    """redis-server in the foreground of its own process group; `kill()` is a crash."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        _wait(lambda: _port_open(self.port), 10, f"redis-server on port {self.port}")
        return self

    def kill(self) -> None:
        _kill_group(self.proc)
        _wait(lambda: not _port_open(self.port), 5, "the port to close")

    def __enter__(self) -> RedisServer:
        try:
            return self.start()
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        _kill_group(self.proc)


class PostgresCluster:
    """A throwaway PostgreSQL cluster in /tmp, owned by the postgres user when run as root
    (initdb refuses root), trust auth on loopback. Removed on exit."""

    def __init__(self, seed: Path | None = None):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tdsystem-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.seed = seed  # a stopped cluster's data folder to start from, or None: initdb

    @staticmethod
    def available() -> str | None:
        if not (PG_BIN / "initdb").exists():
            return f"no {PG_BIN / 'initdb'}"
        return None

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(PG_BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=check)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def create(self) -> PostgresCluster:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        if self.seed is None:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        else:  # cp -a keeps the files' owner and modes, which the server checks
            subprocess.run(["cp", "-a", str(self.seed), str(self.data)], check=True, timeout=60)
        return self.start()

    def start(self) -> PostgresCluster:
        # fsync off is safe against a killed server (the kernel keeps the writes), not a
        # lost machine; synchronous_commit stays on, or an immediate stop would lose the
        # last acknowledged commits, which is what the tests look for.
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def createdb(self, name: str, *, template: str | None = None) -> str:
        where = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        self._run("createdb", *where, *(["-T", template] if template else []), name)
        return self.url(name)

    def __enter__(self) -> PostgresCluster:
        try:
            return self.create()
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def skip_without_private_postgres() -> None:
    """Skip the test when this machine cannot run a PostgreSQL cluster of the test's own."""
    import pytest

    missing = PostgresCluster.available() or (
        None if shutil.which("runuser") or os.geteuid() else "runuser is missing"
    )
    if missing:
        pytest.skip(f"cannot run a private PostgreSQL: {missing}")


# The database of the migrated seed (below), the template of each private cluster's own.
MIGRATED = "tdsystem_migrated"


@functools.cache
def migrated_seed() -> Path:
    """A stopped cluster's data folder whose database MIGRATED holds the project's schema,
    made once a test process: each private cluster starts as a copy of it and makes its
    database from that template, instead of running initdb and every migration again."""
    cluster = PostgresCluster().create()
    try:
        url = cluster.createdb(MIGRATED)
        manage(os.environ | {"DATABASE_URL": url}, "migrate", "--noinput", "-v0")
    except BaseException:
        cluster.__exit__()
        raise
    cluster.stop()
    atexit.register(shutil.rmtree, cluster.dir, ignore_errors=True)
    return cluster.data


@contextmanager
def private_postgres(tmp: Path, name: str, **env: str) -> Iterator[tuple[PostgresCluster, dict]]:
    """A throwaway cluster with a migrated database `name`: (cluster, the environment for
    processes on it). The broker is a SQLite file unless `env` names one; small pools."""
    skip_without_private_postgres()
    with PostgresCluster(seed=migrated_seed()) as cluster:
        environ = os.environ | {
            "DATABASE_URL": cluster.createdb(name, template=MIGRATED),
            "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp / 'broker.sqlite3'}",
            "DB_POOL_MIN": "1",
            "DB_POOL_MAX": "4",
            "DB_POOL_TIMEOUT": "3",
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        yield cluster, environ


class WebServer:
    """gunicorn (gthread, one process) on the given environment: the system as deployed."""

    def __init__(self, env: dict, log: Path, *, threads: int = 4):
        self.env, self.log, self.threads = env, log, threads
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> WebServer:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "tdsystem.wsgi", "--bind",
             f"127.0.0.1:{self.port}", "--worker-class", "gthread", "--workers", "1",
             "--threads", str(self.threads), "--log-level", "warning"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

        def answers() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log.read_text()[-3000:]}")
            try:
                urllib.request.urlopen(self.url("/healthz"), timeout=5)
            except urllib.error.HTTPError:
                return True  # 503 is an answer
            except OSError:
                return False
            return True

        _wait(answers, 30, "gunicorn")
        return self

    def __enter__(self) -> WebServer:
        try:
            return self.start()
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        _kill_group(self.proc, signal.SIGTERM)


def manage(env: dict, *args: str, stdin: str | None = None) -> str:
    """Run manage.py with the given environment; its output, or an error with it."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def http(method: str, url: str, *, token: str = "", body: bytes | None = None, timeout=10):
    """(status, body bytes); an HTTP error status is an answer, a refused connection raises."""
    status, _headers, content = http_exchange(method, url, token=token, body=body, timeout=timeout)
    return status, content


def http_exchange(
    method: str,
    url: str,
    *,
    token: str = "",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10,
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-case names, body bytes), as `http`, sending `headers`."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _lower(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, _lower(exc.headers), exc.read()


def _lower(headers) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def private_worker(tmp: Path, broker_url: str, **env: str):
    """A real worker (with beat) on the test database and a broker of the test's own."""
    from tests.worker import Worker

    class PrivateWorker(Worker):
        def env(self) -> dict:
            return super().env() | {"CELERY_BROKER_URL": broker_url, **env}

    return PrivateWorker(tmp)
