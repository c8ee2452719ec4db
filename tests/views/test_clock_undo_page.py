"""The console's event log offers "Undo" on the newest clock action, to the director."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_director_undoes_the_newest_clock_action_from_the_log(client, director, event):
    client.force_login(director)
    client.post(
        reverse("console:clock", args=[event.pk]), {"action": "start", "confirm_empty": "on"}
    )
    entry = LogEntry.objects.get(event=event, action="clock.start")
    undo = reverse("console:clock_undo", args=[event.pk, entry.pk])
    log = client.get(reverse("console:event", args=[event.pk]), {"part": "log"}, **HTMX)
    assert f'action="{undo}"' in log.content.decode()
    answer = client.post(undo, **HTMX)
    html = answer.content.decode()
    assert answer.status_code == 200 and "Undone: Clock started" in html
    assert f'action="{undo}"' not in html and "undone" in html
    assert Clock.objects.get(pk=event.pk).status == "not-started"
    again = client.post(undo, **HTMX)
    assert again.status_code == 409 and "undone already" in again.content.decode()


def test_the_floor_may_not_undo_and_is_not_offered_it(client, director, floor_person, event):
    client.force_login(director)
    client.post(
        reverse("console:clock", args=[event.pk]), {"action": "start", "confirm_empty": "on"}
    )
    entry = LogEntry.objects.get(event=event, action="clock.start")
    undo = reverse("console:clock_undo", args=[event.pk, entry.pk])
    client.force_login(floor_person)
    log = client.get(reverse("console:event", args=[event.pk]), {"part": "log"}, **HTMX)
    assert undo not in log.content.decode()
    assert client.post(undo, **HTMX).status_code == 403
    assert Clock.objects.get(pk=event.pk).status == "running"
    assert LogEntry.objects.get(pk=entry.pk).undone_at is None
