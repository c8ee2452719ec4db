"""A clock action's answer is the clock that action wrote: built in its transaction from
the row it wrote, so another writer's change landing right after the commit is not in it
(the tester saw a resume answer 200 with "status": "paused")."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from tdsystem.events import services
from tdsystem.events.models import Clock
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

# The other writer runs once the request's transaction commits: a real commit.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_resume_answers_running_though_another_writer_pauses_right_after_it(
    client, floor_token, monkeypatch
):
    event = make_event(600, 600)
    services.clock_action(event_id=event.pk, action="start", actor=ACTOR)
    services.clock_action(event_id=event.pk, action="pause", actor=ACTOR)
    action = services.clock_action

    def and_another_writer_pauses(**kwargs):
        written = action(**kwargs)
        # Another writer's pause, the moment this change is committed.
        transaction.on_commit(
            lambda: action(event_id=event.pk, action="pause", actor=ACTOR, source="other")
        )
        return written

    monkeypatch.setattr(services, "clock_action", and_another_writer_pauses)
    response = client.post(
        f"/api/events/{event.pk}/clock",
        json.dumps({"action": "resume"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {floor_token}",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "running" and body["event"]["status"] == "running"
    resumed = body["version"]
    # The other writer did land, after the answer was made.
    clock = Clock.objects.get(pk=event.pk)
    assert clock.status == "paused" and clock.version == resumed + 1
