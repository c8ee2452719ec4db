"""Two web processes share the screens' cache (core/screencache.py) on one Redis.

The system as deployed on a private PostgreSQL and Redis: two gunicorn processes, screens
polling both the whole time, the floor busting players out through one and the other. The
cache is kept five seconds, so a cache of each process's own would answer a TV the count
before a bust-out for seconds on the process that did not record it. Here, once any poll
has answered a count, no poll that starts after it, on either process, answers a higher
one; and every poll that starts half a second after a bust-out's answer answers its count.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from .servers import RedisServer, WebServer, http, manage, private_postgres

pytestmark = pytest.mark.postgres

SETUP = """
from tdsystem.events.services import clock_action
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.personas import make_token, make_user

token = make_token(make_user("cache", "director"))
event = make_event(3600, name="shared cache")
people = arrange(event, {1: list(range(1, 10)), 2: list(range(1, 10))})
clock_action(event_id=event.pk, action="start", actor=ACTOR)
out = [people[f"T{t}S{s}"].pk for t, s in ((1, 3), (2, 5), (1, 7), (2, 2))]
print(event.pk, token, ",".join(map(str, out)))
"""
SCREENS = 6  # threads polling, each one process then the other, as a TV behind a balancer
SETTLED = 0.5  # seconds after a bust-out's answer by which every poll shows it


@dataclass(frozen=True)
class Poll:
    started: float
    ended: float
    players_left: int
    node: int


@pytest.fixture
def installation(tmp_path) -> Iterator[dict]:
    with (
        RedisServer() as redis,
        private_postgres(
            tmp_path,
            "tdsystem_cache",
            CELERY_BROKER_URL=redis.url,
            CACHE_URL=redis.url.rsplit("/", 1)[0] + "/1",
            SCREEN_CACHE_SECONDS="5",
        ) as (_pg, env),
    ):
        yield env


def test_after_a_bust_out_no_poll_on_either_process_answers_the_old_count(tmp_path, installation):
    env = installation
    event_id, token, out = manage(env, "shell", "-c", SETUP).split()[-3:]
    with (
        WebServer(env, tmp_path / "web-a.log") as a,
        WebServer(env, tmp_path / "web-b.log") as b,
    ):
        nodes = (a, b)
        polls: list[Poll] = []
        failures: list[str] = []
        stop = threading.Event()

        def screen(first: int) -> None:
            turn = first
            while not stop.is_set():
                node = turn % 2
                started = time.monotonic()
                status, body = http("GET", nodes[node].url(f"/api/events/{event_id}/clock"))
                ended = time.monotonic()
                if status != 200:
                    failures.append(f"{status} from node {node}: {body[:200]!r}")
                else:
                    polls.append(Poll(started, ended, json.loads(body)["players_left"], node))
                turn += 1

        screens = [threading.Thread(target=screen, args=(i,)) for i in range(SCREENS)]
        for thread in screens:
            thread.start()
        answered: list[tuple[float, int]] = []  # when each bust-out's answer came, the count
        try:
            time.sleep(1.5)  # both processes' entries filled, and kept five seconds
            for number, entry in enumerate(out.split(",")):
                status, body = http(
                    "POST",
                    nodes[number % 2].url(f"/api/events/{event_id}/bustouts"),
                    token=token,
                    body=json.dumps({"entries": [int(entry)]}).encode(),
                )
                assert status == 201, body
                answered.append((time.monotonic(), json.loads(body)["players_left"]))
                time.sleep(0.7)
            time.sleep(0.7)
        finally:
            stop.set()
            for thread in screens:
                thread.join(10)
    assert not failures, failures[:5]
    assert {poll.node for poll in polls} == {0, 1}
    assert len(polls) > 100, len(polls)

    # Every poll that started a moment after a bust-out was answered shows it (or a later
    # one), on both processes, long before the five seconds the cache keeps an entry: the
    # bust-out's commit made them fill it again. (Within the moment, while one of them
    # fills it, the others are answered the entry before.)
    for at, left in answered:
        late = [p for p in polls if p.started > at + SETTLED and p.players_left > left]
        assert not late, (left, late[:3])
    # Once a poll has answered a count, no poll starting after it answers a higher one.
    by_end = sorted(polls, key=lambda p: p.ended)
    lowest, went_back = 18, []
    ends = iter(by_end)
    shown = next(ends)
    for poll in sorted(polls, key=lambda p: p.started):
        while shown is not None and shown.ended < poll.started:
            lowest = min(lowest, shown.players_left)
            shown = next(ends, None)
        if poll.players_left > lowest:
            went_back.append(poll)
    assert not went_back, went_back[:3]
    counts = sorted({p.players_left for p in polls}, reverse=True)
    print(f"\n{len(polls)} polls on two processes, counts shown {counts}, none went back")
    assert counts[0] == 18 and counts[-1] == 14


@pytest.mark.slow
def test_with_redis_gone_the_screens_are_answered_from_the_database(tmp_path):
    """Redis (the cache alone here: the broker is a file) stops answering while screens
    poll (stopped with SIGSTOP: its packets unanswered, its entries kept): every poll is
    answered, a bust-out is recorded and shown. Redis back with its entries from before
    the bust-out, kept a minute, they are never shown: the bust-out's bump was sent first."""
    with (
        RedisServer() as redis,
        private_postgres(
            tmp_path, "tdsystem_cache_down", CACHE_URL=redis.url, SCREEN_CACHE_SECONDS="60"
        ) as (_pg, env),
    ):
        event_id, token, out = manage(env, "shell", "-c", SETUP).split()[-3:]
        first, second = out.split(",")[:2]
        clock = f"/api/events/{event_id}/clock"

        def left(web: WebServer) -> int:
            status, body = http("GET", web.url(clock), timeout=5)
            assert status == 200, body[:300]
            return json.loads(body)["players_left"]

        def bust(web: WebServer, entry: str) -> None:
            body = json.dumps({"entries": [int(entry)]}).encode()
            status, answer = http("POST", web.url(f"/api/events/{event_id}/bustouts"),
                                  token=token, body=body)  # fmt: skip
            assert status == 201, answer[:300]

        with WebServer(env, tmp_path / "web.log") as web:
            assert left(web) == 18  # now kept in Redis for a minute
            os.killpg(redis.proc.pid, signal.SIGSTOP)
            try:
                started = time.monotonic()
                assert [left(web) for _ in range(10)] == [18] * 10
                # One ask waited for Redis's socket timeout (0.5 s), then none for a while.
                assert time.monotonic() - started < 3
                bust(web, first)
                assert left(web) == 17
            finally:
                os.killpg(redis.proc.pid, signal.SIGCONT)
            time.sleep(5.5)  # DOWN_SECONDS: the process asks the cache again
            assert [left(web) for _ in range(5)] == [17] * 5
            bust(web, second)
            assert left(web) == 16
        assert "screen cache unavailable" in (tmp_path / "web.log").read_text()
