"""The embedded run's start and stop: how long a director waits after `make run`.

Runs what `make run` runs after its install step, on a var dir of its own (a fresh SQLite
database and broker each round): migrate, loaddemo, then `manage.py runsystem` on a free
port of 127.0.0.1, until /healthz answers 200 (web, broker and a worker heartbeat all up);
then SIGTERM, until all three processes are gone. Prints the median and worst of a few
rounds. The install step (pip) is left out: it depends on the network, not on us.

    python benchmarks/bench_startup.py            # 3 rounds
    BENCH_ROUNDS=5 python benchmarks/bench_startup.py
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
# Settings of the caller that the embedded run must find for itself.
OWN = ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CELERY_BROKER_URL",
       "PUBLIC_URL", "WEB_BIND", "TDSYSTEM_EMBEDDED")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def one_round(var: Path) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k not in OWN}
    env |= {"VAR_DIR": str(var), "PYTHONUNBUFFERED": "1"}
    manage = [sys.executable, "manage.py"]
    figures = {}
    started = time.monotonic()
    for args in (["migrate", "--noinput", "-v0"], ["loaddemo"]):
        subprocess.run(manage + args, cwd=ROOT, env=env, check=True, capture_output=True)
    figures["migrate + demo"] = time.monotonic() - started
    port = free_port()
    log = (var / "runsystem.log").open("w")
    launched = time.monotonic()
    proc = subprocess.Popen(
        [*manage, "runsystem", "--addr", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = launched + 120
        while not healthy(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((var / "runsystem.log").read_text()[-3000:])
            time.sleep(0.1)
        figures["runsystem to healthy"] = time.monotonic() - launched
        figures["make run (no install)"] = time.monotonic() - started
        stopping = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(60)
        # The worker and beat are the launcher's children in their own sessions: wait
        # until nothing of this run holds the port or the var dir's database.
        while any(f"VAR_DIR={var}" in e for e in _environments()):
            if time.monotonic() - stopping > 60:
                raise RuntimeError("processes left running after SIGTERM")
            time.sleep(0.1)
        figures["stop (SIGTERM)"] = time.monotonic() - stopping
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
    return figures


def _environments() -> list[str]:
    lines = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                lines.append(Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace"))
            except OSError:
                continue
    return lines


def main() -> None:
    rounds = []
    for _ in range(ROUNDS):
        with tempfile.TemporaryDirectory(prefix="tdsystem-bench-startup-") as tmp:
            rounds.append(one_round(Path(tmp) / "var"))
    print(f"embedded run, {ROUNDS} rounds on a fresh var dir each (seconds):")
    print(f"  {'step':<24}{'median':>8}{'worst':>8}")
    for name in rounds[0]:
        values = [r[name] for r in rounds]
        print(f"  {name:<24}{statistics.median(values):8.1f}{max(values):8.1f}")
    print("  (target: ready in under 60 s from a fresh clone, the install step included)")


if __name__ == "__main__":
    main()
