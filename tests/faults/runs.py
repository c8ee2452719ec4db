"""The embedded run in fault tests: the real `manage.py runsystem` (gunicorn, worker, beat)
on a var folder and a loopback port of its own, and what a test needs to kill it and to
check that nothing it started is left.

Processes are found from /proc (this is Linux's run).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from .servers import ROOT, _kill_group, _wait, free_port, http, manage

# Settings the test suite may have set, which the embedded run must find for itself (the
# test process's xdist name would give it a broker named after that process).
OWN = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL",
       "PUBLIC_URL", "WEB_BIND", "WEB_WORKERS", "WEB_THREADS", "TDSYSTEM_EMBEDDED",
       "PYTEST_XDIST_WORKER")  # fmt: skip
BANNER = "Log in as 'floor'"  # the banner's last line


def run_environment(var: Path, **settings: str) -> dict:
    """The environment of a run of `var`, as a terminal at the venue would give it."""
    env = {k: v for k, v in os.environ.items() if k not in OWN}
    return env | {"VAR_DIR": str(var), "PYTHONUNBUFFERED": "1", **settings}


def runsystem(
    env: dict, port: int, log: Path, *, via_parent: bool = False, host: str = "127.0.0.1"
) -> subprocess.Popen:
    """The run in a session of its own, as a terminal's `make run` would be. With
    `via_parent`, started by a shell that stays its parent, as make does."""
    command = [sys.executable, "manage.py", "runsystem", "--addr", f"{host}:{port}"]
    if via_parent:
        command = ["bash", "-c", " ".join([*command, "--stop-with-parent"]) + "; true"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_for_banner(proc: subprocess.Popen, log: Path, timeout: float = 90) -> str:
    """What the run printed once its banner is out; fails if the run ended first."""
    _wait(lambda: BANNER in log.read_text() or proc.poll() is not None, timeout, "runsystem")
    printed = log.read_text()
    assert proc.poll() is None, printed
    return printed


class Run:
    """`manage.py runsystem` on a var dir of its own, on 127.0.0.1."""

    def __init__(self, env: dict, log: Path, port: int | None = None):
        self.env, self.log, self.port = env, log, port or free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Run:
        self.proc = runsystem(self.env, self.port, self.log)
        wait_for_banner(self.proc, self.log)
        return self

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str):
        status, body = http("GET", self.url(path))
        assert status == 200, (path, status, body[:500])
        return json.loads(body)

    def processes(self) -> set[int]:
        """The run and every process below it."""
        assert self.proc is not None
        return {self.proc.pid} | descendants(self.proc.pid)

    def kill(self) -> None:
        """The run's process group killed (its children, in sessions of their own, die
        with it: they get the parent-death signal)."""
        _kill_group(self.proc)


def migrated(env: dict, *, demo: bool = False) -> None:
    """What `make run` does before the run: the database migrated (and the demo loaded)."""
    manage(env, "migrate", "--noinput", "-v0")
    if demo:
        manage(env, "loaddemo")


def descendants(pid: int) -> set[int]:
    """Every process below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def commands(pids: set[int]) -> list[str]:
    out = []
    for pid in sorted(pids):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        out.append(f"{pid}: {cmd[:120]}")
    return out


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def gone_within(pids: set[int], seconds: float) -> float:
    """Seconds until none of `pids` is alive; fails naming the survivors."""
    started = time.monotonic()
    while any(alive(pid) for pid in pids):
        left = {pid for pid in pids if alive(pid)}
        assert time.monotonic() - started < seconds, commands(left)
        time.sleep(0.1)
    return time.monotonic() - started


def kill_all(pids: set[int]) -> None:
    """What a failing test left behind."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
