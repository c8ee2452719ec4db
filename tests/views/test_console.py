"""The director console and the public pages."""

from __future__ import annotations

import pytest

from tdsystem.events.models import Clock

pytestmark = pytest.mark.django_db


def test_the_console_needs_a_login(client, event):
    response = client.get(f"/console/events/{event.pk}/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_table_device_may_not_open_the_console(client, event, table_device):
    client.force_login(table_device)
    assert client.get(f"/console/events/{event.pk}/").status_code == 403


def test_the_director_sees_the_clock_controls(client, event, director):
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert "Start" in page and "Next level" in page and "Event log" in page


def test_an_htmx_start_returns_the_clock_panel(client, event, director):
    client.force_login(director)
    response = client.post(
        f"/console/events/{event.pk}/clock", {"action": "start"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert 'id="clock-panel"' in response.content.decode()
    assert "<html" not in response.content.decode()
    assert response["HX-Trigger"] == "log-changed"
    assert Clock.objects.get(pk=event.pk).status == "running"


def test_a_bad_time_shows_a_message_and_changes_nothing(client, event, director):
    client.force_login(director)
    response = client.post(
        f"/console/events/{event.pk}/clock",
        {"action": "set_time", "minutes": "soon"},
        HTTP_HX_REQUEST="true",
    )
    assert "is not a number of minutes" in response.content.decode()
    assert Clock.objects.get(pk=event.pk).version == 0


def test_floor_may_pause_but_not_skip_levels(client, event, director, floor_person):
    client.force_login(director)
    client.post(f"/console/events/{event.pk}/clock", {"action": "start"})
    client.force_login(floor_person)
    assert client.post(f"/console/events/{event.pk}/clock", {"action": "next"}).status_code == 403
    client.post(f"/console/events/{event.pk}/clock", {"action": "pause"})
    assert Clock.objects.get(pk=event.pk).status == "paused"


def test_the_clock_screen_is_public(client, event):
    page = client.get(f"/events/{event.pk}/clock/").content.decode()
    assert "Level 1" in page and "10:00" in page and "Tap for sound" in page


def test_the_printed_schedule_lists_levels_breaks_and_raises(client, event):
    page = client.get(f"/events/{event.pk}/schedule/").content.decode()
    assert "Colour up" in page and "Min raise to" in page and "@media print" not in page
