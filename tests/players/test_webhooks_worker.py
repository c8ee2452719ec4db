"""The webhooks with a real Celery worker: a bust-out's `player.out` reaches a receiver on
loopback that failed the first time, by the worker's own retry."""

from __future__ import annotations

import pytest

from tdsystem.players import webhooks
from tdsystem.players.models import WebhookDelivery
from tdsystem.results import services as results
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event
from tests.worker import Worker, wait_for

from .receiver import Receiver

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def hook_worker(tmp_path, monkeypatch):
    monkeypatch.setenv("WEBHOOK_RETRY_SECONDS", "0.5")
    worker = Worker(tmp_path)
    worker.purge()
    worker.start()
    yield worker
    worker.stop()


def lost(worker: Worker, receiver: Receiver) -> str:
    """What a failure needs to say: the deliveries made, what the receiver heard, where
    this process sends its tasks, that broker's queue and routing keys, and the worker's
    log."""
    import redis

    from tdsystem.celery import app

    rows = list(WebhookDelivery.objects.values("kind", "attempts", "last_status", "last_error"))
    keys, routes = {}, []
    if app.conf.broker_url.startswith("redis"):
        broker = redis.Redis.from_url(app.conf.broker_url)
        keys = {key.decode(): broker.type(key).decode() for key in broker.keys("*")}
        routes = [m.decode() for m in broker.smembers("_kombu.binding.celery")]
    return (
        f"deliveries {rows}; received {len(receiver.received)}; broker "
        f"{app.conf.broker_url} keys {keys} routes {routes}\n"
        f"{worker.log.read_text()[-3000:]}"
    )


def test_a_bust_out_reaches_the_receiver_after_a_retry(hook_worker):
    receiver = Receiver(statuses=[500, 204])
    try:
        event = make_event(600)
        people = arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
        webhook = webhooks.webhook_add(url=receiver.url, kinds=["player.out"], actor=ACTOR)
        results.bustout_record(event_id=event.pk, entry_ids=[people["T1S2"].pk], actor=ACTOR)

        def delivered():
            return WebhookDelivery.objects.filter(
                webhook=webhook, delivered_at__isnull=False
            ).first()

        delivery = wait_for(delivered, timeout=30)
        assert delivery is not None, lost(hook_worker, receiver)
        assert delivery.attempts == 2 and delivery.last_status == 204
        assert delivery.payload["player"] == "T1S2" and delivery.payload["place"] == 4
        assert len(receiver.received) == 2
    finally:
        receiver.stop()
