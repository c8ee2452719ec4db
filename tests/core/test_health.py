from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tdsystem.core import health
from tdsystem.core.models import Heartbeat
from tdsystem.core.tasks import heartbeat

pytestmark = pytest.mark.django_db


def _ticker(seconds_ago: float = 0) -> None:
    """A worker's clock ticker that ticked `seconds_ago` (tdsystem/events/ticker.py)."""
    Heartbeat.objects.update_or_create(
        name="ticker:worker1@host",
        defaults={"seen_at": timezone.now() - timedelta(seconds=seconds_ago)},
    )


def test_it_reports_a_missing_worker_with_503(client, director, monkeypatch):
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["worker"] == {"ok": False}
    client.force_login(director)
    body = client.get("/healthz?detail=1").json()
    assert body["worker"] == {"ok": False, "detail": "no heartbeat yet"}


def test_it_tells_the_public_up_or_down_without_error_text(client, settings, monkeypatch):
    monkeypatch.setattr(
        health,
        "check_broker",
        lambda: (False, "OperationalError: cannot connect to redis://db.internal:6379/0"),
    )
    body = client.get("/healthz?detail=1").json()
    assert body == {
        "ok": False,
        "database": {"ok": True},
        "broker": {"ok": False},
        "worker": {"ok": False},
        "ticker": {"ok": False},
        "time": {"ok": True},
    }


def test_it_gives_the_details_only_to_staff(client, director, table_device, monkeypatch):
    from tdsystem.seating.models import TableDevice, VenueTable

    monkeypatch.setattr(health, "check_broker", lambda: (False, "ConnectionError: refused"))
    TableDevice.objects.create(
        user=table_device, venue_table=VenueTable.objects.create(number=3, seats=9)
    )
    client.force_login(table_device)  # a tablet at a table is not the console's staff
    assert "detail" not in client.get("/healthz?detail=1").json()["broker"]
    client.force_login(director)
    assert client.get("/healthz").json()["broker"] == {"ok": False}
    broker = client.get("/healthz?detail=1").json()["broker"]
    assert broker == {"ok": False, "detail": "ConnectionError: refused"}


def test_it_is_healthy_with_a_recent_heartbeat(client, monkeypatch):
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    heartbeat()
    _ticker()
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json()["ok"] is True


def test_an_old_heartbeat_means_no_worker(client, director, monkeypatch):
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    Heartbeat.objects.create(name="worker", seen_at=timezone.now() - timedelta(minutes=5))
    client.force_login(director)
    body = client.get("/healthz?detail=1").json()
    assert body["ok"] is False and "s ago" in body["worker"]["detail"]


def test_a_broker_that_is_down_is_reported(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    ok, detail = health.check_broker()
    assert ok is False and detail


def test_the_console_shows_a_banner_while_a_part_is_down(client, director, monkeypatch):
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    client.force_login(director)
    response = client.get("/health/banner")
    assert b"No Celery worker" in response.content
    heartbeat()
    _ticker()
    assert b"health-banner" not in client.get("/health/banner").content


def test_with_the_database_down_the_worker_is_not_asked_for(monkeypatch):
    """The heartbeat is in the database: one wait for an unreachable database, not two."""
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    monkeypatch.setattr(health, "check_database", lambda: (False, "OperationalError: gone"))
    asked = []
    monkeypatch.setattr(health, "check_worker", lambda: asked.append(1) or (True, "ok"))
    report = health.health()
    assert asked == []
    assert report["ok"] is False
    assert report["worker"] == {"ok": False, "detail": "unknown: the database is unreachable"}


def test_live_answers_without_asking_the_database_or_the_broker(
    client, monkeypatch, django_assert_num_queries
):
    def down() -> tuple[bool, str]:
        raise AssertionError("asked")

    monkeypatch.setattr(health, "check_broker", down)
    monkeypatch.setattr(health, "check_database", down)
    with django_assert_num_queries(0):
        response = client.get("/healthz/live")
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert "no-cache" in response["Cache-Control"]


def test_ready_follows_the_database_only(client, director, monkeypatch):
    from tdsystem.core import views

    # No worker, no ticker, no broker: the pages still work, so the node is ready.
    monkeypatch.setattr(health, "check_broker", lambda: (False, "refused"))
    response = client.get("/healthz/ready")
    assert response.status_code == 200 and response.json() == {"ok": True, "database": {"ok": True}}
    assert client.get("/healthz").status_code == 503
    client.force_login(director)
    vendor = client.get("/healthz/ready?detail=1").json()["database"]["detail"]
    assert vendor == connection.vendor  # "sqlite" or "postgresql"
    monkeypatch.setattr(views, "check_database", lambda: (False, "OperationalError: gone"))
    response = client.get("/healthz/ready")
    assert response.status_code == 503 and response.json() == {
        "ok": False,
        "database": {"ok": False},
    }


def test_it_names_the_clock_ticker_when_only_the_ticker_is_gone(client, director, monkeypatch):
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    heartbeat()
    _ticker(seconds_ago=120)
    client.force_login(director)
    body = client.get("/healthz?detail=1").json()
    assert body["ok"] is False and body["worker"]["ok"] is True
    assert body["ticker"] == {"ok": False, "detail": "last tick 120 s ago"}
    banner = client.get("/health/banner").content.decode()
    assert "No clock ticker (last tick 120 s ago)" in banner
    assert "No Celery worker" not in banner
    _ticker()
    Heartbeat.objects.create(name="ticker:worker2@host", seen_at=timezone.now())
    body = client.get("/healthz?detail=1").json()
    assert body["ok"] is True and body["ticker"]["detail"] == "2 clock tickers running"


def test_workers_that_take_no_tasks_are_not_called_missing_while_the_tickers_run(
    client, director, monkeypatch
):
    """Beat (or the path through the broker) gone: the clock goes on, the banner says what
    waits."""
    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    Heartbeat.objects.create(name="worker", seen_at=timezone.now() - timedelta(minutes=5))
    _ticker()
    client.force_login(director)
    banner = client.get("/health/banner").content.decode()
    assert "The workers take no tasks" in banner and "No Celery worker" not in banner
    assert "No clock ticker" not in banner


def test_a_machine_whose_clock_is_off_says_so(client, director, monkeypatch):
    from tdsystem.core.servertime import Offset

    monkeypatch.setattr(health, "check_broker", lambda: (True, "ok"))
    heartbeat()
    _ticker()
    # The database server's clock is 2 s behind this machine's.
    monkeypatch.setattr(health, "clock_offset", lambda: Offset(-2.0, 0.001, "postgresql"))
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["time"] == {"ok": False}
    client.force_login(director)
    detail = client.get("/healthz?detail=1").json()["time"]["detail"]
    assert detail == "this machine's clock is +2.000 s from the database server's"
    banner = client.get("/health/banner").content.decode()
    assert "This machine's clock is off" in banner and "+2.000 s" in banner
    assert client.get("/healthz/ready").status_code == 200
    monkeypatch.setattr(health, "clock_offset", lambda: Offset(0.4, 0.001, "postgresql"))
    assert client.get("/healthz").status_code == 200
