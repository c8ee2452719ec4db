"""The same write sent twice at once (a retry while the first is still running), on
PostgreSQL with threads: without a key both go through; with the same key the second
waits on the first one's key row and answers its answer, or past LOCK_TIMEOUT_SECONDS is
told the first is still running (409, Retry-After), and one purchase is made."""

from __future__ import annotations

import json
import time
from decimal import Decimal

import pytest
from django.test import Client

from tdsystem.core.models import IdempotencyKey
from tdsystem.seating import services
from tdsystem.seating.models import Purchase
from tdsystem.simulation.seatings import ACTOR
from tests.concurrency.test_busy_answers import Holder
from tests.concurrency.threads import errors_of, run_together
from tests.fixtures import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rebuys(monkeypatch):
    """An event with rebuys and one player; each rebuy holds its transaction half a second."""
    event = make_event(
        600,
        600,
        rebuy_until_level=1,
        rebuy_threshold=5000,
        rebuy_price=Decimal("40"),
        rebuy_chips=6000,
        rebuy_max=5,
    )
    services.player_register(event=event, name="Ana", actor=ACTOR)
    purchase = services.entry_purchase

    def slow(**kwargs):
        bought = purchase(**kwargs)
        time.sleep(0.5)  # bought, not committed: a second sending arrives meanwhile
        return bought

    monkeypatch.setattr(services, "entry_purchase", slow)
    return event


def rebuy(event, token: str, key: str | None):
    def send():
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
        if key:
            headers["HTTP_IDEMPOTENCY_KEY"] = key
        return Client().post(
            f"/api/events/{event.pk}/entries/1/rebuy",
            json.dumps({"stack": 100}),
            content_type="application/json",
            **headers,
        )

    return send


def test_without_a_key_two_sendings_at_once_are_two_rebuys(rebuys, floor_token):
    results = run_together(rebuy(rebuys, floor_token, None), rebuy(rebuys, floor_token, None))
    assert not errors_of(results)
    assert [r.status_code for r in results] == [200, 200]
    assert Purchase.objects.filter(kind="rebuy").count() == 2


def test_with_one_key_the_second_waits_and_answers_the_first_answer(rebuys, floor_token):
    results = run_together(rebuy(rebuys, floor_token, "k1"), rebuy(rebuys, floor_token, "k1"))
    assert not errors_of(results)
    first, second = sorted(results, key=lambda r: r.has_header("Idempotent-Replayed"))
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.content == first.content and second["Idempotent-Replayed"] == "true"
    assert Purchase.objects.filter(kind="rebuy").count() == 1
    assert IdempotencyKey.objects.get().status == 200


def test_past_the_lock_timeout_the_second_is_told_to_retry_and_then_gets_the_answer(
    rebuys, floor_token, settings
):
    settings.LOCK_TIMEOUT_SECONDS = 0.2
    results = run_together(rebuy(rebuys, floor_token, "k1"), rebuy(rebuys, floor_token, "k1"))
    assert not errors_of(results)
    done, running = sorted(results, key=lambda r: r.status_code)
    assert (done.status_code, running.status_code) == (200, 409)
    assert running["Retry-After"] == "1"
    assert "still being answered" in running.json()["error"]
    later = rebuy(rebuys, floor_token, "k1")()
    assert (later.status_code, later.content) == (200, done.content)
    assert Purchase.objects.filter(kind="rebuy").count() == 1


def test_a_write_that_meets_a_held_lock_is_busy_keeps_no_key_and_goes_through_after(
    rebuys, floor_token, settings
):
    """Busy (503) inside the request's transaction: the service's savepoint and the key's
    row roll back, so the same key sent again is a write of its own."""
    settings.LOCK_TIMEOUT_SECONDS = 0.3
    with Holder(rebuys.pk):
        busy = rebuy(rebuys, floor_token, "k1")()
    assert (busy.status_code, busy["Retry-After"]) == (503, "1")
    assert not IdempotencyKey.objects.exists() and not Purchase.objects.filter(kind="rebuy")
    done = rebuy(rebuys, floor_token, "k1")()
    assert done.status_code == 200 and not done.has_header("Idempotent-Replayed")
    assert Purchase.objects.filter(kind="rebuy").count() == 1
