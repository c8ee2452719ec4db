"""The broker (a private Redis) killed while the clock runs, then started again."""

from __future__ import annotations

import json
import os
import warnings
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tests import worker as test_worker
from tests.fixtures import make_event
from tests.worker import wait_for

from . import watch_clock
from .servers import RedisServer, WebServer, http, private_worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DURATIONS = [3, 3, 3, 3, 600]


def test_it_runs_on_without_the_broker_and_catches_up_when_it_is_back(tmp_path, director_token):
    event = make_event(*DURATIONS)
    with RedisServer() as broker:
        env = os.environ | {
            "DATABASE_URL": test_worker.test_database_url(),
            "CELERY_BROKER_URL": broker.url,
            "DB_POOL_MIN": "1",
            "DB_POOL_MAX": "4",
            "SCREEN_CACHE_SECONDS": "0",
        }
        worker = private_worker(tmp_path, broker.url)
        try:
            worker.start()
            with WebServer(env, tmp_path / "web.log") as web:
                clock_url = web.url(f"/api/events/{event.pk}/clock")

                def fetch() -> dict:
                    status, body = http("GET", clock_url)
                    assert status == 200, body
                    return json.loads(body)

                def act(action: str) -> dict:
                    payload = json.dumps({"action": action}).encode()
                    status, body = http("POST", clock_url, token=director_token, body=payload)
                    assert status == 200, (action, body)
                    return json.loads(body)

                first = act("start")
                first_end = datetime.fromisoformat(first["level_ends_at"])
                assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 1, timeout=10)

                broker.kill()
                status, body = http("GET", web.url("/healthz"))
                assert status == 503 and json.loads(body)["broker"]["ok"] is False

                watch_clock(
                    fetch,
                    anchor=(0, first_end),
                    durations=DURATIONS,
                    until=first_end + timedelta(seconds=3.6),  # into level 2
                )
                # Director actions while the broker is down: pause and resume.
                paused = act("pause")
                assert paused["status"] == "paused" and paused["level_index"] >= 2
                resumed = act("resume")
                assert resumed["status"] == "running"
                assert resumed["level_index"] == paused["level_index"]
                ends = datetime.fromisoformat(resumed["level_ends_at"])
                anchor = (resumed["level_index"], ends)
                watch_clock(
                    fetch, anchor=anchor, durations=DURATIONS, until=ends + timedelta(seconds=0.5)
                )
                assert http("GET", web.url("/healthz"))[0] == 503

                broker.start()  # the same port: the worker and beat reconnect
                if worker.proc.poll() is not None:
                    # Celery/kombu 5.7 on Redis: a worker holding an unacknowledged
                    # (ETA) task exits on "Connection to broker lost" unless
                    # broker_transport_options has ack_emulation off. Restart it as a
                    # supervisor would, and say so.
                    warnings.warn(
                        "the worker exited when the broker dropped: "
                        + worker.log.read_text()
                        .split("Unrecoverable error: ")[-1]
                        .splitlines()[0][:120],
                        stacklevel=1,
                    )
                    worker.start()
                assert wait_for(lambda: Clock.objects.get(pk=event.pk).level_index == 4, timeout=40)
                status, body = http("GET", web.url("/healthz"))
                assert json.loads(body)["broker"]["ok"] is True, body
                watch_clock(fetch, anchor=anchor, durations=DURATIONS, until=timezone.now())
        finally:
            worker.kill()
    changes = list(LogEntry.objects.filter(event=event, action="clock.level").order_by("at", "id"))
    assert [c.data["to"] for c in changes] == [1, 2, 3, 4]
    # Each change is stamped with the time the level really ended, however late applied:
    # on the first timeline up to the pause, on the resumed one after it.
    paused_level, resumed_end = anchor
    expected = []
    for to in (1, 2, 3, 4):
        if to <= paused_level:
            expected.append(first_end + timedelta(seconds=sum(DURATIONS[1:to])))
        else:
            expected.append(resumed_end + timedelta(seconds=sum(DURATIONS[paused_level + 1 : to])))
    assert [c.at for c in changes] == expected
