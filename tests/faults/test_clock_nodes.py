"""The clock across machines: one time for every node, and no single process it waits on.

Each test runs the system as deployed on a private PostgreSQL (and Redis): two web nodes
(gunicorn), workers, beat.

- Skew: web node B runs with its clock 2 s ahead (libfaketime). Both nodes answer the
  same remaining time, a pause on one and a resume on the other lose no time, and B's
  /healthz says its clock is off.
- Beat gone: with two workers and beat, beat and one worker are killed with `kill -9`;
  the remaining worker's clock ticker stores the next levels on time, each once, and
  both web nodes stay live, ready and healthy.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from tests.worker import Worker, wait_for

from .servers import ROOT, RedisServer, WebServer, http, manage, private_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.worker]

FAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
SKEW = 2.0  # seconds web node B's clock is ahead
AGREE_MS = 200  # what the nodes' remaining times may differ by

SETUP = """
from tdsystem.core.actors import Actor
from tdsystem.events.services import clock_action
from tests.fixtures import make_event
from tests.personas import make_token, make_user

token = make_token(make_user({user!r}, "director"))
event = make_event(*{durations!r}, name={user!r})
clock = clock_action(event_id=event.pk, action="start", actor=Actor(label="fault test"))
print(event.pk, token, clock.ends_at.isoformat())
"""


def _setup(env: dict, user: str, durations: list[int]) -> tuple[str, str, datetime]:
    """A running clock of these levels, and a director's API token."""
    script = SETUP.format(durations=durations, user=user)
    event_id, token, ends = manage(env, "shell", "-c", script).split()[-3:]
    return event_id, token, datetime.fromisoformat(ends)


@pytest.fixture(scope="module")
def installation(tmp_path_factory) -> Iterator[dict]:
    """A private PostgreSQL and Redis for the module's tests: the environment of its
    processes, the time the database server's."""
    tmp = tmp_path_factory.mktemp("nodes")
    with (
        RedisServer() as broker,
        private_postgres(
            tmp,
            "tdsystem_nodes",
            CELERY_BROKER_URL=broker.url,
            CLOCK_TIME_SOURCE="database",
            WORKER_HEARTBEAT_SECONDS="1",  # a worker counts as gone after 8 s without one
        ) as (_pg, env),
    ):
        yield env


def _json(url: str, **kwargs) -> tuple[int, dict]:
    status, body = http(kwargs.pop("method", "GET"), url, **kwargs)
    return status, json.loads(body) if body else {}


def _timed(url: str, **kwargs) -> tuple[dict, datetime, float]:
    """The JSON answer, the moment halfway through the request (this process's clock: the
    database server's machine's) and half the request's time in ms (what the moment may
    be off by)."""
    before = time.time()
    status, body = _json(url, **kwargs)
    after = time.time()
    assert status == 200, body
    return body, datetime.fromtimestamp((before + after) / 2, UTC), (after - before) * 500


def _timed_clock(web: WebServer, event_id: str) -> tuple[dict, datetime, float]:
    return _timed(web.url(f"/api/events/{event_id}/clock"))


def _timed_action(web: WebServer, event_id: str, token: str, action: str):
    body = json.dumps({"action": action}).encode()
    return _timed(web.url(f"/api/events/{event_id}/clock"), method="POST", token=token, body=body)


def _ms(delta: timedelta) -> float:
    return delta / timedelta(milliseconds=1)


