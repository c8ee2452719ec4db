"""The console's warning banner follows the real parts: a killed broker, a killed worker."""

from __future__ import annotations

import warnings

import pytest

from tests.worker import wait_for

from .servers import RedisServer, private_worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_it_shows_while_a_part_is_down_and_goes_when_it_is_back(
    tmp_path, client, director, settings
):
    settings.WORKER_HEARTBEAT_SECONDS = 1  # a worker counts as gone after 8 s of silence
    client.force_login(director)

    def banner() -> str:
        response = client.get("/health/banner")
        assert response.status_code == 200
        return response.content.decode()

    with RedisServer() as broker:
        settings.CELERY_BROKER_URL = broker.url
        worker = private_worker(tmp_path, broker.url, WORKER_HEARTBEAT_SECONDS="1")
        try:
            worker.start()
            assert wait_for(lambda: "health-banner" not in banner(), timeout=15), banner()

            broker.kill()
            assert "Task broker unreachable" in banner()
            assert "No Celery worker" not in banner()

            broker.start()
            if worker.proc.poll() is not None:  # see test_broker_drop
                warnings.warn("the worker exited when the broker dropped", stacklevel=1)
                worker.start()
            assert wait_for(lambda: "health-banner" not in banner(), timeout=15), banner()

            worker.kill()
            assert wait_for(lambda: "No Celery worker" in banner(), timeout=15), banner()
            assert "Task broker unreachable" not in banner()

            worker.start()
            assert wait_for(lambda: "health-banner" not in banner(), timeout=15), banner()
        finally:
            worker.kill()
