from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tdsystem.core import health
from tdsystem.core.models import Heartbeat
from tdsystem.core.tasks import heartbeat

pytestmark = pytest.mark.django_db


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
