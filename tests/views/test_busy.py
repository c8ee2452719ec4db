"""A change that met a lock held too long says "busy, try again" and changes nothing:
a 409 page, a 409 flash for HTMX, a JSON 503 with Retry-After under /api/."""

from __future__ import annotations

import pytest

from tdsystem.core.locking import Busy
from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock
from tdsystem.events.services import clock as services

pytestmark = pytest.mark.django_db

MESSAGE = "Someone else is changing this event right now: try again in a moment."


@pytest.fixture
def busy(monkeypatch):
    def locks_take(**names):
        raise Busy()

    monkeypatch.setattr(services, "locks_take", locks_take)


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def unchanged(event) -> bool:
    clock = Clock.objects.get(pk=event.pk)
    return (
        clock.status == "not-started"
        and not LogEntry.objects.filter(event=event, action__startswith="clock.").exists()
    )


def test_a_page_says_busy_try_again(director_client, event, busy):
    referer = f"http://testserver/console/events/{event.pk}/"
    response = director_client.post(
        f"/console/events/{event.pk}/clock", {"action": "start"}, HTTP_REFERER=referer
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert MESSAGE in page and "Nothing was changed." in page
    assert f'href="{referer}"' in page
    assert unchanged(event)


def test_a_page_offers_no_way_back_to_another_site(director_client, event, busy):
    response = director_client.post(
        f"/console/events/{event.pk}/clock",
        {"action": "start"},
        HTTP_REFERER="https://elsewhere.example/",
    )
    assert response.status_code == 409 and "elsewhere" not in response.content.decode()


def test_htmx_gets_the_message_as_a_flash_at_the_top_of_the_page(director_client, event, busy):
    response = director_client.post(
        f"/console/events/{event.pk}/clock", {"action": "start"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    assert response["HX-Retarget"] == "main" and response["HX-Reswap"] == "afterbegin"
    assert response["X-Busy"] == "1"
    body = response.content.decode()
    assert body.startswith('<div class="flash error" role="alert" data-busy>')
    assert MESSAGE in body and "<html" not in body
    assert unchanged(event)


def test_the_api_answers_503_with_retry_after(client, event, director_token, busy):
    response = client.post(
        f"/api/events/{event.pk}/clock",
        {"action": "start"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {director_token}",
    )
    assert response.status_code == 503
    assert response.json() == {"error": MESSAGE}
    assert response["Retry-After"] == "1"
    assert unchanged(event)


def test_other_errors_are_not_busy(director_client, event):
    response = director_client.post(
        f"/console/events/{event.pk}/clock", {"action": "previous"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409 and "X-Busy" not in response
