"""Processes that live and die with the one that started them: the embedded run
(`manage.py runsystem`) and the web server's workers.

Three pieces, standard library only, each for a way a process can be left behind:

- die_with_parent: Linux's parent-death signal (prctl PR_SET_PDEATHSIG). The kernel signals
  the process the moment its parent ends, `kill -9` included. It covers the parent's own
  children only: a child's children (gunicorn's workers, the development server's
  reloaded process) set their own or are reached by their process group.
- Guard: a small process of its own session that knows the process group of every child
  and reads a pipe from the run; when the pipe ends without "done" (the run died), it
  stops those groups, then kills what is left of them. A group holds a child's own
  children too, so nothing the run started outlives it for long, and nothing waits on a
  child that ignores SIGTERM.
- RunLock: a lock on a file in the run's folder, held by the run and inherited by every
  process it starts. The kernel releases it when the last of them ends, so there is no
  stale pid file: while it is held, a run (or something left of one) is still there, and
  /proc names which processes hold it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

PR_SET_PDEATHSIG = 1
# How long a process asked to stop may take before it is killed.
STOP_SECONDS = 10.0
_libc = None


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, loaded once before any fork (loading a library in a forked child of a
    threaded process can deadlock); None where there is none (not Linux)."""
    global _libc
    if not sys.platform.startswith("linux"):
        return None
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc.prctl


def die_with_parent(sig: int = signal.SIGTERM, *, parent: int | None = None) -> None:
    """Have Linux send `sig` to this process when its parent ends. `parent`: the pid the
    caller expects as its parent; if that one has already ended (before the signal was
    asked for), the signal is sent now. Nothing happens elsewhere than on Linux."""
    prctl = _prctl()
    if prctl is None:
        return
    if prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)


def child_of_this_process(sig: int = signal.SIGTERM) -> Callable[[], None]:
    """A preexec_fn for subprocess.Popen: the child gets `sig` when this process ends."""
    parent = os.getpid()
    _prctl()  # loaded here, in the parent

    def preexec() -> None:
        die_with_parent(sig, parent=parent)

    return preexec


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_groups(
    pgids: Iterable[int], *, grace: float = STOP_SECONDS, reap: Callable[[], object] = lambda: None
) -> list[int]:
    """SIGTERM to each process group, SIGKILL to those still there after `grace` seconds;
    the groups that had to be killed. `reap`: waits for the caller's own children that
    have ended (a child not waited for is still counted in its group)."""
    return _stop(list(pgids), os.killpg, group_alive, grace, reap)


def stop_processes(pids: Iterable[int], *, grace: float = STOP_SECONDS) -> list[int]:
    """The same for single processes (those /proc says hold a lock)."""
    return _stop(list(pids), os.kill, _alive, grace, lambda: None)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie has ended; only its parent's wait is missing
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _stop(ids: list[int], send, alive, grace: float, reap: Callable[[], object]) -> list[int]:
    for id_ in ids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            send(id_, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        reap()
        if not any(alive(id_) for id_ in ids):
            break
        time.sleep(0.05)
    killed = [id_ for id_ in ids if alive(id_)]
    for id_ in killed:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            send(id_, signal.SIGKILL)
    return killed


class Guard:
    """The guard process, seen from the run: `watch(pgid)` for each child started."""

    DONE = b"done\n"

    def __init__(self, *, grace: float = STOP_SECONDS):
        read, self._write = os.pipe()  # not inherited by the run's other children
        self.proc = subprocess.Popen(
            [sys.executable, "-m", __name__, "guard", str(grace)],
            stdin=read,
            cwd=Path(__file__).resolve().parents[2],  # where `tdsystem` can be imported
            start_new_session=True,  # a kill of the run's process group spares it
        )
        os.close(read)

    def watch(self, pgid: int) -> None:
        os.write(self._write, f"{pgid}\n".encode())

    def release(self) -> None:
        """The run stopped its children itself: the guard ends without doing anything."""
        with contextlib.suppress(BrokenPipeError):  # the guard is gone already
            os.write(self._write, self.DONE)
        os.close(self._write)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def guard(grace: float) -> None:
    """The guard's own loop: process groups on stdin, one a line, until the end of the
    stream; then, unless the last line said "done", they are stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pgids: list[int] = []
    last = b""
    while line := sys.stdin.buffer.readline():
        last = line
        if line.strip().isdigit():
            pgids.append(int(line))
    if last != Guard.DONE:
        stop_groups(pgids, grace=grace)


class RunLockHeld(Exception):
    """Another run of this folder, or processes left over from one, hold the lock."""

    def __init__(self, owner: dict, holders: list[int]):
        super().__init__(owner, holders)
        self.owner, self.holders = owner, holders

    @property
    def owner_running(self) -> bool:
        return self.owner.get("pid") in self.holders


class RunLock:
    """An exclusive lock (flock) on `path`, whose file says which run holds it. Its file
    descriptor is handed to every child (subprocess's pass_fds), so it is held until the
    run and all of its processes have ended, however they end."""

    def __init__(self, path: Path):
        self.path = path
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise RunLockHeld naming who holds it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                raise
            raise RunLockHeld(self.owner(), self.holders()) from None
        self.fd = fd

    def describe(self, **owner: object) -> None:
        """Write who holds the lock (this run's pid, its address) into its file."""
        assert self.fd is not None
        data = json.dumps({"pid": os.getpid(), **owner}).encode()
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, data, 0)

    def owner(self) -> dict:
        try:
            data = json.loads(self.path.read_text() or "{}")
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def holders(self) -> list[int]:
        """The processes with the lock's file open (other than this one), from /proc;
        empty where there is no /proc."""
        try:
            target = os.stat(self.path)
        except OSError:
            return []
        found = []
        for entry in _proc_pids():
            if entry == os.getpid():
                continue
            try:
                fds = os.listdir(f"/proc/{entry}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    st = os.stat(f"/proc/{entry}/fd/{fd}")
                except OSError:
                    continue
                if (st.st_dev, st.st_ino) == (target.st_dev, target.st_ino):
                    found.append(entry)
                    break
        return sorted(found)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _proc_pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


if __name__ == "__main__" and sys.argv[1:2] == ["guard"]:
    guard(float(sys.argv[2]))
