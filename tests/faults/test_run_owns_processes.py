"""`make run` owns its processes: the real `manage.py runsystem` (gunicorn, worker, beat) on
a var folder and a loopback port of its own, killed with `kill -9`; nothing it started
outlives it, and a second run on a busy port or folder says so and claims nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .runs import (
    commands,
    descendants,
    gone_within,
    kill_all,
    migrated,
    port_free,
    run_environment,
    runsystem,
    wait_for_banner,
)
from .servers import ROOT, _kill_group, free_port

pytestmark = pytest.mark.worker


def environment(var: Path) -> dict:
    env = run_environment(var)
    migrated(env)
    return env


@pytest.mark.parametrize(
    "killed", ["the run", pytest.param("the process that started it", marks=pytest.mark.slow)]
)
def test_nothing_the_run_started_outlives_a_kill_9(tmp_path, killed):
    env = environment(tmp_path / "var")
    port = free_port()
    log = tmp_path / "run.log"
    via_parent = killed != "the run"
    launcher = runsystem(env, port, log, via_parent=via_parent)
    below: set[int] = set()
    try:
        wait_for_banner(launcher, log)
        below = descendants(launcher.pid)
        listed = commands(below)
        # The web server (master and worker), the worker and beat, besides the guard.
        assert sum("gunicorn" in line for line in listed) == 2, listed
        assert sum("celery" in line for line in listed) == 2, listed
        assert not port_free(port)

        os.kill(launcher.pid, signal.SIGKILL)  # the launcher alone, not its group
        took = gone_within(below, 30)
        print(f"kill -9 of {killed}: all {len(below)} processes gone in {took:.1f} s")
        assert port_free(port)
    finally:
        _kill_group(launcher)
        kill_all(below)


@pytest.mark.slow
def test_a_second_run_on_a_busy_port_or_folder_says_so_and_starts_nothing(tmp_path):
    first_var = tmp_path / "first"
    env = environment(first_var)
    port = free_port()
    log = tmp_path / "first.log"
    first = runsystem(env, port, log)
    below: set[int] = set()
    try:
        printed = wait_for_banner(first, log)
        assert f"tdsystem is running on 127.0.0.1:{port}" in printed
        below = descendants(first.pid)

        # Another folder, the same port: refused at once, before anything is started.
        other_var = tmp_path / "other"
        second = subprocess.run(
            [sys.executable, "manage.py", "runsystem", "--addr", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=environment(other_var),
            capture_output=True,
            text=True,
            timeout=60,
        )
        said = second.stdout + second.stderr
        assert second.returncode != 0, said
        assert f"Cannot listen on 127.0.0.1:{port}: the address is in use" in said, said
        assert "another tdsystem" in said and "Ctrl-C" in said
        assert "is running" not in said and "Log in as" not in said
        assert not (other_var / "celerybeat-schedule").exists()  # beat never started
        assert not (other_var / "run.lock").read_text()  # the lock taken, then let go

        # The same folder, another port: refused too, naming the run that has it.
        third = subprocess.run(
            [sys.executable, "manage.py", "runsystem", "--addr", f"127.0.0.1:{free_port()}"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        said = third.stdout + third.stderr
        assert third.returncode != 0, said
        assert f"tdsystem is already running from {first_var}" in said, said
        assert f"on 127.0.0.1:{port} (process {first.pid})" in said
        assert "Log in as" not in said
        assert descendants(first.pid) == below  # nothing of the first run touched

        # Ctrl-C as before: all three stop, and the run ends well.
        os.killpg(first.pid, signal.SIGINT)
        assert first.wait(30) == 0, log.read_text()
        gone_within(below, 5)
        assert port_free(port)
        assert "Stopping the web server, the worker and beat" in log.read_text()
    finally:
        _kill_group(first)
        kill_all(below)


@pytest.mark.slow
def test_a_run_stops_what_a_dead_run_of_its_folder_left_behind(tmp_path):
    var = tmp_path / "var"
    env = environment(var)
    # Left behind: a process of a run that died (its run, pid 2**22 + 1, is gone), still
    # holding the run's lock, as a worker started before the lock was inherited could.
    (var / "run.lock").write_text('{"pid": 4194305, "addr": "127.0.0.1:1"}')
    leftover = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(var / 'run.lock')!r}, os.O_RDWR)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('holding', flush=True)\ntime.sleep(600)"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    port = free_port()
    log = tmp_path / "run.log"
    run = None
    try:
        assert leftover.stdout.readline() == "holding\n"
        run = runsystem(env, port, log)
        printed = wait_for_banner(run, log)
        left = f"what was left of an earlier run that did not stop it (processes {leftover.pid})"
        assert f"Stopping {left}" in printed
        assert leftover.poll() == -signal.SIGTERM
        os.killpg(run.pid, signal.SIGINT)
        assert run.wait(30) == 0
    finally:
        _kill_group(leftover)
        _kill_group(run)