def test_skewed_web_nodes_show_one_time_and_lose_none_over_a_pause(tmp_path, installation):
    if not FAKETIME.exists():
        pytest.skip(f"needs {FAKETIME} (Debian package faketime)")
    env = installation
    event_id, token, _ends = _setup(env, "skew", [600, 600])
    shifted = env | {"LD_PRELOAD": str(FAKETIME), "FAKETIME": f"+{SKEW:g}s"}
    with (
        WebServer(env, tmp_path / "web-a.log") as a,
        WebServer(shifted, tmp_path / "web-b.log") as b,
    ):
        # The node's own clock is ahead: its time says so (the server's, not its own).
        body = _json(b.url("/healthz"))[1]
        assert body["time"] == {"ok": False}, body
        assert _json(a.url("/healthz"))[1]["time"] == {"ok": True}
        for web in (a, b):
            assert _json(web.url("/healthz/live")) == (200, {"ok": True})
            assert _json(web.url("/healthz/ready"))[0] == 200

        # Each answer's time left and time are the true ones at the moment it was asked
        # (this process's clock is the database server's machine's), from either node: a
        # screen polling both through a load balancer counts smoothly.
        worst = furthest = 0.0
        for _ in range(20):
            for web in (a, b):
                body, at, slack = _timed_clock(web, event_id)
                ends = datetime.fromisoformat(body["level_ends_at"])
                off = max(
                    abs(body["remaining_ms"] - _ms(ends - at)),
                    abs(_ms(datetime.fromisoformat(body["server_time"]) - at)),
                )
                furthest, worst = max(furthest, off), max(worst, off - slack)
            time.sleep(0.05)
        print(f"\nboth nodes, 40 reads: at most {furthest:.0f} ms from the true time left")
        assert worst < AGREE_MS, worst

        # A pause on one node and a resume on the other, both ways: no time lost.
        for pauser, resumer in ((b, a), (a, b)):
            ends = datetime.fromisoformat(_timed_clock(a, event_id)[0]["level_ends_at"])
            paused, at, slack = _timed_action(pauser, event_id, token, "pause")
            assert paused["status"] == "paused", paused
            assert abs(paused["remaining_ms"] - _ms(ends - at)) < AGREE_MS + slack, (pauser, at)
            time.sleep(0.5)
            resumed, at, slack = _timed_action(resumer, event_id, token, "resume")
            assert resumed["status"] == "running", resumed
            new_end = datetime.fromisoformat(resumed["level_ends_at"])
            lost = paused["remaining_ms"] - _ms(new_end - at)
            print(f"paused on {pauser.port}, resumed on {resumer.port}: {lost:.0f} ms lost")
            assert abs(lost) < AGREE_MS + slack, (resumer, lost)


class Beat:
    """`celery beat` on its own, as deployed; `kill()` is `kill -9`."""

    def __init__(self, env: dict, tmp: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tdsystem.celery", "beat",
             "--loglevel=INFO", f"--schedule={tmp / 'beat-schedule'}"],
            cwd=ROOT, env=env, stdout=(tmp / "beat.log").open("w"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


DURATIONS = [5, 8, 8, 600]  # seconds
KILL_AT = 6.5  # seconds into the clock: in level 2, after the first change


def test_with_beat_and_a_worker_killed_the_levels_change_on_time_once(tmp_path, installation):
    env = installation
    url = env["DATABASE_URL"]

    class NodeWorker(Worker):
        def env(self) -> dict:
            return super().env() | env | {"CLOCK_TICK_SECONDS": "2"}

    workers = [NodeWorker(tmp_path, beat=False, name=name) for name in ("one", "two")]
    beat = None
    try:
        for worker in workers:
            worker.start()
        beat = Beat(env, tmp_path)
        with (
            WebServer(env, tmp_path / "web-a.log") as a,
            WebServer(env, tmp_path / "web-b.log") as b,
        ):
            event_id, _token, first_end = _setup(env, "gone", DURATIONS)
            start = first_end - timedelta(seconds=DURATIONS[0])
            assert wait_for(lambda: _json(a.url("/healthz"))[0] == 200, timeout=20), _json(
                a.url("/healthz?detail=1")
            )

            wait_for(lambda: datetime.now(UTC) > start + timedelta(seconds=KILL_AT), 20)
            beat.kill()
            workers[0].kill()
            killed = datetime.now(UTC)

            # Until the levels after the kill are due: both nodes live, ready and,
            # once the killed worker's ticker is too old to count, healthy.
            ends = start + timedelta(seconds=sum(DURATIONS[:3]))
            while datetime.now(UTC) < ends + timedelta(seconds=1):
                for web in (a, b):
                    assert _json(web.url("/healthz/live")) == (200, {"ok": True})
                    assert _json(web.url("/healthz/ready"))[0] == 200
                time.sleep(0.5)
            assert datetime.now(UTC) - killed > timedelta(seconds=10)
            for web in (a, b):
                status, body = _json(web.url("/healthz"))
                assert status == 200, body

            with psycopg.connect(url.replace("postgres://", "postgresql://")) as db:
                rows = db.execute(
                    "SELECT data FROM events_logentry WHERE event_id = %s "
                    "AND action = 'clock.level' ORDER BY at",
                    (int(event_id),),
                ).fetchall()
                (level,) = db.execute(
                    "SELECT level_index FROM events_clock WHERE event_id = %s",
                    (int(event_id),),
                ).fetchone()
            changes = [(data["from"], data["to"], data["late_ms"]) for (data,) in rows]
            # Each level change once (two tickers ran for the first), each on time.
            assert [(f, t) for f, t, _ in changes] == [(0, 1), (1, 2), (2, 3)], changes
            late = [ms for _f, _t, ms in changes]
            assert all(0 <= ms < 5000 for ms in late), late
            assert level == 3
            print(f"level changes stored late by (ms): {late}")
    finally:
        if beat is not None:
            beat.kill()
        for worker in workers:
            worker.kill()
