"""The webhooks: what each change sends, to whom, signed, and retried until delivered."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import time
from decimal import Decimal

import pytest

from tdsystem.core.actors import Actor
from tdsystem.players import links, tasks_webhooks, webhooks
from tdsystem.players.errors import PlayersRefused
from tdsystem.players.models import Webhook, WebhookDelivery
from tdsystem.results import services as results
from tdsystem.results.models import Finish
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

from .receiver import Receiver

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
DIRECTOR = Actor(label="director")


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture
def sent(monkeypatch):
    """The delivery tasks sent, kept instead of going to the broker."""
    calls: list[list] = []

    def apply_async(args, **kwargs):
        calls.append(list(args))

    monkeypatch.setattr(tasks_webhooks.webhook_deliver, "apply_async", apply_async)
    return calls


def hook(url: str = "http://127.0.0.1:9/hook", kinds: list[str] | None = None) -> Webhook:
    return webhooks.webhook_add(url=url, kinds=kinds or [], actor=DIRECTOR)


def bust(event, *entries):
    return results.bustout_record(
        event_id=event.pk, entry_ids=[e.pk for e in entries], actor=ACTOR, rng_seed=3
    )


def balancing_event():
    """Two tables, 9 and 8: a bust-out at the second moves a player from the first."""
    event = make_event(600)
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    return event, people


def body_json(delivery: WebhookDelivery) -> dict:
    return json.loads(webhooks.body_of(delivery))


def test_it_signs_the_timestamp_and_body_with_the_webhooks_secret(receiver):
    webhook = hook(receiver.url)
    delivery = webhooks.webhook_ping(webhook=webhook)
    outcome = webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0)
    assert outcome.delivered
    (got,) = receiver.received
    headers = {k.lower(): v for k, v in got.headers.items()}
    assert headers["content-type"] == "application/json"
    assert headers["x-tdsystem-event"] == "ping"
    assert headers["x-tdsystem-delivery"] == str(delivery.pk)
    timestamp = headers["x-tdsystem-timestamp"]
    assert abs(int(timestamp) - time.time()) < 60
    expected = hmac.new(
        webhook.secret.encode(), timestamp.encode() + b"." + got.body, hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(headers["x-tdsystem-signature"], f"sha256={expected}")
    assert json.loads(got.body) == {
        "id": delivery.pk,
        "kind": "ping",
        "created_at": delivery.created_at.isoformat(),
        "data": {"message": "ping", "webhook": webhook.pk},
    }
    delivery.refresh_from_db()
    assert delivery.delivered_at is not None and delivery.last_status == 200
    assert delivery.attempts == 1


def test_a_bust_out_with_a_move_sends_one_delivery_per_matching_webhook(
    sent, django_capture_on_commit_callbacks
):
    event, people = balancing_event()
    every = hook("http://127.0.0.1:9/every")
    outs = hook("http://127.0.0.1:9/outs", kinds=["player.out"])
    moves = hook("http://127.0.0.1:9/moves", kinds=["player.moved"])
    paused = hook("http://127.0.0.1:9/paused")
    webhooks.webhook_activate(webhook=paused, active=False, actor=DIRECTOR)
    with django_capture_on_commit_callbacks(execute=True):
        done = bust(event, people["T2S4"])
    assert done.rebalance is not None and done.rebalance.kind == "balance"
    made = {(d.webhook_id, d.kind) for d in WebhookDelivery.objects.all()}
    assert made == {
        (every.pk, "player.out"),
        (every.pk, "player.moved"),
        (outs.pk, "player.out"),
        (moves.pk, "player.moved"),
    }
    assert WebhookDelivery.objects.count() == 4  # one per webhook per change
    assert sorted(call[0] for call in sent) == sorted(
        WebhookDelivery.objects.values_list("pk", flat=True)
    )
    assert all(call[1] == 0 for call in sent)


def test_a_move_from_a_real_balancing_says_who_goes_where(sent, django_capture_on_commit_callbacks):
    event, people = balancing_event()
    hook(kinds=["player.moved"])
    linked = {e.pk: links.link_of_entry(e) for e in people.values() if e.table.number == 1}
    with django_capture_on_commit_callbacks(execute=True):
        done = bust(event, people["T2S4"])
    (move,) = done.bustout.moves.all()
    (delivery,) = WebhookDelivery.objects.filter(kind="player.moved")
    assert delivery.payload == {
        "event_id": event.pk,
        "event": event.name,
        "entry": move.entry.number,
        "player": move.entry.player.name,
        "from_table": 1,
        "from_seat": move.from_seat,
        "to_table": 2,
        "to_seat": move.to_seat,
        "reason": "balance",
        "at": move.created_at.isoformat(),
        "player_url": links.player_url(linked[move.entry_id]),
    }
    assert body_json(delivery)["kind"] == "player.moved"


def test_a_move_without_a_live_link_makes_none(sent, django_capture_on_commit_callbacks):
    event, people = balancing_event()
    hook(kinds=["player.moved"])
    from tdsystem.players.models import PlayerLink

    with django_capture_on_commit_callbacks(execute=True):
        bust(event, people["T2S4"])
    (delivery,) = WebhookDelivery.objects.filter(kind="player.moved")
    assert delivery.payload["player_url"] is None
    assert not PlayerLink.objects.exists()


def test_a_player_out_in_the_money_says_the_place_and_prize(
    sent, django_capture_on_commit_callbacks
):
    event = make_event(600, buy_in=Decimal(100))
    people = arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    results.payout_plan_update(event_id=event.pk, table="top-2", unit=Decimal(1), actor=ACTOR)
    hook(kinds=["player.out"])
    with django_capture_on_commit_callbacks(execute=True):
        bust(event, people["T1S1"])
        bust(event, people["T1S2"])
    payloads = {d.payload["player"]: d.payload for d in WebhookDelivery.objects.all()}
    third, second, winner = payloads["T1S1"], payloads["T1S2"], payloads["T1S3"]
    assert (third["place"], third["prize"], third["player"]) == (3, None, "T1S1")
    assert (second["place"], second["player"], second["winner"]) == (2, "T1S2", False)
    assert Decimal(second["prize"]) == Finish.objects.get(entry=people["T1S2"]).prize > 0
    assert (winner["place"], winner["winner"]) == (1, True)
    assert third["at"] and third["player_url"] is None


def test_a_seat_ready_is_sent_with_the_hold_time(sent, django_capture_on_commit_callbacks):
    from django.utils import timezone

    from tdsystem.players.models import Alternate
    from tdsystem.players.signals import seat_ready

    event = make_event(600)
    alternate = Alternate.objects.create(event=event, name="Ann", rank=1)
    link = links.link_of_alternate(alternate)
    hook(kinds=["player.seat_ready"])
    due = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        seat_ready.send(sender=Alternate, alternate=alternate, due_at=due)
    (delivery,) = WebhookDelivery.objects.all()
    assert delivery.kind == "player.seat_ready"
    assert delivery.payload == {
        "event_id": event.pk,
        "event": event.name,
        "alternate": alternate.pk,
        "player": "Ann",
        "due_at": due.isoformat(),
        "player_url": links.player_url(link),
    }


def test_it_retries_after_a_500_then_delivers(receiver):
    receiver.statuses = [500, 200]
    delivery = webhooks.webhook_ping(webhook=hook(receiver.url))
    # Run eagerly: a retry runs at once, its countdown aside.
    tasks_webhooks.webhook_deliver.apply(args=[delivery.pk, 0])
    delivery.refresh_from_db()
    assert len(receiver.received) == 2
    assert delivery.attempts == 2 and delivery.last_status == 200
    assert delivery.delivered_at is not None and delivery.last_error == ""
    first, second = receiver.received
    assert first.body == second.body  # the same delivery, the same bytes


def test_it_gives_up_after_the_last_attempt_and_keeps_the_error(receiver):
    receiver.statuses = [503]
    delivery = webhooks.webhook_ping(webhook=hook(receiver.url))
    tasks_webhooks.webhook_deliver.apply(args=[delivery.pk, 0])
    delivery.refresh_from_db()
    assert delivery.attempts == webhooks.ATTEMPTS == len(receiver.received)
    assert delivery.delivered_at is None and delivery.last_status == 503
    assert "503" in delivery.last_error


def test_the_backoff_doubles_to_about_an_hour_in_all():
    delays = [webhooks.retry_delay(n) for n in range(1, webhooks.ATTEMPTS)]
    assert delays[:3] == [30, 60, 120]
    assert 3000 < sum(delays) < 4500


def test_a_duplicate_task_sends_once(receiver):
    delivery = webhooks.webhook_ping(webhook=hook(receiver.url))
    assert webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0).sent
    assert not webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0).sent
    assert len(receiver.received) == 1


def test_a_resend_starts_again_and_the_old_round_stops(receiver):
    receiver.statuses = [500, 200]
    delivery = webhooks.webhook_ping(webhook=hook(receiver.url))
    assert webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0).retry
    delivery.refresh_from_db()
    assert webhooks.delivery_resend(delivery=delivery)
    assert webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0).delivered
    # The first round's retry (after one attempt) finds the count changed: nothing sent.
    assert not webhooks.delivery_attempt(delivery_id=delivery.pk, expected=1).sent
    assert len(receiver.received) == 2


def test_a_dead_receiver_is_an_error_kept_not_raised():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    delivery = webhooks.webhook_ping(webhook=hook(f"http://127.0.0.1:{port}/hook"))
    outcome = webhooks.delivery_attempt(delivery_id=delivery.pk, expected=0)
    assert outcome.retry
    delivery.refresh_from_db()
    assert delivery.last_status is None and "refused" in delivery.last_error.lower()


def test_a_bust_out_never_waits_for_a_webhook_nor_fails_without_a_broker(
    monkeypatch, django_capture_on_commit_callbacks
):
    event, people = balancing_event()
    hook()

    def no_broker(*args, **kwargs):
        raise ConnectionRefusedError("no broker")

    def no_sending(*args, **kwargs):
        raise AssertionError("a webhook was sent inside the bust-out")

    monkeypatch.setattr(tasks_webhooks.webhook_deliver, "apply_async", no_broker)
    monkeypatch.setattr(webhooks, "post", no_sending)
    with django_capture_on_commit_callbacks(execute=True):
        done = bust(event, people["T2S4"])
    assert done.finishes and Finish.objects.filter(entry=people["T2S4"]).exists()
    waiting = WebhookDelivery.objects.filter(attempts=0, delivered_at__isnull=True)
    assert waiting.count() == 2  # kept for beat's sweep


def test_a_fault_in_the_payloads_is_logged_and_the_bust_out_stands(
    monkeypatch, django_capture_on_commit_callbacks
):
    event, people = balancing_event()
    hook()

    def broken(ids):
        raise RuntimeError("a bug")

    monkeypatch.setattr(webhooks, "out_payloads", broken)
    monkeypatch.setattr(webhooks, "moved_payloads", broken)
    with django_capture_on_commit_callbacks(execute=True):
        bust(event, people["T2S4"])
    assert Finish.objects.filter(entry=people["T2S4"]).exists()
    assert not WebhookDelivery.objects.exists()


def test_the_sweep_sends_the_deliveries_never_tried(sent):
    from datetime import timedelta

    from django.utils import timezone

    webhook = hook()
    old = WebhookDelivery.objects.create(webhook=webhook, kind="ping", payload={})
    WebhookDelivery.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(minutes=5)
    )
    WebhookDelivery.objects.create(webhook=webhook, kind="ping", payload={})  # just made
    assert tasks_webhooks.webhooks_sweep() == 1
    assert sent == [[old.pk, 0]]


def test_only_http_addresses_and_known_kinds_are_taken():
    for url in ("ftp://example.org/x", "file:///etc/passwd", "javascript:alert(1)", "/hook"):
        with pytest.raises(PlayersRefused):
            hook(url)
    with pytest.raises(PlayersRefused):
        hook(kinds=["player.danced"])
    assert not Webhook.objects.exists()


def test_no_webhook_costs_the_change_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert webhooks.events_send("player.out", lambda: [{"x": 1}]) == []


def test_a_bust_out_asks_the_players_side_one_statement_after_its_commit(
    django_assert_num_queries, django_capture_on_commit_callbacks
):
    """No webhook and nobody waiting on the alternates list: both asked at once."""
    from tdsystem.players import receivers

    event, people = balancing_event()
    with django_capture_on_commit_callbacks() as callbacks:
        bust(event, people["T2S4"])
    (told,) = [c for c in callbacks if getattr(c, "func", None) is receivers._out]
    with django_assert_num_queries(1):
        told()


def test_the_documented_check_accepts_a_real_delivery_and_nothing_else(receiver):
    """The receiver's snippet in docs/webhooks.md, run against what was really sent."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    snippet = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    webhook = hook(receiver.url)
    webhooks.delivery_attempt(delivery_id=webhooks.webhook_ping(webhook=webhook).pk, expected=0)
    (got,) = receiver.received
    namespace: dict = {}
    exec(snippet, namespace)
    namespace["SECRET"] = webhook.secret.encode()
    verified = namespace["verified"]
    assert verified(got.headers, got.body)
    assert not verified(got.headers, got.body.replace(b"ping", b"pong"))
    namespace["SECRET"] = b"another secret"
    assert not verified(got.headers, got.body)
