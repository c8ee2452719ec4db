"""The director's webhooks page: add (the secret shown once), pause, resume, delete, a
test sent, a failed delivery sent again; directors only."""

from __future__ import annotations

import pytest

from tdsystem.players import tasks_webhooks, webhooks
from tdsystem.players.models import Webhook, WebhookDelivery
from tdsystem.simulation.seatings import ACTOR

pytestmark = pytest.mark.django_db

PAGE = "/console/webhooks/"


@pytest.fixture
def sent(monkeypatch):
    calls: list[list] = []
    monkeypatch.setattr(
        tasks_webhooks.webhook_deliver, "apply_async", lambda args, **kw: calls.append(list(args))
    )
    return calls


@pytest.fixture
def dora(client, director):
    client.force_login(director)
    return client


def test_it_adds_a_webhook_and_shows_its_secret_once(dora):
    answer = dora.post(
        PAGE, {"url": "https://sms.local/hook", "kinds": ["player.moved", "player.out"]}
    )
    assert answer.status_code == 200
    webhook = Webhook.objects.get()
    assert webhook.kinds == ["player.moved", "player.out"] and webhook.is_active
    assert webhook.secret in answer.content.decode()
    again = dora.get(PAGE).content.decode()
    assert "https://sms.local/hook" in again and webhook.secret not in again


def test_it_refuses_an_address_that_is_not_http(dora):
    answer = dora.post(PAGE, {"url": "file:///etc/passwd"})
    assert answer.status_code == 400
    assert not Webhook.objects.exists()


def test_it_pauses_resumes_and_deletes_with_htmx(dora):
    webhook = webhooks.webhook_add(url="http://127.0.0.1:9/", kinds=[], actor=ACTOR)
    headers = {"HX-Request": "true"}
    answer = dora.post(f"{PAGE}{webhook.pk}/active", {"active": "0"}, headers=headers)
    assert answer.status_code == 200 and b'id="hooks"' in answer.content
    assert b"<html" not in answer.content and not Webhook.objects.get().is_active
    dora.post(f"{PAGE}{webhook.pk}/active", {"active": "1"}, headers=headers)
    assert Webhook.objects.get().is_active
    answer = dora.post(f"{PAGE}{webhook.pk}/remove", headers=headers)
    assert answer.status_code == 200 and not Webhook.objects.exists()


def test_a_test_is_sent_and_a_failed_delivery_sent_again(
    dora, sent, django_capture_on_commit_callbacks
):
    webhook = webhooks.webhook_add(url="http://127.0.0.1:9/", kinds=["player.out"], actor=ACTOR)
    with django_capture_on_commit_callbacks(execute=True):
        answer = dora.post(f"{PAGE}{webhook.pk}/ping", headers={"HX-Request": "true"})
    assert answer.status_code == 200 and b'id="deliveries"' in answer.content
    delivery = WebhookDelivery.objects.get(kind="ping")
    assert sent == [[delivery.pk, 0]]
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=webhooks.ATTEMPTS, last_status=500, last_error="HTTP 500"
    )
    page = dora.get(f"{PAGE}deliveries").content.decode()
    assert "failed" in page and "HTTP 500" in page and "Resend" in page
    with django_capture_on_commit_callbacks(execute=True):
        dora.post(f"{PAGE}deliveries/{delivery.pk}/resend")
    assert WebhookDelivery.objects.get(pk=delivery.pk).attempts == 0
    assert sent[-1] == [delivery.pk, 0]


def test_only_directors_manage_webhooks(client, floor_person):
    webhook = webhooks.webhook_add(url="http://127.0.0.1:9/", kinds=[], actor=ACTOR)
    client.force_login(floor_person)
    assert client.get(PAGE).status_code == 403
    assert client.post(f"{PAGE}{webhook.pk}/remove").status_code == 403
    assert Webhook.objects.exists()
    client.logout()
    assert client.get(PAGE).status_code == 302


def test_the_console_links_the_page_for_a_director(dora):
    assert PAGE.encode() in dora.get("/console/").content
