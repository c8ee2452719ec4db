"""The soak's room (benchmarks/soak.py): the processes it starts, each in a session of
its own so a fault is a kill -9 of the group, the faults done to them, and the CPU each
part uses, from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from _setup import ROOT, free_port
from soak_checks import Fault
from soak_http import Clock

NODES = {"web A": "127.0.0.2", "web B": "127.0.0.3"}
GRACE = 10.0  # seconds after a part answers again that still count as its fault's window
TICK = os.sysconf("SC_CLK_TCK")


class Installation:
    """The processes of the room, each started in a session of its own."""

    def __init__(self, folder: Path, web_workers: int, web_threads: int):
        # The fault tests' private servers: a cluster and a Redis nobody else uses, which a
        # fault may kill and restart (never the machine's shared PostgreSQL).
        sys.path.insert(0, str(ROOT))
        from tests.faults.servers import PostgresCluster, RedisServer

        self.folder = folder
        self.port = free_port()
        self.cluster = PostgresCluster()
        self.redis = RedisServer()
        self.procs: dict[str, subprocess.Popen] = {}
        self.commands: dict[str, list[str]] = {}
        self.env: dict[str, str] = {}
        self.sizes = (web_workers, web_threads)

    def prepare(self) -> dict[str, str]:
        self.cluster.create()
        self.redis.start()
        workers, threads = self.sizes
        self.env = os.environ | {
            "DATABASE_URL": self.cluster.createdb("tdsystem_soak"),
            "CELERY_BROKER_URL": self.redis.url,
            "DEBUG": "0",
            "SECRET_KEY": "soak-only",
            "ALLOWED_HOSTS": ",".join([*NODES.values(), "127.0.0.1"]),
            "VAR_DIR": str(self.folder),
            "WEB_WORKERS": str(workers),
            "WEB_THREADS": str(threads),
            # Each web process's pool: its threads, and one to spare for the probes.
            "DB_POOL_MAX": str(threads + 1),
            "PYTHONUNBUFFERED": "1",
        }
        return self.env

    def define(self, web_command) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "tdsystem.celery", "--quiet"]
        for name, host in NODES.items():
            self.commands[name] = web_command(f"{host}:{self.port}")
        for n in (1, 2):
            self.commands[f"worker {n}"] = [
                *celery, "worker", "--pool=threads", "--concurrency=4",
                "--loglevel=WARNING", f"--hostname=worker{n}@%h",
            ]  # fmt: skip
        self.commands["beat"] = [
            *celery, "beat", "--loglevel=WARNING",
            f"--schedule={self.folder / 'celerybeat-schedule'}",
        ]  # fmt: skip

    def start(self, name: str) -> None:
        log = (self.folder / f"{name.replace(' ', '-')}.log").open("a")
        self.procs[name] = subprocess.Popen(
            self.commands[name],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self, name: str) -> None:
        proc = self.procs[name]
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(15)

    def answers(self, name: str, timeout: float = 60, path: str = "/api/current-event") -> float:
        """Seconds until the node answers HTTP (a 503 is an answer)."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            try:
                urllib.request.urlopen(f"http://{NODES[name]}:{self.port}{path}", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.2)
        return time.monotonic() - started

    def postmaster(self) -> int:
        try:
            return int((self.cluster.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(15)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    os.killpg(proc.pid, signal.SIGKILL)
        self.redis.__exit__()
        self.cluster.__exit__()


class CpuMeter(threading.Thread):
    """CPU seconds used during the run by each part, from /proc once a second: the
    processes of each session started, PostgreSQL's postmaster and its children. A process
    killed loses at most its last second; a restarted one counts from its start."""

    def __init__(self, room: Installation):
        super().__init__(daemon=True)
        self.room = room
        self.seen: dict[tuple[int, str], list] = {}  # (pid, start) -> [part, first, last]
        self.running = True
        self.harness = os.times()

    def sample(self, first: bool = False) -> None:
        parts = {p.pid: name for name, p in self.room.procs.items()}
        parts[self.room.redis.proc.pid if self.room.redis.proc else -1] = "redis"
        postmaster = self.room.postmaster()
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat") as f:
                    fields = f.read().rpartition(")")[2].split()
            except OSError:
                continue
            pid, ppid, session = int(entry.name), int(fields[1]), int(fields[3])
            part = parts.get(session)
            if part is None and postmaster and postmaster in (pid, ppid):
                part = "postgres"
            if part is None:
                continue
            cpu = (int(fields[11]) + int(fields[12])) / TICK
            known = self.seen.setdefault((pid, fields[19]), [part, cpu if first else 0.0, cpu])
            known[2] = cpu

    def run(self) -> None:
        self.sample(first=True)
        while self.running:
            time.sleep(1.0)
            self.sample()

    def used(self) -> dict[str, float]:
        self.running = False
        self.sample()
        parts: dict[str, float] = {}
        for part, first, last in self.seen.values():
            kind = part.rstrip(" AB12") if part.startswith(("web", "worker")) else part
            parts[kind] = parts.get(kind, 0.0) + last - first
        now = os.times()
        parts["load generator"] = now.user + now.system - self.harness.user - self.harness.system
        return parts


def inflict(room: Installation, fault: Fault, clock: Clock, log) -> None:
    """One fault at its time: the part killed or stopped, brought back after `down`."""
    time.sleep(max(0.0, fault.at - clock.now()))
    fault.start = clock.now()
    log(f"{fault.start:7.1f} s  {fault.name}")
    if fault.name.startswith("PostgreSQL"):
        room.cluster.stop("fast")
        room.cluster.start()
        back = clock.now()
    else:
        part = {"web": "web A", "work": "worker 1", "kill": "beat"}
        name = next((v for k, v in part.items() if k in fault.name), "")
        if fault.name.startswith("Redis"):
            room.redis.kill()
        else:
            room.kill(name)
        time.sleep(fault.down)
        if fault.name.startswith("Redis"):
            room.redis.start()
        else:
            room.start(name)
        if name.startswith("web"):
            room.answers(name)
        back = clock.now()
    fault.end = back + GRACE
    fault.note = f"down {back - fault.start:.1f} s"
    log(f"{back:7.1f} s  {fault.name}: back after {back - fault.start:.1f} s")
