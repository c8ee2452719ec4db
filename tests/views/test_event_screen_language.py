"""An existing event's screen language, changed from its console page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Event

pytestmark = pytest.mark.django_db


def url(event) -> str:
    return reverse("console:event_screen_language", args=[event.pk])


def test_it_changes_the_screen_language_and_the_public_screens_follow(client, director, event):
    client.force_login(director)
    console = client.get(reverse("console:event", args=[event.pk])).content.decode()
    assert url(event) in console and 'name="screen_language"' in console

    answer = client.post(url(event), {"screen_language": "ja"})

    assert answer.status_code == 302 and answer.url == reverse("console:event", args=[event.pk])
    assert Event.objects.get(pk=event.pk).screen_language == "ja"
    entry = LogEntry.objects.get(event=event, action="event.screen_language")
    assert entry.summary == "Screen language: each screen's browser → 日本語"
    assert entry.data["before"] == "" and entry.data["after"] == "ja"
    client.logout()
    schedule = client.get(reverse("schedule", args=[event.pk])).content.decode()
    assert '<html lang="ja"' in schedule


def test_it_goes_back_to_each_screens_browser_and_the_same_again_logs_nothing(
    client, director, event
):
    Event.objects.filter(pk=event.pk).update(screen_language="vi")
    client.force_login(director)
    client.post(url(event), {"screen_language": ""})
    client.post(url(event), {"screen_language": ""})
    assert Event.objects.get(pk=event.pk).screen_language == ""
    assert LogEntry.objects.filter(event=event, action="event.screen_language").count() == 1


def test_it_refuses_a_language_the_site_does_not_speak(client, director, event):
    client.force_login(director)
    answer = client.post(url(event), {"screen_language": "fr"}, follow=True)
    assert Event.objects.get(pk=event.pk).screen_language == ""
    assert "fr is not one of the available choices" in answer.content.decode()
    assert not LogEntry.objects.filter(action="event.screen_language").exists()


def test_a_floor_person_may_not_change_it(client, floor_person, event):
    client.force_login(floor_person)
    answer = client.post(url(event), {"screen_language": "ar"})
    assert answer.status_code == 403
    assert Event.objects.get(pk=event.pk).screen_language == ""
